package org.concurrentbloom.cli;

import java.util.Locale;

/** Number formatting shared by the commands' human-readable output; locale-independent. */
final class Fmt {
  private Fmt() {}

  /** 1234567 as "1,234,567". */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** "1 key", "1,234 keys". */
  static String keys(long n) {
    return count(n) + (n == 1 ? " key" : " keys");
  }

  /** "1 filter", "3 filters": {@code noun} with an s unless n is 1. */
  static String plural(long n, String noun) {
    return count(n) + " " + noun + (n == 1 ? "" : "s");
  }

  /** A byte count with a binary-unit approximation: "1198136 bytes (1.14 MiB)". */
  static String bytes(long n) {
    return n + " bytes (" + humanBytes(n) + ")";
  }

  /** 1536 as "1.50 KiB". */
  static String humanBytes(long n) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = n;
    int unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit == 0 ? n + " B" : String.format(Locale.ROOT, "%.2f %s", value, units[unit]);
  }

  /** A probability as a percentage with four decimals: 0.01 as "1.0000%". */
  static String percent(double p) {
    return String.format(Locale.ROOT, "%.4f%%", 100 * p);
  }

  /** A probability in general notation with four significant digits: "0.01000", "1.234e-17". */
  static String probability(double p) {
    return String.format(Locale.ROOT, "%.4g", p);
  }

  /** A ratio in [0, 1] with six decimals. */
  static String ratio(double r) {
    return String.format(Locale.ROOT, "%.6f", r);
  }

  /** Operations per second from a count and elapsed nanoseconds: "5.21 million/s". */
  static String rate(long operations, long nanos) {
    if (nanos <= 0) {
      return "n/a";
    }
    double perSecond = operations * 1e9 / nanos;
    return String.format(Locale.ROOT, "%.2f million/s", perSecond / 1e6);
  }
}
