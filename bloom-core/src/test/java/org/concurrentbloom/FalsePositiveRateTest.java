package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Statistical tests of the false-positive rate. Keys are fixed (no randomness besides the hash), so each
 * run is identical. Bounds: with N probes of never-inserted keys the measured rate has standard error
 * sqrt(p(1-p)/N); a filter whose true rate is at most 1.1 p exceeds 1.1 p + 3 SE with probability about
 * 0.13% (one-sided normal tail), and one whose true rate is at least 0.9 p falls below 0.9 p - 3 SE
 * with the same probability. The lower bound catches a filter that wastes memory on a lower rate than
 * asked for.
 */
@Tag("jdk-independent") // rates of fixed keys under fixed hashes: the same on every JDK (.ci/run)
class FalsePositiveRateTest {
  private static final int PROBES = 1_000_000;

  static String insertedKey(long i) {
    return "user" + i + "@example.com";
  }

  static String absentKey(long i) {
    return "visitor" + i + "@example.org"; // disjoint from insertedKey by its domain
  }

  /** Every strategy of the standard and blocked layouts, each with n in {10^4, 10^6}, p in {0.1, 0.01, 0.001}. */
  static Stream<Arguments> strategiesAndTargets() {
    List<Arguments> out = new ArrayList<>();
    for (HashStrategy s : STRATEGIES) {
      for (int n : new int[] {10_000, 1_000_000}) {
        for (double p : new double[] {0.1, 0.01, 0.001}) {
          out.add(Arguments.of(s, n, p));
        }
      }
    }
    return out.stream();
  }

  /** The strategies of new filters (4, 6, and 5 below p = 0.001) and of older files (1, 2). */
  static final List<HashStrategy> STRATEGIES = List.of(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE,
      HashStrategy.MURMUR3_128_BLOCKED, HashStrategy.XXH3_64_ENHANCED_DOUBLE, HashStrategy.XXH3_64_BLOCKED,
      HashStrategy.XXH3_64_WORD_PAIR);

  static boolean isBlocked(HashStrategy strategy) {
    return FilterType.BLOCKED.admits(strategy);
  }

  static <T> BloomFilter<T> filter(Funnel<? super T> funnel, HashStrategy strategy, long n, double p) {
    BloomFilter.Builder<T> builder = BloomFilter.<T>builder(funnel).expectedInsertions(n).fpp(p)
        .hashStrategy(strategy);
    BloomFilter<T> f = isBlocked(strategy) ? builder.blocked().build() : builder.build();
    assertThat(f.hashStrategy()).isEqualTo(strategy);
    return f;
  }

  @ParameterizedTest(name = "{0}: n={1}, p={2}")
  @MethodSource("strategiesAndTargets")
  void measuredFalsePositiveRateMeetsTheTarget(HashStrategy strategy, int n, double p) {
    BloomFilter<CharSequence> f = filter(Funnels.stringFunnel(), strategy, n, p);
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
    System.out.printf("FPR %s n=%d p=%s: %.4f%%%n", strategy, n, p, 100 * measured);
    assertThat(measured).as("measured FPR for n=%d p=%s", n, p).isLessThanOrEqualTo(1.1 * p + 3 * se);
    assertThat(measured).as("measured FPR for n=%d p=%s", n, p).isGreaterThanOrEqualTo(0.9 * p - 3 * se);
  }

  /**
   * A filter past 2^32 bits (about 600 MB, 660 MB blocked; one at a time in the 2 GB test heap): every
   * probe index must be computed in 64-bit arithmetic. If any step truncated to 32 bits, no bit above
   * 2^32 would ever be set, or keys would be lost. For every strategy of the standard and blocked layouts.
   */
  @ParameterizedTest
  @MethodSource("strategies")
  void indexMathIsExactPastTwoToThe32Bits(HashStrategy strategy) {
    BloomFilter<Long> f = filter(Funnels.longFunnel(), strategy, 500_000_000, 0.01);
    long m = f.bitSize();
    assertThat(m).isGreaterThan(1L << 32);
    int keys = 1_000_000;
    for (long i = 0; i < keys; i++) {
      f.add(i);
    }
    for (long i = 0; i < keys; i++) {
      assertThat(f.mightContain(i)).as("false negative for %d", i).isTrue();
    }
    // At this load the expected FPR is about 1e-20 (standard; blocked: a block holds a second key with
    // probability about 0.1, and then all k probes hit its k bits with probability (k/512)^k < 1e-12),
    // so any false positive in 10^6 probes means broken math.
    long falsePositives = 0;
    for (long i = 0; i < 1_000_000; i++) {
      if (f.mightContain(-1 - i)) {
        falsePositives++;
      }
    }
    assertThat(falsePositives).isZero();

    long[] words = f.currentWords();
    int firstWordAbove = (int) ((1L << 32) >>> 6);
    long total = 0;
    long above = 0;
    double q;
    if (isBlocked(strategy)) {
      // A key's k bits all lie in one block, so they are not independent: count non-empty blocks
      // instead. Each key picks its block uniformly, so a non-empty block lies above 2^32 with
      // probability q = (blocks above 2^32) / blocks (2^32 is a block boundary).
      int wordsPerBlock = BlockedLayout.BLOCK_BITS / 64;
      for (int b = 0; b < words.length / wordsPerBlock; b++) {
        long any = 0;
        for (int w = b * wordsPerBlock; w < (b + 1) * wordsPerBlock; w++) {
          any |= words[w];
        }
        if (any != 0) {
          total++;
          if (b * wordsPerBlock >= firstWordAbove) {
            above++;
          }
        }
      }
      long blocks = m / BlockedLayout.BLOCK_BITS;
      q = (double) (blocks - (1L << 32) / BlockedLayout.BLOCK_BITS) / blocks;
    } else {
      for (int w = 0; w < words.length; w++) {
        int c = Long.bitCount(words[w]);
        total += c;
        if (w >= firstWordAbove) {
          above += c;
        }
      }
      // Each set bit lands above 2^32 with probability q = (m - 2^32) / m.
      q = (double) (m - (1L << 32)) / m;
    }
    // 5 standard deviations of the binomial count is a false alarm about once in 3.5 million runs.
    double expected = total * q;
    double sd = Math.sqrt(total * q * (1 - q));
    System.out.printf("past 2^32, %s: m=%d, %d of %d %s above 2^32, expected %.0f +/- %.0f%n", strategy, m,
        above, total, isBlocked(strategy) ? "non-empty blocks" : "set bits", expected, sd);
    assertThat((double) above).isBetween(expected - 5 * sd, expected + 5 * sd);
  }

  static Stream<HashStrategy> strategies() {
    return STRATEGIES.stream();
  }
}
