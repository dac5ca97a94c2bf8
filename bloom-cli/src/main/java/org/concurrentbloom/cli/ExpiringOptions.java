package org.concurrentbloom.cli;

import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnel;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options of {@code bloom create} that make an expiring filter: {@code --window} and
 * {@code --generations}. Each value is handed to the library's builder on its own, so that a refusal
 * names the option and the value the user gave, followed by the library's reason.
 */
final class ExpiringOptions {
  @Option(names = "--window", paramLabel = "W", converter = WindowOption.class,
      description = "Make an expiring filter: every key added is remembered at least W, and forgotten "
          + "(unless added again) by the max retention bloom info prints, W*G/(G-1). W is "
          + WindowOption.FORMS + ", at least 1s. N is then the keys added per window.")
  WindowOption.Window window;

  @Option(names = "--generations", paramLabel = "G",
      description = "With --window: the number of generations, a power of two from 2 to 64 (default 8); "
          + "more forget sooner after W, for more bits.")
  Integer generations;

  /** Whether {@code --window} was given: the filter is an expiring one. */
  boolean requested() {
    return window != null;
  }

  /**
   * The builder for the filter these options ask for, checked value by value; the filter follows the
   * wall clock.
   *
   * @throws ParameterException (a usage error) naming the option and value the library refuses, with its
   *     reason
   */
  ExpiringBloomFilter.Builder<Object> builder(CommandLine cmd, Funnel<Object> funnel, long n, double fpp) {
    ExpiringBloomFilter.Builder<Object> b = ExpiringBloomFilter.builder(funnel);
    try {
      b.window(window.duration());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(cmd, "invalid --window " + window.text() + ": " + e.getMessage(), e);
    }
    if (generations != null) {
      try {
        b.generations(generations);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(cmd, "invalid --generations " + generations + ": " + e.getMessage(), e);
      }
    }
    try {
      b.expectedInsertionsPerWindow(n).fpp(fpp).bitSize(); // bitSize: the shape's own limit, before any lock
    } catch (IllegalArgumentException e) {
      throw new ParameterException(cmd, "invalid --expected " + n + " / --fpp " + fpp + " with --window "
          + window.text() + ": " + e.getMessage(), e);
    }
    return b;
  }
}
