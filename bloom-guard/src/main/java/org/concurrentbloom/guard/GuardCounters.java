package org.concurrentbloom.guard;

import java.util.concurrent.atomic.LongAdder;

/**
 * The check counters of a guard. {@link LongAdder}s, because every checking thread bumps them and a
 * shared atomic counter would make all those threads contend for one cache line. Any thread may call
 * any method.
 */
final class GuardCounters {
  final LongAdder checks = new LongAdder();
  final LongAdder negatives = new LongAdder();
  final LongAdder lookups = new LongAdder();
  final LongAdder falsePositives = new LongAdder();
  /** Definite negatives given inside {@code check}: with the false positives, the absent keys checked. */
  final LongAdder checkedNegatives = new LongAdder();

  void check(boolean maybe) {
    checks.increment();
    if (!maybe) {
      negatives.increment();
    }
  }

  long positives() {
    return checks.sum() - negatives.sum();
  }

  /** falsePositives / (falsePositives + checkedNegatives), or NaN before either is counted. */
  double observedFpr() {
    long fp = falsePositives.sum();
    long absent = fp + checkedNegatives.sum();
    return absent == 0 ? Double.NaN : (double) fp / absent;
  }
}
