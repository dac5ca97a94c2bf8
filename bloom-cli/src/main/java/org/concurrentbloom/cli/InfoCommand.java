package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.KeyType;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.ScalableBloomFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code bloom info}: prints a filter file's type, key type, shape, targets, fill and size, a field a line. */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    description = {
        "Describe a filter file of any type.",
        "",
        "Prints one \"field: value\" line each for the filter's type, format version, hash strategy (its "
            + "id and name: 4 or 5 for XXH3-64, the default of new files; 1 or 2 for MurmurHash3, as files "
            + "of earlier releases; 3 for Guava's), key type, bits "
            + "(m), hash functions (k), the expected insertions and target fpp it was sized for, the "
            + "fill ratio (fraction of bits set), the estimated fpp and the number of distinct keys, "
            + "both read off the bits set, the count of adds, file size, and in-memory size.",
        "Which number to trust: \"distinct keys (est.)\" estimates how many different keys are in, from "
            + "the bits; \"adds counted\" is the number of adds that changed the filter, exact for a "
            + "filter that was only added to, but summed by merges, so it counts a key in two merged "
            + "filters twice. The estimated fpp comes from the bits, so it holds after merges too.",
        "For a counting filter: counters instead of bits, and the counters stuck at 15. For a scalable "
            + "filter: its growth parameters and one line per layer. For an expiring filter (create "
            + "--window): the window W, the max retention (by then an add is forgotten unless repeated), "
            + "the span of one generation, the generations G, the bits of each, n per window, and one line "
            + "per generation still remembered, newest first, with its slot's start and end, the time its "
            + "keys are forgotten from (ISO-8601, UTC), its adds and bits set; \"(current)\" marks the one "
            + "adds go to. Remembered are the current generation and the older ones down to the oldest that "
            + "holds keys, by the wall clock; counts, fill and estimates cover them, and an estimate counts a "
            + "key added in several generations once. If the wall clock is more than the window past the "
            + "file's last write, so that its keys are forgotten, or behind it (a clock ahead of this one "
            + "wrote the file), a warning on standard error names both times."})
final class InfoCommand implements Callable<Integer> {

  @ParentCommand
  private BloomCli parent;

  @Parameters(index = "0", paramLabel = "FILE", description = "The filter file to describe, or - for standard input.")
  private Path file;

  @Option(names = {"-k", "--key-type"}, paramLabel = "TYPE", converter = KeyTypeOption.class,
      description = "The keys' type (" + KeyCodec.NAMES + "), for a file of a program's own funnel.")
  private KeyCodec keyType;

  @Override
  public Integer call() throws CliException {
    FilterFile f = new FilterLoader(parent.streams()).keyType(keyType).describesOnly().load(file);
    ClockCheck.warnOnRead(f, file, parent.streams().err());
    PrintWriter out = parent.streams().out();
    field(out, "file:", file.toString());
    field(out, "type:", f.kind.description());
    field(out, "format:", "version " + (f.recorded == KeyType.UNRECORDED ? 1 : 2));
    field(out, "hash strategy:", HashStrategyOption.describe(strategy(f)));
    field(out, "key type:", keyTypeLine(f));
    switch (f.kind) {
      case COUNTING -> counting(out, f.counting());
      case SCALABLE -> scalable(out, f.scalable());
      case EXPIRING -> expiring(out, f.expiring());
      default -> standard(out, f.standard());
    }
    field(out, "file size:", Fmt.bytes(f.fileBytes));
    field(out, f.kind == FilterType.COUNTING ? "memory (counters):" : "memory (bit array):",
        Fmt.bytes(f.memoryBytes()));
    return 0;
  }

  /**
   * How the file's filter hashes: 4 or 1 for standard, counting and scalable files, 5 or 2 for blocked,
   * 3 for Guava's, 4 for expiring ones.
   */
  private static HashStrategy strategy(FilterFile f) {
    return switch (f.kind) {
      case COUNTING -> f.counting().hashStrategy();
      case SCALABLE -> f.scalable().hashStrategy();
      case EXPIRING -> f.expiring().hashStrategy();
      default -> f.standard().hashStrategy();
    };
  }

  private static String keyTypeLine(FilterFile f) {
    return switch (f.recorded) {
      case UNRECORDED -> "not recorded (format version 1); bloom takes its keys as strings unless --key-type "
          + "says otherwise";
      case CUSTOM -> "custom (a program's own funnel: bloom can look keys up only with --key-type, if that "
          + "funnel writes the same bytes as one of " + KeyCodec.NAMES + ")";
      default -> f.recorded.description() + " (--key-type " + f.codec + ")";
    };
  }

  private static void standard(PrintWriter out, BloomFilter<Object> f) {
    field(out, "bits (m):", Long.toString(f.bitSize()));
    field(out, "hash functions (k):", Integer.toString(f.hashFunctions()));
    targets(out, f);
    double fill = f.fillRatio();
    field(out, "fill ratio:", Fmt.ratio(fill) + " (" + Math.round(fill * f.bitSize()) + " of " + f.bitSize()
        + " bits set)");
    estimates(out, f, "every bit is set");
  }

  private static void counting(PrintWriter out, CountingBloomFilter<Object> f) {
    long m = f.counterCount();
    field(out, "counters (m):", Long.toString(m));
    field(out, "hash functions (k):", Integer.toString(f.hashFunctions()));
    targets(out, f);
    double fill = f.fillRatio();
    field(out, "fill ratio:", Fmt.ratio(fill) + " (" + Math.round(fill * m) + " of " + m + " counters non-zero)");
    field(out, "stuck counters:", f.stuckCounters() + " (saturated at 15: never change again)");
    estimates(out, f, "every counter is non-zero");
  }

  private static void scalable(PrintWriter out, ScalableBloomFilter<Object> f) {
    List<ScalableBloomFilter.LayerStats> layers = f.layerStats();
    field(out, "layers:", layers.size() + " (" + f.layerType().shortName() + ")");
    field(out, "initial capacity:", Long.toString(f.expectedInsertions()));
    field(out, "growth factor:", Integer.toString(f.growthFactor()));
    field(out, "tightening ratio:", Double.toString(f.tighteningRatio()));
    field(out, "capacity:", Fmt.count(f.capacity()) + " (all layers, before the next is added)");
    field(out, "target fpp:", Double.toString(f.fpp()));
    field(out, "fpp bound:", Fmt.probability(f.fppBound()) + " (sum of the layers' targets)");
    field(out, "bits (all layers):", Long.toString(f.bitSize()));
    field(out, "memory cap:", f.maxBitSize() == Long.MAX_VALUE ? "none" : f.maxBitSize() + " bits");
    double fill = f.fillRatio();
    long bits = f.bitSize();
    field(out, "fill ratio:", Fmt.ratio(fill) + " (" + Math.round(fill * bits) + " of " + bits + " bits set)");
    estimates(out, f, "a layer has every bit set");
    for (int i = 0; i < layers.size(); i++) {
      ScalableBloomFilter.LayerStats layer = layers.get(i);
      field(out, "layer " + i + ":", "capacity " + Fmt.count(layer.capacity()) + ", fpp "
          + Fmt.probability(layer.fpp()) + ", " + Fmt.count(layer.bitSize()) + " bits, k=" + layer.hashFunctions()
          + ", " + Fmt.count(layer.count()) + " adds counted");
    }
  }

  private static void expiring(PrintWriter out, ExpiringBloomFilter<Object> f) {
    // One snapshot for the lines below: generations() runs a step if one is due, so later calls agree.
    List<ExpiringBloomFilter.Generation> gens = live(f.generations());
    field(out, "as of:", Instant.now().truncatedTo(ChronoUnit.MILLIS) + " (the wall clock decides what is forgotten)");
    field(out, "window:", duration(f.window()) + ": every add is remembered at least this long");
    field(out, "max retention:", duration(f.maxRetention()) + ": an add is forgotten by then, unless added again");
    field(out, "generation span:", duration(f.generationSpan()) + ": each generation takes the adds of one span");
    field(out, "generations (G):", Integer.toString(f.generationCount()));
    field(out, "bits per generation:", f.bitsPerGeneration() + " (m)");
    field(out, "hash functions (k):", Integer.toString(f.hashFunctions()));
    field(out, "expected insertions:", f.expectedInsertions() + " per window");
    field(out, "target fpp:", Double.toString(f.fpp()));
    long bits = f.bitSize();
    field(out, "bits (all generations):", Long.toString(bits));
    double fill = f.fillRatio();
    field(out, "fill ratio:", Fmt.ratio(fill) + " (" + Math.round(fill * bits) + " of " + bits + " bits set)");
    estimates(out, f, "a generation has every bit set");
    boolean empty = gens.stream().noneMatch(InfoCommand::holdsKeys);
    field(out, "remembered:", gens.size() + " of " + f.generationCount() + " generations, newest first"
        + (empty ? " (none holds a key: none was added, or every one is past its time)" : ""));
    for (int i = 0; i < gens.size(); i++) {
      ExpiringBloomFilter.Generation g = gens.get(i);
      field(out, "generation " + i + ":", g.start() + " to " + g.end() + (g.current() ? " (current)" : "")
          + ", forgotten from " + g.forgottenFrom() + ", " + Fmt.count(g.count()) + " adds counted, "
          + Fmt.count(g.setBits()) + " of " + Fmt.count(f.bitsPerGeneration()) + " bits set");
    }
  }

  /**
   * The generations worth listing of those the clock has not retired (newest first): the current one, which
   * adds go to, and every one down to the oldest that holds keys. Older empty ones are left out: they are
   * slots that a long pause, or a clock jump, passed over with nothing added, and a file read long after
   * it was written would otherwise list G of them and look as if it remembered G generations of keys.
   */
  private static List<ExpiringBloomFilter.Generation> live(List<ExpiringBloomFilter.Generation> gens) {
    int oldest = 0;
    for (int i = 0; i < gens.size(); i++) {
      if (holdsKeys(gens.get(i))) {
        oldest = i;
      }
    }
    return gens.subList(0, Math.min(gens.size(), oldest + 1));
  }

  private static boolean holdsKeys(ExpiringBloomFilter.Generation g) {
    return g.setBits() > 0 || g.count() > 0;
  }

  /** "1d 3h 25m 42.858s (PT27H25M42.858S)": readable, and exact in a form other tools parse. */
  private static String duration(Duration d) {
    return WindowOption.format(d) + " (" + d + ")";
  }

  private static void targets(PrintWriter out, MembershipFilter<?> f) {
    field(out, "expected insertions:", Long.toString(f.expectedInsertions()));
    field(out, "target fpp:", Double.toString(f.fpp()));
  }

  private static void estimates(PrintWriter out, MembershipFilter<?> f, String saturated) {
    double estimated = f.estimatedFpp();
    field(out, "estimated fpp:", Fmt.probability(estimated) + " (" + Fmt.percent(estimated)
        + ", from the cells set)");
    long approx = f.approximateElementCount();
    field(out, "distinct keys (est.):",
        approx == Long.MAX_VALUE ? "unknown (" + saturated + ")" : approx + " (estimated from the cells set)");
    field(out, "adds counted:", f.count() + " (adds that changed the filter; merges add these up)");
  }

  static void field(PrintWriter out, String name, String value) {
    out.printf("%-23s %s%n", name, value);
  }
}
