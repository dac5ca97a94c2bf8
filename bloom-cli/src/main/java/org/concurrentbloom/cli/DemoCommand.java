package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code bloom demo}: fills a filter with generated e-mail-like keys, measures its false-positive rate
 * on keys that were never inserted, checks that every inserted key is still found, and reports rough
 * single-threaded insert and lookup rates. Nothing is written to disk.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    subcommands = SignupDemoCommand.class,
    description = {
        "Show a filter at work on generated e-mail addresses.",
        "",
        "Inserts N generated e-mail-like addresses (deterministic for a seed) into a filter sized for "
            + "them, probes M addresses that were never inserted to measure the false-positive rate "
            + "against the target, re-queries every inserted address to confirm there are no false "
            + "negatives, and prints fill ratio, size, estimated FPR, and insert and lookup rates. "
            + "The rates come from one single-threaded run, JIT warm-up included: a rough figure, "
            + "not a benchmark. Writes no file. Exits with status 1 if any inserted address is not found.",
        "",
        "'bloom demo signup' shows the filter in front of a database instead."})
final class DemoCommand implements Callable<Integer> {
  private static final int BATCH = 1 << 16;

  @ParentCommand
  private BloomCli parent;

  @Spec
  private CommandSpec spec;

  @Option(names = {"-n", "--keys"}, paramLabel = "N", defaultValue = "1000000",
      description = "Addresses to insert; the filter is sized for this many (default: ${DEFAULT-VALUE}).")
  private long keys;

  @Option(names = {"-p", "--fpp"}, paramLabel = "P", defaultValue = "0.01",
      description = "Target false-positive probability (default: ${DEFAULT-VALUE}).")
  private double fpp;

  @Option(names = "--probes", paramLabel = "M", defaultValue = "1000000",
      description = "Never-inserted addresses to probe (default: ${DEFAULT-VALUE}).")
  private long probes;

  @Option(names = "--blocked", description = "Use the cache-blocked layout.")
  private boolean blocked;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "42",
      description = "Seed of the generated addresses (default: ${DEFAULT-VALUE}).")
  private long seed;

  /** The streams of this run, for the subcommands. */
  CliStreams streams() {
    return parent.streams();
  }

  /** How many of a run of keys passed a test, and the nanoseconds spent in the test alone. */
  private record Outcome(long passed, long nanos) {}

  @Override
  public Integer call() throws CliException {
    if (keys < 1 || probes < 1) {
      throw new ParameterException(spec.commandLine(),
          "--keys and --probes must be at least 1, were " + keys + " and " + probes);
    }
    BloomFilter<CharSequence> filter;
    try {
      BloomFilter.Builder<CharSequence> builder =
          BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(keys).fpp(fpp);
      if (blocked) {
        builder.blocked();
      }
      MemoryCheck.require(builder.bitSize() / 8, "a filter for " + Fmt.keys(keys) + " at fpp " + fpp);
      filter = builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(),
          "invalid --keys " + keys + " / --fpp " + fpp + ": " + e.getMessage(), e);
    }
    DemoKeys generator = new DemoKeys(seed);
    PrintWriter out = parent.streams().out();
    long start = System.nanoTime();

    // Inserted keys have indices [0, keys); probes [keys, keys + probes), so no probe was inserted.
    Outcome inserts = run(generator, 0, keys, filter::add);
    Outcome falsePositives = run(generator, keys, keys + probes, filter::mightContain);
    Outcome found = run(generator, 0, keys, filter::mightContain);
    long falseNegatives = keys - found.passed();
    double measured = (double) falsePositives.passed() / probes;
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

    out.println("bloom demo: " + Fmt.count(keys) + " generated e-mail-like addresses, target fpp "
        + Fmt.percent(fpp) + ", seed " + seed);
    line(out, "addresses like:", generator.key(0) + ", " + generator.key(1) + ", " + generator.key(2));
    line(out, "filter:", "m = " + Fmt.count(filter.bitSize()) + " bits, k = " + filter.hashFunctions()
        + ", " + Fmt.bytes(8 * ((filter.bitSize() + 63) / 64)) + " in memory");
    line(out, "fill ratio:", Fmt.ratio(filter.fillRatio()) + " of the bits are set");
    line(out, "estimated FPR:", Fmt.percent(filter.estimatedFpp()) + " from the bits set (fill ratio^k)");
    line(out, "measured FPR:", Fmt.percent(measured) + " (" + Fmt.count(falsePositives.passed()) + " of "
        + Fmt.count(probes) + " never-inserted addresses answered maybe); target " + Fmt.percent(fpp));
    line(out, "false negatives:", Fmt.count(falseNegatives) + " (all " + Fmt.count(keys)
        + " inserted addresses re-queried)");
    line(out, "insert rate:", Fmt.rate(keys, inserts.nanos()) + " (" + Fmt.count(keys) + " adds in "
        + inserts.nanos() / 1_000_000 + " ms)");
    line(out, "lookup rate:", Fmt.rate(probes, falsePositives.nanos()) + " for never-inserted addresses, "
        + Fmt.rate(keys, found.nanos()) + " for inserted ones");
    line(out, "note:",
        "rates are a rough single-threaded, single-run figure (JIT warm-up included), not a benchmark");
    line(out, "total time:", elapsedMillis + " ms, address generation included");
    if (falseNegatives != 0) {
      throw new CliException(falseNegatives
          + " inserted addresses were not found: false negatives mean the filter is broken");
    }
    return 0;
  }

  private static void line(PrintWriter out, String name, String value) {
    out.printf("  %-17s %s%n", name, value);
  }

  /** Generates keys [from, to) in batches and applies {@code test} to each, timing only the tests. */
  private static Outcome run(DemoKeys generator, long from, long to, Predicate<String> test) {
    String[] batch = new String[BATCH];
    long passed = 0;
    long nanos = 0;
    for (long base = from; base < to; base += BATCH) {
      int n = (int) Math.min(BATCH, to - base);
      for (int i = 0; i < n; i++) {
        batch[i] = generator.key(base + i);
      }
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        if (test.test(batch[i])) {
          passed++;
        }
      }
      nanos += System.nanoTime() - t0;
    }
    return new Outcome(passed, nanos);
  }
}
