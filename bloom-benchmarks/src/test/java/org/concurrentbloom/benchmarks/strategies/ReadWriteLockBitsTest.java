package org.concurrentbloom.benchmarks.strategies;

class ReadWriteLockBitsTest extends ConcurrentBitsContract {
  @Override
  ConcurrentBits create(long n, double fpp) {
    return new ReadWriteLockBits(n, fpp);
  }
}
