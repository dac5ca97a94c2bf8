package org.concurrentbloom.benchmarks;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to, for the expiring-filter benchmarks: the filter under test steps
 * (recycles a generation or a layer) exactly when the benchmark advances this clock, never because wall
 * time passed during a measurement. Reading it is one volatile load, cheaper than the system clock, which
 * a real deployment would read instead (a few ns more per call, for ours and the peer alike).
 */
final class ManualClock implements InstantSource {
  /** An arbitrary fixed start, so that runs are alike. */
  static final long START_MILLIS = 1_700_000_000_000L;

  private final AtomicLong millis = new AtomicLong(START_MILLIS);

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  /** Moves the clock forward by {@code delta} ms. */
  void advance(long delta) {
    millis.addAndGet(delta);
  }
}
