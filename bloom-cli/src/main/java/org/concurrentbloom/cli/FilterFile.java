package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.KeyType;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.ScalableBloomFilter;

/**
 * A filter of any type the command line handles, with the key codec that turns command-line keys into
 * its items; {@link FilterLoader} reads one and chooses the codec.
 */
final class FilterFile {
  final FilterType kind;
  final KeyCodec codec;
  /** The key type the file records ({@link KeyType#UNRECORDED} for version 1). */
  final KeyType recorded;
  final MembershipFilter<Object> filter;
  /** The bytes the filter took in the file it was read from, or -1 for one made by this command. */
  final long fileBytes;

  FilterFile(FilterType kind, KeyCodec codec, KeyType recorded, MembershipFilter<Object> filter) {
    this(kind, codec, recorded, filter, -1);
  }

  FilterFile(FilterType kind, KeyCodec codec, KeyType recorded, MembershipFilter<Object> filter, long fileBytes) {
    this.kind = kind;
    this.codec = codec;
    this.recorded = recorded;
    this.filter = filter;
    this.fileBytes = fileBytes;
  }

  /** The key type the filter's items are hashed as: the recorded one, or the codec's for version 1. */
  KeyType effectiveKeyType() {
    return recorded == KeyType.UNRECORDED ? codec.keyType : recorded;
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
