package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The false-positive rate at steady state, at its worst moment. n items per window arrive at an even
 * rate (the test clock moves W/n per add) for two windows, so that all G generations are full; then, at
 * the last millisecond of each of the next 20 slots, when the current generation is full too and the
 * union of G full generations answers, 50,000 never-added keys are asked: 1,000,000 probes over 20
 * expiry steps. The measured rate must be at most 1.1·p + 3 standard errors, SE = sqrt(p(1 − p)/10^6):
 * the design's rate at that moment is 1 − (1 − p_g)^G ≈ 1.003·p for these shapes (docs/EXPIRING.md,
 * section 3), so a correct filter fails this with probability below 0.2% (one-sided, normal
 * approximation of the binomial, 3 SE), and a filter 10% above its target fails it almost surely.
 */
@Tag("jdk-independent") // rates of fixed keys under fixed hashes: the same on every JDK (.ci/run)
class ExpiringFalsePositiveRateTest {
  private static final long W = 7_000_000;
  private static final int SLOTS_SAMPLED = 20;
  private static final int PROBES_PER_SLOT = 50_000;

  @ParameterizedTest(name = "p = {0}, G = {1}")
  @CsvSource({"0.01, 8", "0.001, 8", "0.01, 16"})
  void rateAtTheWorstMomentIsWithinTheBound(double p, int generations) {
    long n = 700_000;
    TestClock clock = new TestClock(0);
    ExpiringBloomFilter<Long> f = ExpiringBloomFilter.builder(Funnels.longFunnel()).window(Duration.ofMillis(W))
        .expectedInsertionsPerWindow(n).fpp(p).generations(generations).clock(clock).build();
    long s = f.generationSpan().toMillis();
    long key = 0;
    long tick = W / n;
    // Two windows of adds, then SLOTS_SAMPLED more slots, probing at the end of each.
    long end = 2 * W + SLOTS_SAMPLED * s;
    long nextProbe = ((2 * W) / s + 1) * s - 1;
    long falsePositives = 0;
    long probes = 0;
    long probeKey = Long.MIN_VALUE / 2; // a range no add reaches
    for (long t = 0; t < end; t += tick) {
      clock.set(t);
      f.add(key++);
      if (t + tick > nextProbe) {
        clock.set(nextProbe);
        for (int i = 0; i < PROBES_PER_SLOT; i++) {
          falsePositives += f.mightContain(probeKey++) ? 1 : 0;
        }
        probes += PROBES_PER_SLOT;
        nextProbe += s;
      }
    }
    assertThat(probes).isEqualTo((long) SLOTS_SAMPLED * PROBES_PER_SLOT);
    double rate = (double) falsePositives / probes;
    double se = Math.sqrt(p * (1 - p) / probes);
    assertThat(rate).as("measured rate over %d probes at %d slot ends", probes, SLOTS_SAMPLED)
        .isLessThanOrEqualTo(1.1 * p + 3 * se);
    // The filter was loaded as intended: it really answered from G generations of about n/(G-1) items each.
    assertThat((double) f.approximateElementCount()).isBetween(0.9 * n, 1.2 * n * generations / (generations - 1));
    assertThat(rate).isGreaterThan(0.5 * p);
    System.out.printf("expiring FPR p=%s G=%d: measured %.5f over %d probes (bound %.5f)%n", p, generations, rate,
        probes, 1.1 * p + 3 * se);
  }
}
