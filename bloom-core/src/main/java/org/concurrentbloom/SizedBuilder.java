package org.concurrentbloom;

import java.util.Objects;

/**
 * What the builders of filters sized by n and p share: the funnel, n (required) and p (default 1%),
 * each checked when set so that the message names the bad value. Not thread-safe, like every builder.
 *
 * @param <T> the type of item
 * @param <B> the concrete builder, returned by the setters so that calls chain
 */
abstract class SizedBuilder<T, B extends SizedBuilder<T, B>> {
  final Funnel<? super T> funnel;
  long expectedInsertions = -1;
  double fpp = 0.01;

  SizedBuilder(Funnel<? super T> funnel) {
    this.funnel = Objects.requireNonNull(funnel, "funnel");
  }

  abstract B self();

  /** n, the number of distinct items the filter must hold at its target fpp. Required; at least 1. */
  public B expectedInsertions(long expectedInsertions) {
    Sizing.checkExpectedInsertions(expectedInsertions);
    this.expectedInsertions = expectedInsertions;
    return self();
  }

  /** p, the false-positive probability at n items, in (0, 1). Defaults to 0.01. */
  public B fpp(double fpp) {
    Sizing.checkFpp(fpp);
    this.fpp = fpp;
    return self();
  }

  /** n, once set. */
  final long requireExpectedInsertions() {
    if (expectedInsertions < 0) {
      throw new IllegalStateException("expectedInsertions(n) must be set before build()");
    }
    return expectedInsertions;
  }
}
