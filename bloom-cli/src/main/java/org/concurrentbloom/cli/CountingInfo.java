package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.Funnels;

/**
 * {@code bloom info} for counting filter files (type 4 of docs/FORMAT.md): the fields of a standard
 * filter's description with counters in place of bits, plus the counters stuck at 15.
 */
final class CountingInfo {
  /** Bytes 0..3 of every filter file ("CBLM") and the offset of its type byte. */
  private static final byte[] MAGIC = {'C', 'B', 'L', 'M'};
  private static final int TYPE_OFFSET = 5;
  private static final int COUNTING_TYPE = 4;

  private CountingInfo() {}

  /**
   * True iff {@code file} starts like a counting filter file. False for anything else, including a file
   * that cannot be read: the caller's ordinary loading then reports that.
   */
  static boolean isCountingFile(Path file) {
    byte[] head = new byte[TYPE_OFFSET + 1];
    try (InputStream in = Files.newInputStream(file)) {
      if (in.readNBytes(head, 0, head.length) < head.length) {
        return false;
      }
    } catch (IOException e) {
      return false;
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (head[i] != MAGIC[i]) {
        return false;
      }
    }
    return head[TYPE_OFFSET] == COUNTING_TYPE;
  }

  /** Prints the description of the counting filter in {@code file}; returns the exit code, 0. */
  static int print(PrintWriter out, Path file) throws CliException {
    CountingBloomFilter<CharSequence> filter =
        FilterFiles.load(file, in -> CountingBloomFilter.readFrom(in, Funnels.stringFunnel()));
    long fileSize = InfoCommand.fileSize(file);
    long m = filter.counterCount();
    double fill = filter.fillRatio();
    long approx = filter.approximateElementCount();
    double estimated = filter.estimatedFpp();

    InfoCommand.field(out, "file:", file.toString());
    InfoCommand.field(out, "type:", "counting Bloom filter of strings (4-bit counters)");
    InfoCommand.field(out, "counters (m):", Long.toString(m));
    InfoCommand.field(out, "hash functions (k):", Integer.toString(filter.hashFunctions()));
    InfoCommand.field(out, "count:", Long.toString(filter.count()));
    InfoCommand.field(out, "expected insertions:", Long.toString(filter.expectedInsertions()));
    InfoCommand.field(out, "target fpp:", Double.toString(filter.fpp()));
    InfoCommand.field(out, "fill ratio:",
        Fmt.ratio(fill) + " (" + Math.round(fill * m) + " of " + m + " counters non-zero)");
    InfoCommand.field(out, "stuck counters:", filter.stuckCounters() + " (saturated at 15: never change again)");
    InfoCommand.field(out, "estimated fpp:", Fmt.probability(estimated) + " (" + Fmt.percent(estimated)
        + " at count " + filter.count() + ")");
    InfoCommand.field(out, "approx. element count:",
        approx == Long.MAX_VALUE ? "unknown (every counter is non-zero)" : Long.toString(approx));
    InfoCommand.field(out, "file size:", Fmt.bytes(fileSize));
    InfoCommand.field(out, "memory (counters):", Fmt.bytes(8L * ((m + 15) / 16)));
    return 0;
  }
}
