package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * Reads and writes filter type 4, a {@link CountingBloomFilter}: the common header of docs/FORMAT.md
 * (m is the counter count) and the counters, 16 to a word, as payload. CountingFormatTest freezes the
 * bytes. Stateless; any thread may call any method.
 */
final class CountingFormat {
  private CountingFormat() {}

  /** What a type 4 record holds, checked: the header and the counter words. */
  record Loaded(FilterFormat.Header header, long[] words) {}

  static void write(OutputStream out, KeyType keyType, HashStrategy strategy, long counters, int hashFunctions,
      long expectedInsertions, double fpp, GatedCounters.Snapshot s) throws IOException {
    FilterFormat.write(out, new FilterFormat.Header(FilterType.COUNTING, strategy, keyType,
        counters, hashFunctions, expectedInsertions, fpp, s.count()), s.words());
  }

  /** Reads a type 4 record whose key type the funnel matches; see CountingBloomFilter.readFrom for the checks. */
  static Loaded read(InputStream in, Funnel<?> funnel) throws IOException {
    CRC32C crc = new CRC32C();
    FilterFormat.Header h = FilterFormat.readHeader(in, crc);
    if (h.type() != FilterType.COUNTING) {
      throw new IOException("filter type " + h.type().id() + " is not a counting filter (type "
          + FilterType.COUNTING.id() + "): read it with " + h.type().reader());
    }
    FilterFormat.checkKeyType(h.keyType(), funnel);
    long m = h.bits();
    int wordCount = CounterWords.wordsFor(m);
    long[] words = FilterFormat.readPayload(in, wordCount, crc, "counter array");
    int tailCounters = (int) (m & 15);
    // The tail nibbles count as zero counters in the statistics, so a file must keep them 0.
    if (tailCounters != 0 && (words[wordCount - 1] >>> (4 * tailCounters)) != 0) {
      throw new IOException("counters past m=" + m + " are set in the last word: not a valid filter");
    }
    return new Loaded(h, words);
  }
}
