package org.concurrentbloom.guard;

import java.time.Duration;

/**
 * Delays between retries of a failing rebuild: {@code initial}, then doubling, never above {@code max}.
 * Doubling keeps a source that is down for long from being hammered, while the cap bounds how stale
 * the guard can get once it is back. No jitter: one guard retries one source. Immutable.
 */
final class Backoff {
  final Duration initial;
  final Duration max;

  Backoff(Duration initial, Duration max) {
    if (initial == null || initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("initial retry delay must be positive, was " + initial);
    }
    if (max == null || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("max retry delay must be >= initial (" + initial + "), was " + max);
    }
    this.initial = initial;
    this.max = max;
  }

  /** The delay before retry number {@code failures} (1 after the first failure). */
  Duration delayAfter(long failures) {
    if (failures < 1) {
      throw new IllegalArgumentException("failures must be >= 1, was " + failures);
    }
    Duration d = initial;
    for (long i = 1; i < failures && d.compareTo(max) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(max) > 0 ? max : d;
  }
}
