package org.concurrentbloom.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Loads and saves the filter files the CLI works on: {@link BloomFilter}s of strings hashed with
 * {@link Funnels#stringFunnel()}. Every failure becomes a {@link CliException} that names the file.
 */
final class FilterFiles {
  private static final int BUFFER_BYTES = 1 << 16;
  /** How far above the target fpp a filter's estimated FPR may be before a warning. */
  private static final double OVERFILL_FACTOR = 1.25;

  private FilterFiles() {}

  /**
   * A new, empty filter of string keys sized for {@code expected} keys at false-positive probability
   * {@code fpp}, in the blocked layout if {@code blocked}.
   *
   * @throws ParameterException (a usage error) if the library rejects the size; the message names the
   *     options and the library's reason, which names the bad value
   */
  static BloomFilter<CharSequence> create(CommandSpec spec, long expected, double fpp, boolean blocked) {
    try {
      BloomFilter.Builder<CharSequence> builder =
          BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(expected).fpp(fpp);
      return blocked ? builder.blocked().build() : builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(),
          "invalid --expected " + expected + " / --fpp " + fpp + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the filter in {@code path}, which must hold exactly one filter and nothing after it.
   *
   * @throws CliException if the file is missing, unreadable, truncated, corrupt or not a filter
   */
  static BloomFilter<CharSequence> load(Path path) throws CliException {
    return load(path, in -> BloomFilter.readFrom(in, Funnels.stringFunnel()));
  }

  /** Reads one filter of some type from a stream; see {@link #load(Path, Reader)}. */
  interface Reader<F> {
    F read(InputStream in) throws IOException;
  }

  /**
   * Reads the filter in {@code path} with {@code reader}; the file must hold exactly one filter and
   * nothing after it.
   *
   * @throws CliException if the file is missing, unreadable, truncated, corrupt or not such a filter
   */
  static <F> F load(Path path, Reader<F> reader) throws CliException {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(path), BUFFER_BYTES)) {
      F filter = reader.read(in);
      if (in.read() != -1) {
        throw new CliException("cannot load filter " + path
            + ": unexpected bytes after the end of the filter; the file is corrupt");
      }
      return filter;
    } catch (IOException e) {
      throw new CliException("cannot load filter " + path + ": " + ErrorReporter.reason(e), e);
    }
  }

  /** Writes {@code filter} to {@code path} atomically (see {@link AtomicFileWriter}). */
  static void save(Path path, BloomFilter<CharSequence> filter) throws CliException {
    try {
      AtomicFileWriter.write(path, filter::writeTo);
    } catch (IOException e) {
      throw new CliException("cannot write " + path + ": " + ErrorReporter.reason(e), e);
    }
  }

  /** A short description for summary lines: "m=9600 bits, k=7, count=2, 1.17 KiB". */
  static String shape(BloomFilter<?> filter) {
    return "m=" + filter.bitSize() + " bits, k=" + filter.hashFunctions() + ", count=" + filter.count()
        + ", " + Fmt.humanBytes(memoryBytes(filter));
  }

  /**
   * Prints a one-line warning to {@code err} when {@code filter}'s false-positive rate, estimated from
   * the bits set as fillRatio^k, is more than a quarter above its target: it then holds clearly more
   * distinct keys than it was sized for. (Judging by the bits set, overlapping merges do not count twice.)
   */
  static void warnIfOverfilled(PrintWriter err, Path path, BloomFilter<?> filter) {
    double fpr = Math.pow(filter.fillRatio(), filter.hashFunctions());
    if (fpr > OVERFILL_FACTOR * filter.fpp()) {
      long distinct = filter.approximateElementCount();
      err.println("bloom: warning: " + path + " has a false-positive rate of about " + Fmt.percent(fpr)
          + ", above its target " + Fmt.percent(filter.fpp()) + ": it holds about "
          + (distinct == Long.MAX_VALUE ? "too many" : Fmt.count(distinct)) + " distinct keys, more than the "
          + Fmt.count(filter.expectedInsertions()) + " it was sized for");
    }
  }

  /** The bytes the filter's bit array takes in memory: m rounded up to whole 64-bit words. */
  static long memoryBytes(BloomFilter<?> filter) {
    return 8L * ((filter.bitSize() + 63) / 64);
  }
}
