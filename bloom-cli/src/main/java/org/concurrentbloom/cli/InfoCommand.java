package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.concurrentbloom.BloomFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code bloom info}: prints a filter file's shape, sizing targets, fill and size, one field a line. */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    description = {
        "Describe a filter file.",
        "",
        "Prints one \"field: value\" line each for the filter's type, bits (m), hash functions (k), "
            + "count (adds that set a new bit), the expected insertions and target fpp it was sized "
            + "for, fill ratio (fraction of bits set), estimated fpp at its count, approximate number "
            + "of distinct keys (from the bits set), file size, and in-memory size of its bit array.",
        "For a counting filter: counters (m) instead of bits, the counters stuck at 15, and the "
            + "in-memory size of its counters."})
final class InfoCommand implements Callable<Integer> {
  private static final String FORMAT = "%-23s %s%n";

  @ParentCommand
  private BloomCli parent;

  @Parameters(index = "0", paramLabel = "FILE", description = "The filter file to describe.")
  private Path file;

  @Override
  public Integer call() throws CliException {
    if (CountingInfo.isCountingFile(file)) {
      return CountingInfo.print(parent.streams().out(), file);
    }
    if (ScalableInfo.isScalable(file)) {
      return ScalableInfo.print(parent.streams().out(), file);
    }
    BloomFilter<CharSequence> filter = FilterFiles.load(file);
    long fileSize = fileSize(file);
    double fill = filter.fillRatio();
    long setBits = Math.round(fill * filter.bitSize());
    long approx = filter.approximateElementCount();

    PrintWriter out = parent.streams().out();
    field(out, "file:", file.toString());
    field(out, "type:", describeType(filter));
    field(out, "bits (m):", Long.toString(filter.bitSize()));
    field(out, "hash functions (k):", Integer.toString(filter.hashFunctions()));
    field(out, "count:", Long.toString(filter.count()));
    field(out, "expected insertions:", Long.toString(filter.expectedInsertions()));
    field(out, "target fpp:", Double.toString(filter.fpp()));
    field(out, "fill ratio:", Fmt.ratio(fill) + " (" + setBits + " of " + filter.bitSize() + " bits set)");
    double estimated = filter.estimatedFpp();
    field(out, "estimated fpp:", Fmt.probability(estimated) + " (" + Fmt.percent(estimated) + " at count "
        + filter.count() + ")");
    field(out, "approx. element count:",
        approx == Long.MAX_VALUE ? "unknown (every bit is set)" : Long.toString(approx));
    field(out, "file size:", Fmt.bytes(fileSize));
    field(out, "memory (bit array):", Fmt.bytes(FilterFiles.memoryBytes(filter)));
    return 0;
  }

  static long fileSize(Path file) throws CliException {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new CliException("cannot read " + file + ": " + ErrorReporter.reason(e), e);
    }
  }

  static void field(PrintWriter out, String name, String value) {
    out.printf(FORMAT, name, value);
  }

  private static String describeType(BloomFilter<?> filter) {
    switch (filter.layoutName()) {
      case "standard":
        return "standard Bloom filter of strings";
      case "blocked":
        return "blocked Bloom filter of strings (512-bit blocks)";
      case "guava":
        return "Guava-compatible Bloom filter of strings";
      default:
        return filter.layoutName() + " Bloom filter of strings";
    }
  }
}
