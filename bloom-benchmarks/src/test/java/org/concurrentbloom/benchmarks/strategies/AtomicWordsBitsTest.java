package org.concurrentbloom.benchmarks.strategies;

class AtomicWordsBitsTest extends ConcurrentBitsContract {
  @Override
  ConcurrentBits create(long n, double fpp) {
    return new AtomicWordsBits(n, fpp);
  }
}
