package org.concurrentbloom.benchmarks.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What the report knows about the suite's naming. A benchmark method named {@code op} runs one thread
 * and {@code opShared} two; the library benchmarks choose a filter with {@code @Param impl} and are
 * compared with {@code GUAVA}, the strategy benchmarks ({@code StrategyBenchmark}) choose one with
 * {@code @Param strategy} and are compared with {@code SYNCHRONIZED}. Batch lookups
 * ({@code mightContainAll}) have no Guava counterpart and are compared with Guava's single
 * {@code mightContain} on the same keys, n and threads.
 *
 * <p>Library rows are also compared with the fastest peer of their case: the quickest of the other
 * libraries (Guava, Commons Collections, DataSketches, FastFilter, whichever the run has) on the same
 * operation, keys, n and threads. {@code LongKeysBenchmark} has no {@code keys} parameter: its keys are
 * long, and its rows join the long-key rows of the same tables.
 */
final class Cases {
  static final String STRATEGY_CLASS = "StrategyBenchmark";
  private static final String SHARED = "Shared";
  private static final String BATCH_OP = "mightContainAll";
  /** ExpiringBenchmark's third operation: one expiry step, in µs. */
  private static final String EXPIRY_STEP_OP = "expiryStep";
  /** Table order: lookups, batch lookups, adds; anything unknown after them. */
  private static final List<String> OP_ORDER =
      List.of("mightContain", "mightContainLong", BATCH_OP, "add", "addLong", "addAll", EXPIRY_STEP_OP);
  /** The library benchmark whose keys are always long, without a keys parameter. */
  static final String LONG_KEYS_CLASS = "LongKeysBenchmark";
  /**
   * The other libraries, by their {@code impl} values. Named, not "everything but ours", so that a
   * benchmark of some other kind with an {@code impl} parameter can never pass for a peer.
   */
  private static final List<String> PEERS = List.of("GUAVA", "COMMONS", "DATASKETCHES", "FASTFILTER");
  /** Row order within a case, for the libraries; other subjects keep the run order, after these. */
  private static final List<String> SUBJECT_ORDER =
      List.of("OURS_STANDARD", "OURS_BLOCKED", "OURS_STANDARD_MURMUR3", "OURS_BLOCKED_MURMUR3", "GUAVA", "COMMONS",
          "DATASKETCHES", "FASTFILTER");

  private Cases() {}

  /**
   * A group of benchmarks compared with one baseline subject: the library against Guava, the
   * thread-safety strategies against {@code synchronized}, the counting filter against Commons
   * Collections' counting filter, the scalable filter against a standard filter sized up front, the
   * expiring filter against Commons Collections' layered filter.
   */
  enum Family {
    LIBRARY("", "impl", "GUAVA", "Guava", "?", "?"),
    STRATEGIES("Thread-safety strategies: ", "strategy", "SYNCHRONIZED", "synchronized", "STRING (hashed)", "?"),
    // CountingBenchmark has no keys or n parameter: String keys at its fixed N.
    COUNTING("Counting filter: ", "impl", "COMMONS", "Commons", "STRING", "1000000"),
    SCALABLE("Scalable filter: ", "impl", "SIZED_UP_FRONT", "sized up front", "?", "?"),
    // ExpiringBenchmark: the sliding-window filters, compared with Commons' layered filter.
    EXPIRING("Expiring filter: ", "impl", "COMMONS_LAYERED", "Commons layered", "?", "?"),
    // LongPathBenchmark: addLong, mightContainLong and the long[] batches against FastFilter's BlockedBloom,
    // whose batches are loops of its single calls, so each batch row is compared with FastFilter's single.
    LONG_PATH("Long keys, primitive path: ", "impl", "FASTFILTER", "FastFilter", "LONG", "?");

    final String tablePrefix;
    final String subjectParam;
    final String baseline;
    final String baselineLabel;
    /** What the keys and n columns show when the benchmark has no such parameter. */
    final String defaultKeys;
    final String defaultN;

    Family(String tablePrefix, String subjectParam, String baseline, String baselineLabel, String defaultKeys,
        String defaultN) {
      this.tablePrefix = tablePrefix;
      this.subjectParam = subjectParam;
      this.baseline = baseline;
      this.baselineLabel = baselineLabel;
      this.defaultKeys = defaultKeys;
      this.defaultN = defaultN;
    }
  }

  /** The keys column: the keys parameter, or what the family's benchmarks use. */
  static String keys(Result r) {
    return r.param("keys", r.className().equals(LONG_KEYS_CLASS) ? "LONG" : family(r).defaultKeys);
  }

  /** The n column: the n parameter, or what the family's benchmarks use. */
  static String n(Result r) {
    return r.param("n", family(r).defaultN);
  }

  static Family family(Result r) {
    switch (r.className()) {
      case STRATEGY_CLASS:
        return Family.STRATEGIES;
      case "CountingBenchmark":
        return Family.COUNTING;
      case "ScalableBenchmark":
        return Family.SCALABLE;
      case "ExpiringBenchmark":
        return Family.EXPIRING;
      case "LongPathBenchmark":
        return Family.LONG_PATH;
      default:
        return Family.LIBRARY;
    }
  }

  /** The operation measured: the method name without the two-thread suffix. */
  static String op(Result r) {
    String m = r.method();
    return m.endsWith(SHARED) ? m.substring(0, m.length() - SHARED.length()) : m;
  }

  static boolean isStrategy(Result r) {
    return family(r) == Family.STRATEGIES;
  }

  /** What is being compared: the impl or strategy parameter. */
  static String subject(Result r) {
    return r.param(family(r).subjectParam, "?");
  }

  /** The subject every row of this result's table is compared with. */
  static String baselineSubject(Result r) {
    return family(r).baseline;
  }

  /** A readable name of the baseline, for column headings. */
  static String baselineLabel(Result r) {
    return family(r).baselineLabel;
  }

  /** The table a result belongs in: the family, the operation and the thread count. */
  static String table(Result r) {
    String threads = r.threads() == 1 ? "1 thread" : r.threads() + " threads, one shared filter";
    String what = "`" + op(r) + "`" + (op(r).equals(BATCH_OP) ? " (per key)" : "");
    return family(r).tablePrefix + what + ", " + threads;
  }

  /** Sort key of a table: by family, then by operation (known ones first), then by threads. */
  @SuppressWarnings("EnumOrdinal") // the families' declared order is the tables' order
  static String tableOrder(Result r) {
    int rank = OP_ORDER.indexOf(op(r));
    return family(r).ordinal() + "" + (char) ('a' + (rank < 0 ? OP_ORDER.size() : rank)) + op(r)
        + String.format(Locale.ROOT, "%03d", r.threads());
  }

  /**
   * The results in report order: tables (library before strategies, then operation, then threads),
   * within a table by keys (as first run) and n, and within a case ours, Guava, Commons, DataSketches,
   * FastFilter, then any other subject as run (the order of the {@code @Param} values). The fixed order
   * matters because JMH runs classes by name: FastFilter's lookups ({@code LongKeysBenchmark}) run before
   * the others' ({@code MightContainBenchmark}).
   */
  static List<Result> inReportOrder(List<Result> results) {
    List<String> keyOrder = results.stream().map(Cases::keys).distinct().toList();
    List<Result> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparing(Cases::tableOrder)
        .thenComparing(r -> keyOrder.indexOf(keys(r)))
        .thenComparingLong(r -> parseLong(r.param("n", "0")))
        .thenComparingInt(Cases::subjectRank)); // stable: run order within a case
    return sorted;
  }

  private static int subjectRank(Result r) {
    int rank = family(r) == Family.LIBRARY ? SUBJECT_ORDER.indexOf(subject(r)) : -1;
    return rank < 0 ? SUBJECT_ORDER.size() : rank;
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
    return sameCase(r, all).filter(b -> subject(b).equals(baselineSubject(r))).findFirst();
  }

  /** Whether {@code r}'s table compares with other libraries: the library family's tables do. */
  static boolean hasPeers(Result r) {
    return family(r) == Family.LIBRARY;
  }

  /** Whether {@code r} measures another library than this one. */
  static boolean isPeer(Result r) {
    return hasPeers(r) && PEERS.contains(subject(r));
  }

  /**
   * The fastest peer of {@code r}'s case among {@code all}: of the other libraries' results on the same
   * operation (a batch's single lookup), keys, n and threads, the one with the least ns/op. Empty outside
   * the library tables or when the run has no peer for the case.
   */
  static Optional<Result> fastestPeer(Result r, List<Result> all) {
    if (!hasPeers(r)) {
      return Optional.empty();
    }
    return sameCase(r, all).filter(Cases::isPeer).min(Comparator.comparingDouble(Result::nanosPerOp));
  }

  /** The results comparable with {@code r}: same family, operation (batch as single), threads, keys, n. */
  private static Stream<Result> sameCase(Result r, List<Result> all) {
    String op = op(r).equals(BATCH_OP) && family(r) != Family.LONG_PATH ? "mightContain" : op(r);
    return all.stream()
        .filter(b -> family(b) == family(r))
        .filter(b -> op(b).equals(op) && b.threads() == r.threads())
        .filter(b -> keys(b).equals(keys(r)))
        .filter(b -> Objects.equals(b.params().get("n"), r.params().get("n")));
  }

  /** Chart panel: lookups (single and batch), adds, strategies. */
  static String panel(Result r) {
    if (isStrategy(r)) {
      return "Thread-safety strategies (String keys hashed beforehand, p = 1%)";
    }
    if (family(r) == Family.LONG_PATH) {
      return "Long keys, primitive path, against FastFilter (p = 1%)";
    }
    if (op(r).equals(EXPIRY_STEP_OP)) {
      return "Expiring filter: one expiry step of a full window (String keys, p = 1%)";
    }
    if (family(r) != Family.LIBRARY) {
      return family(r).tablePrefix.replace(": ", "") + " (String keys, p = 1%)";
    }
    return op(r).equals("add")
        ? "add (new keys), p = 1%"
        : "mightContain (batch = mightContainAll, per key), p = 1%";
  }

  /** Chart category, the group of bars: keys, n and threads; for strategies, operation and threads. */
  static String category(Result r) {
    String threads = r.threads() + (r.threads() == 1 ? " thread" : " threads");
    if (isStrategy(r)) {
      return op(r) + ", n=" + shortCount(n(r)) + ", " + threads;
    }
    return keys(r).toLowerCase(Locale.ROOT) + ", n=" + shortCount(n(r)) + ", " + threads;
  }

  /** Readable names of the subjects; others are shown as they are. */
  private static final Map<String, String> LABELS = Map.ofEntries(
      Map.entry("OURS_STANDARD", "ours standard"),
      Map.entry("OURS_BLOCKED", "ours blocked"),
      Map.entry("OURS_STANDARD_MURMUR3", "ours standard, MurmurHash3"),
      Map.entry("OURS_BLOCKED_MURMUR3", "ours blocked, MurmurHash3"),
      Map.entry("OURS", "ours"),
      Map.entry("GUAVA", "Guava"),
      Map.entry("COMMONS", "Commons"),
      Map.entry("DATASKETCHES", "DataSketches"),
      Map.entry("FASTFILTER", "FastFilter"),
      Map.entry("ATOMIC_CAS", "lock-free CAS"),
      Map.entry("READ_WRITE_LOCK", "read-write lock"),
      Map.entry("STRIPED_LOCKS", "striped locks"),
      Map.entry("SYNCHRONIZED", "synchronized"),
      Map.entry("SIZED_UP_FRONT", "standard sized up front"),
      Map.entry("SCALABLE_FROM_1K", "scalable from 1k"),
      Map.entry("SCALABLE_FROM_100K", "scalable from 100k"),
      Map.entry("OURS_EXPIRING", "ours expiring"),
      Map.entry("COMMONS_LAYERED", "Commons layered"),
      Map.entry("COMMONS_LAYERED_CONTAINS", "Commons layered, contains(Hasher)"));

  /** Row label and chart series (bar colour): the subject, batch lookups apart from single ones. */
  static String series(Result r) {
    return label(r) + (op(r).equals(BATCH_OP) ? " (batch)" : "");
  }

  /** The subject's readable name, e.g. "DataSketches" for DATASKETCHES. */
  static String label(Result r) {
    String subject = subject(r);
    return LABELS.getOrDefault(subject, subject);
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
