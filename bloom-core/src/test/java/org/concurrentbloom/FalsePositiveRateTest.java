package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statistical tests of the false-positive rate. Keys are fixed (no randomness besides the hash), so each
 * run is identical. Bounds: with N probes of never-inserted keys the measured rate has standard error
 * sqrt(p(1-p)/N); a filter whose true rate is at most 1.1 p exceeds 1.1 p + 3 SE with probability about
 * 0.13% (one-sided normal tail), and one whose true rate is at least 0.9 p falls below 0.9 p - 3 SE
 * with the same probability. The lower bound catches a filter that wastes memory on a lower rate than
 * asked for.
 */
class FalsePositiveRateTest {
  private static final int PROBES = 1_000_000;

  static String insertedKey(long i) {
    return "user" + i + "@example.com";
  }

  static String absentKey(long i) {
    return "visitor" + i + "@example.org"; // disjoint from insertedKey by its domain
  }

  @ParameterizedTest(name = "{0}: n={1}, p={2}")
  @CsvSource({
    "standard, 10000, 0.1", "standard, 10000, 0.01", "standard, 10000, 0.001",
    "standard, 1000000, 0.1", "standard, 1000000, 0.01", "standard, 1000000, 0.001",
    "blocked, 10000, 0.1", "blocked, 10000, 0.01", "blocked, 10000, 0.001",
    "blocked, 1000000, 0.1", "blocked, 1000000, 0.01", "blocked, 1000000, 0.001"})
  void measuredFalsePositiveRateMeetsTheTarget(String layout, int n, double p) {
    BloomFilter.Builder<CharSequence> builder = BloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .expectedInsertions(n).fpp(p);
    BloomFilter<CharSequence> f = layout.equals("blocked") ? builder.blocked().build() : builder.build();
    for (int i = 0; i < n; i++) {
      f.add(insertedKey(i));
    }
    for (int i = 0; i < n; i++) {
      assertThat(f.mightContain(insertedKey(i))).as("false negative for %s", insertedKey(i)).isTrue();
    }
    long falsePositives = 0;
    for (int i = 0; i < PROBES; i++) {
      if (f.mightContain(absentKey(i))) {
        falsePositives++;
      }
    }
    double measured = (double) falsePositives / PROBES;
    double se = Math.sqrt(p * (1 - p) / PROBES);
    assertThat(measured).as("measured FPR for n=%d p=%s", n, p).isLessThanOrEqualTo(1.1 * p + 3 * se);
    assertThat(measured).as("measured FPR for n=%d p=%s", n, p).isGreaterThanOrEqualTo(0.9 * p - 3 * se);
  }

  /**
   * A filter past 2^32 bits (about 600 MB): every probe index must be computed in 64-bit arithmetic.
   * If any step truncated to 32 bits, no bit above 2^32 would ever be set, or keys would be lost.
   */
  @Test
  void indexMathIsExactPastTwoToThe32Bits() {
    BloomFilter<Long> f = BloomFilter.create(Funnels.longFunnel(), 500_000_000, 0.01);
    long m = f.bitSize();
    assertThat(m).isGreaterThan(1L << 32);
    int keys = 1_000_000;
    for (long i = 0; i < keys; i++) {
      f.add(i);
    }
    for (long i = 0; i < keys; i++) {
      assertThat(f.mightContain(i)).as("false negative for %d", i).isTrue();
    }
    // At this load the expected FPR is about 1e-20, so any false positive in 10^6 probes means broken math.
    long falsePositives = 0;
    for (long i = 0; i < 1_000_000; i++) {
      if (f.mightContain(-1 - i)) {
        falsePositives++;
      }
    }
    assertThat(falsePositives).isZero();

    long[] words = f.currentWords();
    long total = 0;
    long above = 0;
    int firstWordAbove = (int) ((1L << 32) >>> 6);
    for (int w = 0; w < words.length; w++) {
      int c = Long.bitCount(words[w]);
      total += c;
      if (w >= firstWordAbove) {
        above += c;
      }
    }
    // Each set bit lands above 2^32 with probability q = (m - 2^32) / m; 5 standard deviations of the
    // binomial count is a false alarm about once in 3.5 million runs.
    double q = (double) (m - (1L << 32)) / m;
    double expected = total * q;
    double sd = Math.sqrt(total * q * (1 - q));
    assertThat((double) above).isBetween(expected - 5 * sd, expected + 5 * sd);
  }
}
