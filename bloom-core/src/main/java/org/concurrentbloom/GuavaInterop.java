package org.concurrentbloom;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Reads and writes Guava's {@code BloomFilter.writeTo} format, so that Guava users can switch without
 * rebuilding their filters (docs/GUAVA.md). A filter read from Guava's bytes answers exactly as the
 * Guava filter did, and is as thread-safe as any other {@link BloomFilter}; Guava can read what
 * {@link #writeTo} writes.
 *
 * <p>Guava's layout: one byte strategy ordinal (1 = {@code MURMUR128_MITZ_64}, the strategy current Guava
 * releases write), one unsigned byte k, a big-endian int word count, then the words as
 * big-endian longs. There is no magic, checksum, n or p, so a corrupt Guava file can only be caught
 * when its sizes are impossible or it ends early.
 */
public final class GuavaInterop {
  private static final int HEADER_BYTES = 6;

  private GuavaInterop() {}

  /**
   * Reads a filter written by Guava's {@code BloomFilter.writeTo}. The funnel must write the same bytes
   * as the Guava funnel did: {@link Funnels#stringFunnel()} for Guava's {@code Funnels.stringFunnel(UTF_8)},
   * {@link Funnels#longFunnel()} for {@code Funnels.longFunnel()}, {@link Funnels#integerFunnel()} for
   * {@code Funnels.integerFunnel()}, {@link Funnels#byteArrayFunnel()} for {@code Funnels.byteArrayFunnel()}.
   *
   * <p>Guava does not store n, p or a count: the filter reports n = m ln 2 / k (the n its shape is
   * optimal for), p = the FPR at that n, and {@code count()} = {@link BloomFilter#approximateElementCount()}.
   *
   * @throws IOException if the stream ends early, the strategy is not {@code MURMUR128_MITZ_64}, or the
   *     sizes are impossible
   */
  public static <T> BloomFilter<T> readFrom(InputStream in, Funnel<? super T> funnel) throws IOException {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(funnel, "funnel");
    byte[] header = new byte[HEADER_BYTES];
    FilterFormat.readFully(in, header, 0, HEADER_BYTES, "Guava header");
    ByteBuffer b = ByteBuffer.wrap(header);
    int ordinal = b.get();
    int k = b.get() & 0xFF;
    int wordCount = b.getInt();
    if (ordinal != GuavaLayout.GUAVA_ORDINAL) {
      throw new IOException("unsupported Guava strategy ordinal " + ordinal + "; only "
          + GuavaLayout.GUAVA_ORDINAL + " (MURMUR128_MITZ_64) is supported");
    }
    if (k < 1) {
      throw new IOException("invalid Guava filter: hash function count must be >= 1, was " + k);
    }
    if (wordCount < 1 || wordCount > Sizing.MAX_WORDS) {
      throw new IOException("invalid Guava filter: word count must be in [1, " + Sizing.MAX_WORDS + "], was "
          + wordCount);
    }
    long[] words = FilterFormat.readWords(in, wordCount, null);
    Layout layout = new GuavaLayout(64L * wordCount, k);
    long n = Math.max(1, Math.round(layout.bits * Math.log(2) / k));
    double fpp = Math.min(0.5, Math.max(Double.MIN_VALUE, layout.expectedFpp(n)));
    long setBits = AtomicWords.bitCountAcquire(words);
    long count = Math.min(Long.MAX_VALUE - 1, Sizing.estimateElements(layout.bits, k, setBits));
    return BloomFilter.loaded(funnel, layout, n, fpp, words, count);
  }

  /**
   * Writes {@code filter} in Guava's format; Guava's {@code BloomFilter.readFrom} with the matching funnel
   * loads it. Only Guava-compatible filters (built with
   * {@link BloomFilter.Builder#guavaCompatible()} or read by {@link #readFrom}) can be written: the other
   * layouts put their bits elsewhere. The bytes hold every add that finished before this call began.
   * Does not close {@code out}.
   *
   * @throws IllegalArgumentException if the filter is not Guava-compatible
   */
  public static void writeTo(BloomFilter<?> filter, OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    Layout layout = filter.layout();
    if (!(layout instanceof GuavaLayout)) {
      throw new IllegalArgumentException("only a Guava-compatible filter can be written in Guava's format; this is "
          + layout.shape() + " (build it with BloomFilter.builder(...).guavaCompatible())");
    }
    long[] words = filter.currentWords();
    DataOutputStream header = new DataOutputStream(out);
    header.writeByte(GuavaLayout.GUAVA_ORDINAL);
    header.writeByte(layout.hashFunctions);
    header.writeInt(words.length);
    header.flush();
    FilterFormat.writeWords(out, words, null);
  }
}
