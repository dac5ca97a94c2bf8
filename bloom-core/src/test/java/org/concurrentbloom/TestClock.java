package org.concurrentbloom;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test moves it: forward, backward or not at all. Thread-safe. */
final class TestClock implements InstantSource {
  private final AtomicLong millis;

  TestClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  void set(long t) {
    millis.set(t);
  }

  long advance(long by) {
    return millis.addAndGet(by);
  }

  /** Sets the clock to {@code update} iff it shows {@code expect}. */
  boolean compareAndSet(long expect, long update) {
    return millis.compareAndSet(expect, update);
  }
}
