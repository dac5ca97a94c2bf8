package org.concurrentbloom.benchmarks.strategies;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StripedLockBitsTest extends ConcurrentBitsContract {
  @Override
  ConcurrentBits create(long n, double fpp) {
    return new StripedLockBits(n, fpp);
  }

  @Test
  void cutsLargeArraysIntoAtMost64StripesAndTinyOnesIntoFewer() {
    assertThat(new StripedLockBits(10_000_000, 0.01).stripeCount()).isBetween(33, 64);
    assertThat(new StripedLockBits(100_000, 0.01).stripeCount()).isBetween(33, 64);
    assertThat(new StripedLockBits(1, 0.01).stripeCount()).isEqualTo(1);
  }
}
