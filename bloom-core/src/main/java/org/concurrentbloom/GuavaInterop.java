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
 * releases write; 0 = {@code MURMUR128_MITZ_32}, which older releases wrote), one unsigned byte k, a
 * big-endian int word count, then the words as big-endian longs. There is no magic, checksum, n or p, so a corrupt Guava file can only be caught
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
   * <p>Both of Guava's strategies are read: {@code MURMUR128_MITZ_64} into the Guava-compatible layout,
   * and the older {@code MURMUR128_MITZ_32} into a layout that answers as Guava does but can be neither
   * merged with the other nor written ({@link BloomFilter#writeTo} throws an {@code IOException} and
   * {@link #writeTo} an {@code IllegalArgumentException}): query it, and rebuild from the source data to
   * keep it.
   *
   * <p><b>Derived values.</b> Guava's bytes hold no n, p or count, so on the returned filter
   * {@link BloomFilter#expectedInsertions()} is derived from the shape, n = round(m ln 2 / k) (the n
   * that shape is optimal for, not the n Guava was given: 94,914 for a filter Guava built for 100,000 at
   * 1%), {@link BloomFilter#fpp()} is the model FPR at that n (0.0078 there, not 0.01), and
   * {@link BloomFilter#count()} starts at {@link BloomFilter#approximateElementCount()}.
   *
   * @throws IOException if the stream ends early, the strategy ordinal is neither 0 nor 1, or the sizes
   *     are impossible
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
    if (ordinal != GuavaLayout.GUAVA_ORDINAL && ordinal != GuavaMitz32Layout.GUAVA_ORDINAL) {
      throw new IOException("unsupported Guava strategy ordinal " + ordinal + "; only "
          + GuavaLayout.GUAVA_ORDINAL + " (MURMUR128_MITZ_64) and " + GuavaMitz32Layout.GUAVA_ORDINAL
          + " (MURMUR128_MITZ_32) are supported");
    }
    if (k < 1) {
      throw new IOException("invalid Guava filter: hash function count must be >= 1, was " + k);
    }
    if (wordCount < 1 || wordCount > Sizing.MAX_WORDS) {
      throw new IOException("invalid Guava filter: word count must be in [1, " + Sizing.MAX_WORDS + "], was "
          + wordCount);
    }
    long[] words = FilterFormat.readWords(in, wordCount, null);
    Layout layout = ordinal == GuavaLayout.GUAVA_ORDINAL
        ? new GuavaLayout(64L * wordCount, k)
        : new GuavaMitz32Layout(64L * wordCount, k);
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
   * @throws IllegalArgumentException if the filter is not Guava-compatible, or was read from a
   *     {@code MURMUR128_MITZ_32} file (only {@code MURMUR128_MITZ_64} is written)
   */
  public static void writeTo(BloomFilter<?> filter, OutputStream out) throws IOException {
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(out, "out");
    Layout layout = filter.layout();
    if (layout instanceof GuavaMitz32Layout) {
      throw new IllegalArgumentException("this filter was read from a MURMUR128_MITZ_32 file (" + layout.shape()
          + "); only MURMUR128_MITZ_64 is written: rebuild it with BloomFilter.builder(...).guavaCompatible()");
    }
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
