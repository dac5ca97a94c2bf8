package org.concurrentbloom.benchmarks.strategies;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Strategy (c): the bit array cut into at most {@value #MAX_STRIPES} contiguous stripes of words, each
 * guarded by its own lock; every probe, of an add or a query, holds the lock of its word's stripe while
 * it touches the word. Two threads rarely want the same stripe, so they rarely wait, but every probe
 * pays a lock and an unlock (two atomic operations) where the lock-free filter pays one CAS per new bit.
 *
 * <p>Locks are taken one at a time, never nested, so no lock order is needed and no deadlock is
 * possible. That is still correct: a Bloom add need not be atomic as a whole. Each bit is set under its
 * stripe's lock, so a query that starts after the add returned takes the same locks afterwards and sees
 * every bit (the unlock happens-before the later lock). A query that overlaps the add may see some bits
 * and not others, which is fine: it may answer either way.
 *
 * <p>The lock objects are allocated one after another and two may share a cache line; with random
 * probes over 64 stripes that costs little next to the lock operations themselves.
 */
public final class StripedLockBits implements ConcurrentBits {
  static final int MAX_STRIPES = 64;

  private final PlainBits bits;
  private final ReentrantLock[] stripes;
  /** Word w belongs to stripe w >>> shift: a shift, not a division, on every probe. */
  private final int shift;

  public StripedLockBits(long n, double fpp) {
    bits = new PlainBits(n, fpp);
    int words = bits.words.length;
    int s = 0;
    while (((words - 1) >>> s) >= MAX_STRIPES) {
      s++;
    }
    shift = s;
    stripes = new ReentrantLock[((words - 1) >>> s) + 1];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /** How many stripes this filter has: {@value #MAX_STRIPES} or fewer for a small array. */
  int stripeCount() {
    return stripes.length;
  }

  @Override
  public boolean add(long h1, long h2) {
    long m = bits.bits;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    boolean changed = false;
    for (int i = 1; ; i++) {
      ReentrantLock lock = stripeOf(x);
      lock.lock();
      try {
        changed |= bits.setBit(x);
      } finally {
        lock.unlock();
      }
      if (i == bits.k) {
        return changed;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  @Override
  public boolean mightContain(long h1, long h2) {
    long m = bits.bits;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    for (int i = 1; ; i++) {
      ReentrantLock lock = stripeOf(x);
      boolean set;
      lock.lock();
      try {
        set = bits.testBit(x);
      } finally {
        lock.unlock();
      }
      if (!set) {
        return false;
      }
      if (i == bits.k) {
        return true;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  private ReentrantLock stripeOf(long bit) {
    return stripes[(int) (bit >>> 6) >>> shift];
  }
}
