package org.concurrentbloom.benchmarks.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What the report knows about the suite's naming. A benchmark method named {@code op} runs one thread
 * and {@code opShared} two; the library benchmarks choose a filter with {@code @Param impl} and are
 * compared with {@code GUAVA}, the strategy benchmarks ({@code StrategyBenchmark}) choose one with
 * {@code @Param strategy} and are compared with {@code SYNCHRONIZED}. Batch lookups
 * ({@code mightContainAll}) have no Guava counterpart and are compared with Guava's single
 * {@code mightContain} on the same keys, n and threads.
 */
final class Cases {
  static final String STRATEGY_CLASS = "StrategyBenchmark";
  private static final String SHARED = "Shared";
  private static final String BATCH_OP = "mightContainAll";
  /** Table order: lookups, batch lookups, adds; anything unknown after them. */
  private static final List<String> OP_ORDER = List.of("mightContain", BATCH_OP, "add");

  private Cases() {}

  /** The operation measured: the method name without the two-thread suffix. */
  static String op(Result r) {
    String m = r.method();
    return m.endsWith(SHARED) ? m.substring(0, m.length() - SHARED.length()) : m;
  }

  static boolean isStrategy(Result r) {
    return r.className().equals(STRATEGY_CLASS);
  }

  /** What is being compared: the impl or strategy parameter. */
  static String subject(Result r) {
    return isStrategy(r) ? r.param("strategy", "?") : r.param("impl", "?");
  }

  /** The subject every row of this result's table is compared with. */
  static String baselineSubject(Result r) {
    return isStrategy(r) ? "SYNCHRONIZED" : "GUAVA";
  }

  /** A readable name of the baseline, for column headings. */
  static String baselineLabel(Result r) {
    return isStrategy(r) ? "synchronized" : "Guava";
  }

  /** The table a result belongs in: the operation and the thread count, library and strategies apart. */
  static String table(Result r) {
    String threads = r.threads() == 1 ? "1 thread" : r.threads() + " threads, one shared filter";
    String what = "`" + op(r) + "`" + (op(r).equals(BATCH_OP) ? " (per key)" : "");
    return (isStrategy(r) ? "Thread-safety strategies: " : "") + what + ", " + threads;
  }

  /** Sort key of a table: library before strategies, then by operation, then by threads. */
  static String tableOrder(Result r) {
    int rank = OP_ORDER.indexOf(op(r));
    return (isStrategy(r) ? "1" : "0") + (char) ('a' + (rank < 0 ? OP_ORDER.size() : rank))
        + String.format(Locale.ROOT, "%03d", r.threads());
  }

  /**
   * The results in report order: tables (library before strategies, then operation, then threads),
   * within a table by keys (as first run) and n, and within a case as run, which is the order of the
   * {@code @Param} values.
   */
  static List<Result> inReportOrder(List<Result> results) {
    List<String> keyOrder = results.stream().map(r -> r.param("keys", "")).distinct().toList();
    List<Result> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparing(Cases::tableOrder)
        .thenComparing(r -> keyOrder.indexOf(r.param("keys", "")))
        .thenComparingLong(r -> parseLong(r.param("n", "0")))); // stable: run order within a case
    return sorted;
  }

  private static long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The baseline result for {@code r} among {@code all}, if the run has it. */
  static Optional<Result> baseline(Result r, List<Result> all) {
    String op = op(r).equals(BATCH_OP) ? "mightContain" : op(r);
    return all.stream()
        .filter(b -> isStrategy(b) == isStrategy(r))
        .filter(b -> op(b).equals(op) && b.threads() == r.threads())
        .filter(b -> subject(b).equals(baselineSubject(r)))
        .filter(b -> Objects.equals(b.params().get("keys"), r.params().get("keys")))
        .filter(b -> Objects.equals(b.params().get("n"), r.params().get("n")))
        .findFirst();
  }

  /** Chart panel: lookups (single and batch), adds, strategies. */
  static String panel(Result r) {
    if (isStrategy(r)) {
      return "Thread-safety strategies (String keys hashed beforehand, p = 1%)";
    }
    return op(r).equals("add")
        ? "add (new keys), p = 1%"
        : "mightContain (batch = mightContainAll, per key), p = 1%";
  }

  /** Chart category, the group of bars: keys, n and threads; for strategies, operation and threads. */
  static String category(Result r) {
    String threads = r.threads() + (r.threads() == 1 ? " thread" : " threads");
    if (isStrategy(r)) {
      return op(r) + ", n=" + shortCount(r.param("n", "?")) + ", " + threads;
    }
    return r.param("keys", "?").toLowerCase(Locale.ROOT) + ", n=" + shortCount(r.param("n", "?")) + ", " + threads;
  }

  /** Readable names of the subjects; others are shown as they are. */
  private static final Map<String, String> LABELS = Map.of(
      "OURS_STANDARD", "ours standard",
      "OURS_BLOCKED", "ours blocked",
      "GUAVA", "Guava",
      "COMMONS", "Commons",
      "ATOMIC_CAS", "lock-free CAS",
      "READ_WRITE_LOCK", "read-write lock",
      "STRIPED_LOCKS", "striped locks",
      "SYNCHRONIZED", "synchronized");

  /** Row label and chart series (bar colour): the subject, batch lookups apart from single ones. */
  static String series(Result r) {
    String subject = subject(r);
    return LABELS.getOrDefault(subject, subject) + (op(r).equals(BATCH_OP) ? " (batch)" : "");
  }

  /** The results with single operations before batches, each in run order: the legend's order. */
  static List<Result> inSeriesOrder(List<Result> results) {
    List<Result> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparing(r -> op(r).equals(BATCH_OP))); // stable
    return sorted;
  }

  /** "10000000" as "10M", "1000" as "1k"; anything else unchanged. */
  static String shortCount(String n) {
    try {
      long v = Long.parseLong(n);
      if (v >= 1_000_000 && v % 1_000_000 == 0) {
        return v / 1_000_000 + "M";
      }
      if (v >= 1_000 && v % 1_000 == 0) {
        return v / 1_000 + "k";
      }
      return n;
    } catch (NumberFormatException e) {
      return n;
    }
  }
}
