package org.concurrentbloom.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.KeyType;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.ScalableBloomFilter;

/**
 * A filter of any type the command line handles, with the key codec that turns command-line keys into
 * its items. Which codec follows from the key type the file records and {@code --key-type}:
 * <ul>
 *   <li>a recorded built-in type is used as it is; a {@code --key-type} that contradicts it is refused,
 *       as its lookups would hash other bytes and answer "no" for keys that are in the filter;
 *   <li>a file of format version 1 records none: its keys are strings (the only kind earlier releases
 *       of this tool wrote) unless {@code --key-type} says otherwise, and commands that look keys up
 *       say so on standard error;
 *   <li>a program's own funnel ({@link KeyType#CUSTOM}) cannot be reproduced here, so the user must
 *       say with {@code --key-type} which built-in encoding it matches; the file keeps recording
 *       CUSTOM.
 * </ul>
 */
final class FilterFile {
  private static final int BUFFER_BYTES = 1 << 16;

  final FilterType kind;
  final KeyCodec codec;
  /** The key type the file records ({@link KeyType#UNRECORDED} for version 1). */
  final KeyType recorded;
  final MembershipFilter<Object> filter;

  FilterFile(FilterType kind, KeyCodec codec, KeyType recorded, MembershipFilter<Object> filter) {
    this.kind = kind;
    this.codec = codec;
    this.recorded = recorded;
    this.filter = filter;
  }

  /** The key type the filter's items are hashed as: the recorded one, or the codec's for version 1. */
  KeyType effectiveKeyType() {
    return recorded == KeyType.UNRECORDED ? codec.keyType : recorded;
  }

  /**
   * Loads the filter in {@code path}, which must hold exactly one filter and nothing after it.
   *
   * @param requested the {@code --key-type} given, or null
   * @param note where to say that a version 1 file's keys are taken as strings, or null for silence
   * @param loadFactor how many times the file's size in memory the command needs (loading a large file
   *     peaks at about 1.5 times its size; a merge holds more)
   * @throws CliException if the file is missing, unreadable, corrupt, not a filter, too large for the
   *     heap, or of a key type the keys cannot be encoded as
   */
  static FilterFile load(Path path, KeyCodec requested, PrintWriter note, double loadFactor) throws CliException {
    FileHeader header = FileHeader.peek(path);
    if (header == null) {
      // Not a filter of a known version and type: the library's reader says exactly why.
      readAll(path, in -> BloomFilter.readFrom(in, Funnels.stringFunnel()));
      throw new CliException("cannot load filter " + path + ": not a concurrent-bloom filter");
    }
    KeyCodec codec = chooseCodec(path, header.keyType(), requested);
    if (header.keyType() == KeyType.UNRECORDED && requested == null && note != null) {
      note.println("bloom: note: " + path + " is of format version 1, which does not record its key type; its "
          + "keys are taken as strings (use --key-type if a program wrote it with another funnel)");
      note.flush();
    }
    MemoryCheck.require((long) (loadFactor * fileSize(path)), "loading " + path);
    Funnel<Object> funnel = header.keyType() == KeyType.CUSTOM
        ? Funnels.withKeyType(codec.funnel(), KeyType.CUSTOM) : codec.funnel();
    MembershipFilter<Object> filter = switch (header.kind()) {
      case COUNTING -> readAll(path, in -> CountingBloomFilter.readFrom(in, funnel));
      case SCALABLE -> readAll(path, in -> ScalableBloomFilter.readFrom(in, funnel));
      // The wall clock decides what has expired: generations past their time are forgotten on loading,
      // and a command that writes the filter back writes them empty.
      case EXPIRING -> readAll(path, in -> ExpiringBloomFilter.readFrom(in, funnel, InstantSource.system()));
      default -> readAll(path, in -> BloomFilter.readFrom(in, funnel));
    };
    return new FilterFile(header.kind(), codec, header.keyType(), filter);
  }

  private static KeyCodec chooseCodec(Path path, KeyType recorded, KeyCodec requested) throws CliException {
    if (recorded == KeyType.UNRECORDED) {
      return requested == null ? KeyCodec.STRING : requested;
    }
    if (recorded == KeyType.CUSTOM) {
      if (requested == null) {
        throw new CliException(path + " holds keys hashed by a program's own funnel (key type custom), which "
            + "bloom cannot reproduce; if that funnel writes the same bytes as one of bloom's key types, say "
            + "which with --key-type (" + KeyCodec.NAMES + ")");
      }
      return requested;
    }
    KeyCodec own = KeyCodec.of(recorded);
    if (requested != null && requested != own) {
      throw new CliException(path + " holds " + recorded.description() + " (key type " + own + "); --key-type "
          + requested + " would hash other bytes and answer \"no\" for keys that are in it");
    }
    return own;
  }

  /** Reads one filter of some type from a stream. */
  interface Reader<F> {
    F read(InputStream in) throws IOException;
  }

  /**
   * Reads the filter in {@code path} with {@code reader}; the file must hold exactly one filter and
   * nothing after it.
   */
  static <F> F readAll(Path path, Reader<F> reader) throws CliException {
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

  static long fileSize(Path path) throws CliException {
    try {
      return Files.size(path);
    } catch (IOException e) {
      throw new CliException("cannot read " + path + ": " + ErrorReporter.reason(e), e);
    }
  }

  /** Adds the key (as text); true iff the filter changed. */
  boolean add(String key) {
    return filter.add(codec.parse(key));
  }

  boolean mightContain(String key) {
    return filter.mightContain(codec.parse(key));
  }

  @SuppressWarnings("unchecked")
  BloomFilter<Object> standard() {
    return (BloomFilter<Object>) filter;
  }

  @SuppressWarnings("unchecked")
  CountingBloomFilter<Object> counting() {
    return (CountingBloomFilter<Object>) filter;
  }

  @SuppressWarnings("unchecked")
  ScalableBloomFilter<Object> scalable() {
    return (ScalableBloomFilter<Object>) filter;
  }

  @SuppressWarnings("unchecked")
  ExpiringBloomFilter<Object> expiring() {
    return (ExpiringBloomFilter<Object>) filter;
  }

  /**
   * Why an expiring filter is above its rate: its total may be well under n, since each generation is
   * sized for the keys of one span only, n·s/W (the library's per-slot share), so a burst (a large
   * {@code --input} at once) overfills the current one.
   */
  private String expiringOverfill() {
    ExpiringBloomFilter<Object> e = expiring();
    long perSpan = (long) Math.ceil((double) e.expectedInsertions() * e.generationSpan().toMillis()
        / e.window().toMillis());
    return "a generation holds more than the " + Fmt.keys(perSpan) + " it is sized for (one generation span, "
        + WindowOption.format(e.generationSpan()) + ", of " + Fmt.count(e.expectedInsertions())
        + " per window at a steady rate); keys added at once all go into the current generation, so size -n "
        + "for the rate of the bursts";
  }

  /** The bytes the filter's cells take in memory: whole 64-bit words of bits, or of 4-bit counters. */
  long memoryBytes() {
    long cells = kind == FilterType.COUNTING ? counting().counterCount() : filter.bitSize();
    int perWord = kind == FilterType.COUNTING ? 16 : 64;
    if (kind == FilterType.SCALABLE) {
      long words = 0;
      for (ScalableBloomFilter.LayerStats layer : scalable().layerStats()) {
        words += (layer.bitSize() + 63) / 64;
      }
      return 8 * words;
    }
    return 8L * ((cells + perWord - 1) / perWord);
  }

  /** A short description for summary lines: "standard filter of strings, m=9600 bits, k=7, 1.17 KiB". */
  String shape() {
    String cells = switch (kind) {
      case COUNTING -> "m=" + counting().counterCount() + " counters, k=" + counting().hashFunctions();
      case SCALABLE -> scalable().layerCount() + (scalable().layerType() == FilterType.BLOCKED ? " blocked" : "")
          + (scalable().layerCount() == 1 ? " layer, " : " layers, ") + filter.bitSize() + " bits";
      case EXPIRING -> "window " + WindowOption.format(expiring().window()) + ", " + expiring().generationCount()
          + " generations of m=" + expiring().bitsPerGeneration() + " bits, k=" + expiring().hashFunctions();
      default -> "m=" + filter.bitSize() + " bits, k=" + standard().hashFunctions();
    };
    KeyType keys = effectiveKeyType();
    return FileHeader.noun(kind) + " filter of " + (keys == KeyType.CUSTOM ? "keys of a custom funnel" : keys.description())
        + ", " + cells + ", "
        + Fmt.humanBytes(memoryBytes());
  }

  /**
   * Prints a one-line warning to {@code err} when the filter's false-positive rate, estimated from the
   * cells set, is more than a quarter above its target: it holds clearly more distinct keys than it was
   * sized for. A scalable filter grows instead, so it is never overfilled.
   */
  void warnIfOverfilled(PrintWriter err, Path path) {
    if (kind == FilterType.SCALABLE) {
      return;
    }
    double fpr = filter.estimatedFpp();
    if (fpr > 1.25 * filter.fpp() && kind == FilterType.EXPIRING) {
      err.println("bloom: warning: " + path + " has a false-positive rate of about " + Fmt.percent(fpr)
          + ", above its target " + Fmt.percent(filter.fpp()) + ": " + expiringOverfill());
    } else if (fpr > 1.25 * filter.fpp()) {
      long distinct = filter.approximateElementCount();
      err.println("bloom: warning: " + path + " has a false-positive rate of about " + Fmt.percent(fpr)
          + ", above its target " + Fmt.percent(filter.fpp()) + ": it holds about "
          + (distinct == Long.MAX_VALUE ? "too many" : Fmt.count(distinct)) + " distinct keys, more than the "
          + Fmt.count(filter.expectedInsertions()) + " it was sized for");
    }
  }
}
