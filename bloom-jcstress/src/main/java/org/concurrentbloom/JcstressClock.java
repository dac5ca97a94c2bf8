package org.concurrentbloom;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The clock of the {@link ExpiringBloomFilter} tests: it shows what the actors and the arbiter set, and
 * moves at no other time. A volatile field, so every set is seen by every later read in any thread.
 */
final class JcstressClock implements InstantSource {
  private volatile long millis;

  JcstressClock(long startMillis) {
    this.millis = startMillis;
  }

  @Override
  public long millis() {
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  void set(long t) {
    millis = t;
  }
}
