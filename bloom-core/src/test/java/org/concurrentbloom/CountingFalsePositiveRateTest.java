package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The counting filter's false-positive rate, with the keys and bounds of {@link FalsePositiveRateTest}
 * (read its comment: 1.1 p + 3 SE above and 0.9 p - 3 SE below, each exceeded by a filter at the limit
 * with probability about 0.13%). A counting filter has the standard filter's m and k and answers from
 * whether counters are non-zero, so the same bounds hold; and they must still hold after removes.
 */
@Tag("jdk-independent") // rates of fixed keys under fixed hashes: the same on every JDK (.ci/run)
class CountingFalsePositiveRateTest {
  private static final int PROBES = 1_000_000;

  /** Filled with its n keys: the rate it was sized for. */
  @ParameterizedTest(name = "n={0}, p={1}")
  @CsvSource({"10000, 0.01", "1000000, 0.01"})
  void measuredRateMeetsTheTarget(int n, double p) {
    CountingBloomFilter<CharSequence> f = CountingBloomFilter.create(Funnels.stringFunnel(), n, p);
    for (int i = 0; i < n; i++) {
      f.add(FalsePositiveRateTest.insertedKey(i));
    }
    assertRate(f, n, p);
  }

  /**
   * Filled with 2n keys (twice its load: a rate of about 16 p) and then n of them removed: the rate
   * returns to that of n keys, because removes restore the counters exactly when none saturated.
   */
  @ParameterizedTest(name = "n={0}, p={1}")
  @CsvSource({"100000, 0.01"})
  void removesRestoreTheRate(int n, double p) {
    CountingBloomFilter<CharSequence> f = CountingBloomFilter.create(Funnels.stringFunnel(), n, p);
    for (int i = 0; i < 2 * n; i++) {
      f.add(FalsePositiveRateTest.insertedKey(i));
    }
    for (int i = n; i < 2 * n; i++) {
      assertThat(f.remove(FalsePositiveRateTest.insertedKey(i))).isTrue();
    }
    assertThat(f.stuckCounters()).isZero();
    assertRate(f, n, p);
  }

  private static void assertRate(CountingBloomFilter<CharSequence> f, int n, double p) {
    for (int i = 0; i < n; i++) {
      assertThat(f.mightContain(FalsePositiveRateTest.insertedKey(i))).as("false negative, key %d", i).isTrue();
    }
    long falsePositives = 0;
    for (int i = 0; i < PROBES; i++) {
      if (f.mightContain(FalsePositiveRateTest.absentKey(i))) {
        falsePositives++;
      }
    }
    double measured = (double) falsePositives / PROBES;
    double se = Math.sqrt(p * (1 - p) / PROBES);
    assertThat(measured).as("measured FPR for n=%d p=%s", n, p).isLessThanOrEqualTo(1.1 * p + 3 * se);
    assertThat(measured).as("measured FPR for n=%d p=%s", n, p).isGreaterThanOrEqualTo(0.9 * p - 3 * se);
  }
}
