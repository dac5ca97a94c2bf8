package org.concurrentbloom.benchmarks;

import java.time.Duration;

/**
 * The sliding window both implementations in {@link ExpiringBenchmark} are configured for: G = 8
 * generations (bloom-core's default), a window W of 7 hours so that a slot s = W/(G − 1) is exactly one
 * hour, and n items per window at the suite's p. A slot then receives ⌈n/(G − 1)⌉ items, and each
 * generation is sized for them at p_g = 1 − (1 − p)^(1/G), the rate at which G full generations together
 * answer falsely at p (what ExpiringPlan computes; Commons' layers are given the same n and p_g).
 */
final class ExpiringWindow {
  /** G: generations of ours, layers of Commons' LayeredBloomFilter. */
  static final int GENERATIONS = 8;
  /** W: 7 slots of one hour. */
  static final Duration WINDOW = Duration.ofHours(GENERATIONS - 1);
  /** s = W/(G − 1). */
  static final long SLOT_MILLIS = WINDOW.toMillis() / (GENERATIONS - 1);

  private ExpiringWindow() {}

  /** Items one slot receives at n per window: ⌈n/(G − 1)⌉. */
  static int perSlot(long n) {
    return Math.toIntExact(-Math.floorDiv(-n, GENERATIONS - 1));
  }

  /** The false-positive rate each generation is sized for: 1 − (1 − p)^(1/G). */
  static double generationFpp(double fpp) {
    return -Math.expm1(Math.log1p(-fpp) / GENERATIONS);
  }
}
