package org.concurrentbloom;

import java.time.Duration;

/**
 * The shape of an {@link ExpiringBloomFilter}: G generations of m cells each, every one sized for the items
 * of one time slot, and the slot length s. Immutable; any thread may use it.
 *
 * <p>With G generations a slot lasts s = ⌈W / (G − 1)⌉ ms, so the G − 1 slots before the current one cover
 * at least the window W: an add is kept until its generation is the oldest and a new slot begins, between
 * (G − 1)·s ≥ W and G·s after it ({@link #maxRetentionMillis()}). At a steady n adds per window a slot
 * receives n·s/W of them. A query asks every generation, so each is sized for rate
 * p_g = 1 − (1 − p)^(1/G), which makes the union of G full generations answer falsely at rate p
 * (docs/EXPIRING.md, section 3, gives the bound and the memory it costs).
 */
final class ExpiringPlan {
  /** The default G: the least memory at p = 1% (1.66 times a standard filter's bits), retention 8/7. */
  static final int DEFAULT_GENERATIONS = 8;
  static final int MIN_GENERATIONS = 2;
  static final int MAX_GENERATIONS = 64;
  /** The shortest window: shorter ones would make the whole-millisecond slots round retention far past 8/7. */
  static final long MIN_WINDOW_MILLIS = 1_000;
  /**
   * The longest window: (2^63 − 1) / 256 ms rounded down, 2^55 − 1 ms (about 417 million days). Slots are
   * counted from the filter's origin, and a longer window could not hold two of them in a long
   * (docs/FORMAT.md, type 6).
   */
  static final long MAX_WINDOW_MILLIS = Long.MAX_VALUE / (4L * MAX_GENERATIONS);
  /** Slot numbers stay below 2^55 so that the state word can hold one with its phase (see ExpiringSteps). */
  static final long MAX_SLOT = (1L << 55) - 1;

  final long expectedInsertions;
  final double fpp;
  final long windowMillis;
  final int generations;
  final long slotMillis;
  /** Items one slot receives at the steady rate: ⌈n·s/W⌉. */
  final long perSlot;
  /** The rate each generation is sized for: 1 − (1 − p)^(1/G). */
  final double generationFpp;
  /** m: cells per generation, a multiple of 64 so that the interleaved words come out whole. */
  final long cells;
  final int hashFunctions;

  ExpiringPlan(long expectedInsertions, double fpp, long windowMillis, int generations) {
    checkExpectedInsertions(expectedInsertions);
    checkFpp(fpp);
    checkWindowMillis(windowMillis);
    checkGenerations(generations);
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
    this.windowMillis = windowMillis;
    this.generations = generations;
    this.slotMillis = ceilDiv(windowMillis, generations - 1);
    this.perSlot = Math.max(1, (long) Math.ceil((double) expectedInsertions * slotMillis / windowMillis));
    this.generationFpp = -Math.expm1(Math.log1p(-fpp) / generations);
    this.cells = Sizing.optimalBits(perSlot, generationFpp);
    this.hashFunctions = Sizing.optimalHashFunctions(perSlot, generationFpp);
    if (cells > Sizing.MAX_BITS / generations) {
      throw new IllegalArgumentException(String.format("expectedInsertionsPerWindow=%d at fpp=%s with %d generations"
          + " needs %d generations of %d bits, past the limit of %d bits in all", expectedInsertions, fpp, generations,
          generations, cells, Sizing.MAX_BITS));
    }
  }

  /** A plan read from a file: the same computation, so a file cannot declare a shape the library would not build. */
  static ExpiringPlan of(long n, double p, long windowMillis, int generations) {
    return new ExpiringPlan(n, p, windowMillis, generations);
  }

  /** G·s: an add is forgotten by then (the slot it fell in has been dropped). */
  long maxRetentionMillis() {
    return slotMillis * generations;
  }

  /** The bits of all generations: G·m. */
  long totalBits() {
    return cells * generations;
  }

  /** Words of the interleaved array: each word holds 64/G cells of G bits, one bit per generation. */
  int words() {
    return (int) (totalBits() >>> 6);
  }

  static void checkExpectedInsertions(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("expectedInsertionsPerWindow must be >= 1, was " + n);
    }
  }

  static void checkFpp(double p) {
    if (!(p > 0.0 && p < 1.0)) { // also rejects NaN
      throw new IllegalArgumentException("fpp must be in the open interval (0, 1), was " + p);
    }
  }

  static void checkWindowMillis(long millis) {
    if (millis < MIN_WINDOW_MILLIS) {
      throw new IllegalArgumentException("window must be at least " + MIN_WINDOW_MILLIS + " ms, was " + millis + " ms");
    }
    if (millis > MAX_WINDOW_MILLIS) {
      throw new IllegalArgumentException("window must be at most " + MAX_WINDOW_MILLIS + " ms, was " + millis + " ms");
    }
  }

  /** A window as whole milliseconds; a finer part would be rounded away, so it is refused. */
  static long windowMillis(Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be positive, was " + window);
    }
    if (window.compareTo(Duration.ofMillis(MAX_WINDOW_MILLIS)) > 0) {
      throw new IllegalArgumentException("window must be at most " + MAX_WINDOW_MILLIS + " ms, was " + window);
    }
    if (window.toNanosPart() % 1_000_000 != 0) {
      throw new IllegalArgumentException("window must be a whole number of milliseconds, was " + window);
    }
    long millis = window.toMillis();
    checkWindowMillis(millis);
    return millis;
  }

  static void checkGenerations(int g) {
    if (g < MIN_GENERATIONS || g > MAX_GENERATIONS || Integer.bitCount(g) != 1) {
      throw new IllegalArgumentException("generations must be a power of two in [" + MIN_GENERATIONS + ", "
          + MAX_GENERATIONS + "], was " + g);
    }
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  @Override
  public String toString() {
    return "n=" + expectedInsertions + "/window, p=" + fpp + ", window=" + windowMillis + " ms, " + generations
        + " generations of " + cells + " bits, k=" + hashFunctions + ", slot=" + slotMillis + " ms";
  }
}
