package org.concurrentbloom.benchmarks.strategies;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Strategy (a), lock-free: each bit is set with a compare-and-swap on its 64-bit word through a
 * {@link VarHandle}, and queries read words with acquire loads and no lock at all. A CAS that loses
 * to another thread's write to the same word retries with the new value, so no bit is ever lost; a bit
 * that is already set costs only the read. This is the approach of our real filter, in its textbook
 * one-pass form (bloom-core loads all k words first to overlap the cache misses, then CASes).
 */
public final class AtomicWordsBits implements ConcurrentBits {
  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] words;
  private final long bits;
  private final int k;

  public AtomicWordsBits(long n, double fpp) {
    bits = Probes.bits(n, fpp);
    k = Probes.hashFunctions(fpp);
    words = new long[Math.toIntExact(bits >>> 6)];
  }

  @Override
  public boolean add(long h1, long h2) {
    long x = Probes.reduce(h1, bits);
    long y = Probes.reduce(h2, bits);
    boolean changed = false;
    for (int i = 1; ; i++) {
      changed |= setBit(x);
      if (i == k) {
        return changed;
      }
      x = Probes.nextIndex(x, y, bits);
      y = Probes.nextStep(y, i, bits);
    }
  }

  @Override
  public boolean mightContain(long h1, long h2) {
    long x = Probes.reduce(h1, bits);
    long y = Probes.reduce(h2, bits);
    for (int i = 1; ; i++) {
      long word = (long) WORDS.getAcquire(words, (int) (x >>> 6));
      if ((word & (1L << x)) == 0) {
        return false;
      }
      if (i == k) {
        return true;
      }
      x = Probes.nextIndex(x, y, bits);
      y = Probes.nextStep(y, i, bits);
    }
  }

  private boolean setBit(long bit) {
    int w = (int) (bit >>> 6);
    long mask = 1L << bit;
    long old = (long) WORDS.getAcquire(words, w);
    while ((old & mask) == 0) {
      // compareAndExchange is volatile: it publishes the bit to every later acquire load of the word.
      long witness = (long) WORDS.compareAndExchange(words, w, old, old | mask);
      if (witness == old) {
        return true;
      }
      old = witness;
    }
    return false;
  }
}
