package org.concurrentbloom.redis;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test clock that moves only when told, for the expiring filter's caller-clock mode. It starts far
 * from real time on purpose: the filter must keep Redis's expiries in the server's time whatever the
 * caller's clock says. Thread-safe (one AtomicLong).
 */
final class ManualClock implements InstantSource {
  private final AtomicLong millis;

  ManualClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  /** A clock at a round time some years from now, not the real one. */
  static ManualClock farFromNow() {
    return new ManualClock(2_000_000_000_000L);
  }

  void set(long newMillis) {
    millis.set(newMillis);
  }

  void advance(long byMillis) {
    millis.addAndGet(byMillis);
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }
}
