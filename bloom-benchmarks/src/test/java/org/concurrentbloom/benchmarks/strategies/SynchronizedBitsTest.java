package org.concurrentbloom.benchmarks.strategies;

class SynchronizedBitsTest extends ConcurrentBitsContract {
  @Override
  ConcurrentBits create(long n, double fpp) {
    return new SynchronizedBits(n, fpp);
  }
}
