package org.concurrentbloom.benchmarks;

/** Settings every benchmark shares. */
public final class BenchmarkDefaults {
  /** The false-positive rate every filter is sized for. */
  public static final double FPP = 0.01;

  private BenchmarkDefaults() {}
}
