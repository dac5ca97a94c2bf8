package org.concurrentbloom.benchmarks.report;

import java.util.Map;

/**
 * One JMH result: a benchmark method with one set of parameter values.
 *
 * @param benchmark the fully qualified method, e.g. {@code org.concurrentbloom.benchmarks.AddBenchmark.add}
 * @param mode JMH's mode: avgt, thrpt, sample or ss
 * @param threads the number of benchmark threads
 * @param params the {@code @Param} values
 * @param score the mean over measurement iterations, in {@code unit}
 * @param error the half-width of JMH's 99.9% confidence interval; NaN below three iterations
 * @param median the median over measurement iterations
 * @param unit e.g. {@code ns/op} or {@code ops/us}
 * @param secondaryMetrics what profilers measured alongside, under JMH's names, in file order: with
 *     {@code -prof gc} for instance {@code gc.alloc.rate.norm} in B/op (older JMH releases began the
 *     names with a middle dot, U+00B7: {@code ·gc.alloc.rate.norm}); empty without a profiler
 */
record Result(String benchmark, String mode, int threads, Map<String, String> params, double score,
    double error, double median, String unit, Map<String, Metric> secondaryMetrics) {

  /** A secondary metric: its mean, the half-width of its 99.9% confidence interval (or NaN), its unit. */
  record Metric(double score, double error, String unit) {}

  /** The method name: the part after the last dot. */
  String method() {
    return benchmark.substring(benchmark.lastIndexOf('.') + 1);
  }

  /** The benchmark class's simple name. */
  String className() {
    String owner = benchmark.substring(0, Math.max(0, benchmark.lastIndexOf('.')));
    return owner.substring(owner.lastIndexOf('.') + 1);
  }

  String param(String name, String absent) {
    return params.getOrDefault(name, absent);
  }

  /** {@code value} in this result's unit, as nanoseconds per operation (per thread). */
  double nanosPerOp(double value) {
    int slash = unit.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("unknown unit " + unit);
    }
    if (unit.startsWith("ops/")) { // throughput: operations per time unit
      return nanosIn(unit.substring(slash + 1)) / value;
    }
    return value * nanosIn(unit.substring(0, slash)); // time per operation
  }

  /** The score as nanoseconds per operation per thread. */
  double nanosPerOp() {
    return nanosPerOp(score);
  }

  /** Operations per microsecond summed over all threads: the filter's total rate. */
  double opsPerMicrosecond() {
    return threads * 1000.0 / nanosPerOp();
  }

  private static double nanosIn(String timeUnit) {
    return switch (timeUnit) {
      case "ns" -> 1;
      case "us" -> 1e3;
      case "ms" -> 1e6;
      case "s" -> 1e9;
      case "min" -> 60e9;
      default -> throw new IllegalArgumentException("unknown time unit " + timeUnit);
    };
  }
}
