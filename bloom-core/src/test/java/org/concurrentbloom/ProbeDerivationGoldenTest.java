package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.concurrentbloom.internal.BitIndexer;
import org.junit.jupiter.api.Test;

/**
 * Hash strategy 1's probe positions decide the bits that files and Redis depend on, so every caller of
 * the one derivation ({@link Probes.Cursor}) is checked here against an independent model: the closed
 * form of enhanced double hashing in exact integer arithmetic,
 * x_i = (x + (i−1)·y + i(i−1)(i−2)/6) mod m for i = 1..k, with x = floor(h1·m / 2^64) and
 * y = floor(h2·m / 2^64), h1 and h2 unsigned (docs/HASHING.md states the recurrence; summing it gives
 * this form). Random (h1, h2, m, k) with fixed seeds, m up to 2^37 for the callers that need no array.
 */
final class ProbeDerivationGoldenTest {
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  /** The model: k positions in [0, m), in probe order. */
  static long[] model(long h1, long h2, long m, int k) {
    BigInteger mm = BigInteger.valueOf(m);
    BigInteger x = unsigned(h1).multiply(mm).divide(TWO_64);
    BigInteger y = unsigned(h2).multiply(mm).divide(TWO_64);
    long[] out = new long[k];
    for (int i = 1; i <= k; i++) {
      BigInteger bi = BigInteger.valueOf(i);
      BigInteger cubic = bi.multiply(bi.subtract(BigInteger.ONE)).multiply(bi.subtract(BigInteger.TWO))
          .divide(BigInteger.valueOf(6));
      out[i - 1] = x.add(y.multiply(bi.subtract(BigInteger.ONE))).add(cubic).mod(mm).longValueExact();
    }
    return out;
  }

  private static BigInteger unsigned(long h) {
    return new BigInteger(1, ByteBuffer.allocate(8).putLong(h).array());
  }

  private static long randomM(SplittableRandom rnd, long max) {
    switch (rnd.nextInt(4)) {
      case 0:
        return 1 + rnd.nextLong(64); // tiny: probes repeat
      case 1:
        return (1L << 32) + rnd.nextLong(1L << 32); // past 2^32
      case 2:
        return max - rnd.nextLong(1024); // near the largest filter
      default:
        return 1 + rnd.nextLong(max);
    }
  }

  @Test
  void theWalkAndTheBitIndexerAgreeWithTheModelUpToTheLargestFilter() {
    SplittableRandom rnd = new SplittableRandom(0x601DE);
    long maxBits = 64L * Sizing.MAX_WORDS;
    for (int trial = 0; trial < 20_000; trial++) {
      long h1 = rnd.nextLong();
      long h2 = rnd.nextLong();
      long m = randomM(rnd, maxBits);
      int k = 1 + rnd.nextInt(32);
      long[] expected = model(h1, h2, m, k);

      long[] walked = new long[k];
      Probes.positions(h1, h2, m, k, walked);
      assertThat(walked).as("walk, m=%d k=%d", m, k).isEqualTo(expected);

      long[] indexed = new long[k];
      BitIndexer.withShape(Funnels.longFunnel(), m, k).indexes(h1, h2, indexed);
      assertThat(indexed).as("BitIndexer, m=%d k=%d", m, k).isEqualTo(expected);
    }
  }

  @Test
  void theStandardLayoutSetsTestsAndTouchesExactlyTheModelsBits() {
    SplittableRandom rnd = new SplittableRandom(0x1A7007);
    for (int trial = 0; trial < 5_000; trial++) {
      long h1 = rnd.nextLong();
      long h2 = rnd.nextLong();
      long m = 1 + rnd.nextLong(1 << 16);
      int k = 1 + rnd.nextInt(24);
      StandardLayout layout = new StandardLayout(m, k);
      long[] expected = modelWords(model(h1, h2, m, k), Sizing.wordsFor(m));

      long[] words = new long[Sizing.wordsFor(m)];
      assertThat(layout.test(words, h1, h2)).isFalse();
      assertThat(layout.set(words, h1, h2)).isTrue();
      assertThat(words).as("set, m=%d k=%d", m, k).isEqualTo(expected);
      assertThat(layout.test(words, h1, h2)).isTrue();
      assertThat(layout.set(words, h1, h2)).as("second set changes nothing").isFalse();

      long touched = 0;
      for (long x : model(h1, h2, m, k)) {
        touched += words[(int) (x >>> 6)];
      }
      assertThat(layout.touch(words, h1, h2)).isEqualTo(touched);

      // Clearing any one of the model's bits makes the item absent: test reads every probe.
      long x = model(h1, h2, m, k)[rnd.nextInt(k)];
      words[(int) (x >>> 6)] &= ~(1L << x);
      assertThat(layout.test(words, h1, h2)).isFalse();
    }
  }

  @Test
  void filtersPutAnItemWhereTheModelSays() throws IOException {
    SplittableRandom rnd = new SplittableRandom(0xF117E5);
    for (int trial = 0; trial < 300; trial++) {
      long m = 64 + rnd.nextLong(50_000);
      int k = 1 + rnd.nextInt(16);
      String item = "item-" + rnd.nextLong();
      long[] h = hash(item);
      long[] expected = model(h[0], h[1], m, k);

      BloomFilter<CharSequence> standard = BloomFilter.withShape(Funnels.stringFunnel(), m, k);
      standard.add(item);
      assertThat(standard.currentWords()).isEqualTo(modelWords(expected, Sizing.wordsFor(m)));

      CountingBloomFilter<CharSequence> counting = CountingBloomFilter.withShape(Funnels.stringFunnel(), m, k);
      counting.add(item);
      long[] counters = countersOf(counting, m);
      long[] expectedCounters = new long[(int) m];
      for (long x : Arrays.stream(expected).distinct().toArray()) {
        expectedCounters[(int) x] = 1; // a counter hit twice by one item's probes counts once
      }
      assertThat(counters).as("counting, m=%d k=%d", m, k).isEqualTo(expectedCounters);
      assertThat(counting.mightContain(item)).isTrue();

      long[] indexes = new long[Math.max(2, k)];
      BitIndexer.withShape(Funnels.stringFunnel(), m, k).indexes(item, indexes);
      assertThat(Arrays.copyOf(indexes, k)).isEqualTo(expected);
    }
  }

  private static long[] hash(String item) {
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(item, Funnels.stringFunnel());
      return new long[] {sink.h1, sink.h2};
    } finally {
      sink.release();
    }
  }

  private static long[] modelWords(long[] positions, int wordCount) {
    long[] words = new long[wordCount];
    for (long x : positions) {
      words[(int) (x >>> 6)] |= 1L << x;
    }
    return words;
  }

  /** The counters as the file format stores them: 16 nibbles per big-endian word after a 52-byte header. */
  private static long[] countersOf(CountingBloomFilter<?> f, long m) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    ByteBuffer b = ByteBuffer.wrap(out.toByteArray());
    long[] counters = new long[(int) m];
    for (int i = 0; i < m; i++) {
      long word = b.getLong(FilterFormat.HEADER_BYTES + 8 * (i / 16));
      counters[i] = (word >>> (4 * (i % 16))) & 0xF;
    }
    return counters;
  }
}
