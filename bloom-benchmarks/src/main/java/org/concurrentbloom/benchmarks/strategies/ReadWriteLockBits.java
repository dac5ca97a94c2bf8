package org.concurrentbloom.benchmarks.strategies;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Strategy (b): a {@link ReentrantReadWriteLock}: queries share the read lock, adds take the write lock.
 * Queries no longer exclude each other, but taking the read lock is still a compare-and-swap on the
 * lock's shared counter, so two reading threads keep stealing that cache line from each other; and a
 * writer stops every reader.
 */
public final class ReadWriteLockBits implements ConcurrentBits {
  private final PlainBits bits;
  private final Lock read;
  private final Lock write;

  public ReadWriteLockBits(long n, double fpp) {
    bits = new PlainBits(n, fpp);
    ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    read = lock.readLock();
    write = lock.writeLock();
  }

  @Override
  public boolean add(long h1, long h2) {
    write.lock();
    try {
      return bits.add(h1, h2);
    } finally {
      write.unlock();
    }
  }

  @Override
  public boolean mightContain(long h1, long h2) {
    read.lock();
    try {
      return bits.mightContain(h1, h2);
    } finally {
      read.unlock();
    }
  }
}
