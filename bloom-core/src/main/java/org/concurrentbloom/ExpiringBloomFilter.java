package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A Bloom filter that forgets: it answers "was this added in the last {@link #window()}?". An item
 * whose {@link #add} finished at clock time t is found by every {@link #mightContain} before
 * t + {@code window()}, and answers like an item never added (false, except at the false-positive rate)
 * from t + {@link #maxRetention()} on, unless it was added again. Both bounds hold whatever runs
 * concurrently (docs/EXPIRING.md, sections 3 and 4, has the proofs). Built for deduplication of
 * at-least-once deliveries, rate limits and "recent sign-up" checks (docs/EXPIRING.md has the pattern):
 *
 * <pre>{@code
 * ExpiringBloomFilter<CharSequence> seen = ExpiringBloomFilter.builder(Funnels.stringFunnel())
 *     .window(Duration.ofHours(24))
 *     .expectedInsertionsPerWindow(10_000_000)
 *     .build();
 * if (seen.add(messageId)) {   // true: not seen in the last 24 hours
 *   process(message);
 * }
 * }</pre>
 *
 * <h2>Design</h2>
 * Rotating generations: time is cut into slots of s = ⌈W/(G − 1)⌉, each slot's adds go into one of G
 * generations, and when a slot begins the generation of the slot G before it is cleared and reused. A
 * query asks every generation that is not past its time. G = 8 by default: the retention bound is then
 * 8/7 of the window and the memory 1.66 times a standard filter's at p = 1% (1.49 times at 0.1%), the
 * least of any G there. The age-partitioned design (Shtul, Baquero and Almeida, "Age-Partitioned Bloom
 * Filters", 2020) was studied and needs over 2.4 times at the same bound; docs/EXPIRING.md compares them.
 *
 * <h2>Thread safety</h2>
 * Every method may be called from any thread at any time, and none takes a lock. {@code add} and
 * {@code mightContain} allocate nothing. There is no background thread: the first call that sees from the
 * clock that a new slot has begun clears the generation it reuses (one pass over the bits, during that
 * call). Queries meanwhile go on, leaving expired generations out by the clock alone, and so do adds whose
 * clock reading still falls within what the current generation covers; an add that reads a later time
 * helps finish the pass (the threads share it) and then goes into the new generation, so that no
 * generation is ever kept past its time on its behalf. The clock may stand still, jump, or go backwards:
 * an add stays in the filter until the clock has shown t + {@code window()} at least once.
 *
 * <h2>Statistics</h2>
 * They describe the generations the clock has not yet retired: {@link #count()} counts the adds that
 * returned true into them (an item added again in a later slot is counted in each), while
 * {@link #approximateElementCount()} and {@link #estimatedFpp()} are read off their bits, so an item in
 * several generations counts once there.
 *
 * @param <T> the type of item
 */
public final class ExpiringBloomFilter<T> implements MembershipFilter<T> {
  /**
   * The longest {@linkplain Builder#window window} a filter takes: 2^55 − 1 ms, (2^63 − 1) / 256 rounded
   * down, 36,028,797,018,963,967 ms (about 417 million days), so that its slot numbers fit the file format.
   */
  public static final Duration MAX_WINDOW = Duration.ofMillis(ExpiringPlan.MAX_WINDOW_MILLIS);

  private final Funnel<? super T> funnel;
  private final ExpiringPlan plan;
  private final InstantSource clock;
  private volatile ExpiringGenerations generations;

  ExpiringBloomFilter(Funnel<? super T> funnel, ExpiringGenerations generations, InstantSource clock) {
    this.funnel = funnel;
    this.plan = generations.plan;
    this.clock = clock;
    this.generations = generations;
  }

  /** A builder for a filter of {@code funnel}'s items; {@code window} and the per-window n are required. */
  public static <T> Builder<T> builder(Funnel<? super T> funnel) {
    return new Builder<>(funnel);
  }

  /**
   * Settings of an {@link ExpiringBloomFilter}. Each setter checks its value: {@code NullPointerException}
   * for null, {@code IllegalArgumentException} naming the setting and the value when out of range. Not
   * thread-safe.
   *
   * @param <T> the type of item
   */
  public static final class Builder<T> {
    private final Funnel<? super T> funnel;
    private long windowMillis = -1;
    private long expectedInsertions = -1;
    private double fpp = 0.01;
    private InstantSource clock = InstantSource.system();
    private int generations = ExpiringPlan.DEFAULT_GENERATIONS;

    private Builder(Funnel<? super T> funnel) {
      this.funnel = Objects.requireNonNull(funnel, "funnel");
    }

    /**
     * W: how long every add must be remembered. Required; a whole number of milliseconds, at least one
     * second and at most {@link ExpiringBloomFilter#MAX_WINDOW}.
     */
    public Builder<T> window(Duration window) {
      Objects.requireNonNull(window, "window");
      this.windowMillis = ExpiringPlan.windowMillis(window);
      return this;
    }

    /** n: the items added during one window at the steady rate the filter is sized for. Required; at least 1. */
    public Builder<T> expectedInsertionsPerWindow(long expectedInsertions) {
      ExpiringPlan.checkExpectedInsertions(expectedInsertions);
      this.expectedInsertions = expectedInsertions;
      return this;
    }

    /** p: the false-positive probability at n items per window, in (0, 1). Defaults to 0.01. */
    public Builder<T> fpp(double fpp) {
      ExpiringPlan.checkFpp(fpp);
      this.fpp = fpp;
      return this;
    }

    /** The clock that decides what has expired. Defaults to {@link InstantSource#system()}; tests pass their own. */
    public Builder<T> clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * G, a power of two in [2, 64]; default 8. {@link ExpiringBloomFilter#maxRetention()} is W·G/(G − 1):
     * a larger G forgets sooner after the window, for more memory past G = 8 (16: 1.07·W and 1.71 times
     * a standard filter's bits at p = 1%; table in docs/EXPIRING.md).
     */
    public Builder<T> generations(int generations) {
      ExpiringPlan.checkGenerations(generations);
      this.generations = generations;
      return this;
    }

    /**
     * The bits {@link #build()} would allocate, for sizing before building. This and the other shape
     * previews throw as {@link #build()} does when a required setting is missing.
     */
    public long bitSize() {
      return plan().totalBits();
    }

    /** The {@link ExpiringBloomFilter#bitsPerGeneration()} of the filter {@link #build()} would create. */
    public long bitsPerGeneration() {
      return plan().cells;
    }

    /** The {@link ExpiringBloomFilter#hashFunctions()} of the filter {@link #build()} would create. */
    public int hashFunctions() {
      return plan().hashFunctions;
    }

    /** The {@link ExpiringBloomFilter#generationSpan()} of the filter {@link #build()} would create. */
    public Duration generationSpan() {
      return Duration.ofMillis(plan().slotMillis);
    }

    /** The {@link ExpiringBloomFilter#maxRetention()} of the filter {@link #build()} would create. */
    public Duration maxRetention() {
      return Duration.ofMillis(plan().maxRetentionMillis());
    }

    /**
     * Builds the filter; its first slot begins at the clock's current time.
     *
     * @throws IllegalStateException if {@code window} or {@code expectedInsertionsPerWindow} was not set
     * @throws IllegalArgumentException if the shape passes the size limit of one {@code long[]}
     */
    public ExpiringBloomFilter<T> build() {
      ExpiringPlan plan = plan();
      return new ExpiringBloomFilter<>(funnel, ExpiringGenerations.empty(plan, clock), clock);
    }

    private ExpiringPlan plan() {
      if (windowMillis < 0) {
        throw new IllegalStateException("window(Duration) must be set before build()");
      }
      if (expectedInsertions < 0) {
        throw new IllegalStateException("expectedInsertionsPerWindow(n) must be set before build()");
      }
      return new ExpiringPlan(expectedInsertions, fpp, windowMillis, generations);
    }
  }

  // ---------------------------------------------------------------- membership

  /**
   * Adds {@code item} to the current generation, renewing it for another window if it was there already.
   * Returns true iff it was definitely absent: not added within the generations still remembered (up to
   * concurrent adds of the same item).
   */
  @Override
  public boolean add(T item) {
    Objects.requireNonNull(item, "item");
    long h1 = Xxh3Keys.of(item, funnel);
    return generations.add(h1, Xxh3Keys.second(h1));
  }

  /**
   * False if {@code item} was definitely not added within {@link #maxRetention()} of now; true if it may
   * have been, and always true if it was added within {@link #window()}.
   */
  @Override
  public boolean mightContain(T item) {
    Objects.requireNonNull(item, "item");
    long h1 = Xxh3Keys.of(item, funnel);
    return generations.mightContain(h1, Xxh3Keys.second(h1));
  }

  /**
   * {@code add(Long.valueOf(key))} without the box: the same bits, the same answer.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean addLong(long key) {
    Funnels.requireLongKeys(funnel);
    long h1 = Xxh3Keys.ofLong(key);
    return generations.add(h1, Xxh3Keys.second(h1));
  }

  /**
   * {@code mightContain(Long.valueOf(key))} without the box.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean mightContainLong(long key) {
    Funnels.requireLongKeys(funnel);
    long h1 = Xxh3Keys.ofLong(key);
    return generations.mightContain(h1, Xxh3Keys.second(h1));
  }

  // ---------------------------------------------------------------- shape

  /** W: an add is remembered at least this long. */
  public Duration window() {
    return Duration.ofMillis(plan.windowMillis);
  }

  /** An add is forgotten (unless renewed) this long after it at the latest: G·s, W·G/(G − 1) up to rounding. */
  public Duration maxRetention() {
    return Duration.ofMillis(plan.maxRetentionMillis());
  }

  /** s: the span of one generation's slot, ⌈W/(G − 1)⌉. */
  public Duration generationSpan() {
    return Duration.ofMillis(plan.slotMillis);
  }

  /** G, the number of generations. */
  public int generationCount() {
    return plan.generations;
  }

  /** The per-window n the filter was sized for. */
  @Override
  public long expectedInsertions() {
    return plan.expectedInsertions;
  }

  @Override
  public double fpp() {
    return plan.fpp;
  }

  /** k: probes per item, the same cells in every generation. */
  public int hashFunctions() {
    return plan.hashFunctions;
  }

  /** m: bits per generation. */
  public long bitsPerGeneration() {
    return plan.cells;
  }

  /** Always {@link HashStrategy#XXH3_64_ENHANCED_DOUBLE}: each generation places bits as a standard filter does. */
  public HashStrategy hashStrategy() {
    return HashStrategy.XXH3_64_ENHANCED_DOUBLE;
  }

  /** G·m: the bits of all generations. */
  @Override
  public long bitSize() {
    return plan.totalBits();
  }

  /**
   * One generation as of now: the slot whose adds it holds, when it is forgotten, and its load.
   *
   * @param start the beginning of its slot
   * @param end the end of its slot: adds go to it while the clock is in [start, end)
   * @param forgottenFrom from this time on its adds are forgotten: start + G·s
   * @param count adds into it that returned true
   * @param setBits its bits that are set, of {@link #bitsPerGeneration()}
   * @param current true for the one generation adds go to now
   */
  public record Generation(Instant start, Instant end, Instant forgottenFrom, long count, long setBits,
      boolean current) {}

  /**
   * The generations the clock has not retired, newest first; the first is the current one. Slots from
   * before the filter was built are left out, so a new filter lists one. Runs a step if one is due. Scans
   * the bits.
   */
  public List<Generation> generations() {
    ExpiringGenerations gens = generations;
    long t = gens.now();
    gens.stepIfIdle(gens.slotOf(t));
    long st = gens.stateVolatile();
    return generations(gens, st, gens.validAt(st, t));
  }

  /**
   * The generations as the filter holds them, newest first, without reading the clock or stepping: the
   * one adds go to (of the newest slot a step has reached, marked current) and those of the G − 1 slots
   * before it, including any that a clock reading would retire now. Slots from before the filter was
   * built, and generations a step is clearing at that moment, are left out: the list is empty while a
   * step that clears every generation runs, and never for a filter that no other thread uses. For a
   * filter just returned by {@link #readFrom}, these are the generations the record holds, and the first
   * one's slot is the one the writer's clock had reached when it wrote: a caller can compare its clock
   * with it before any call steps (docs/EXPIRING.md, section 9). Scans the bits.
   */
  public List<Generation> generationsWithoutStepping() {
    ExpiringGenerations gens = generations;
    long st = gens.stateVolatile();
    return generations(gens, st, gens.notClearing(st));
  }

  private List<Generation> generations(ExpiringGenerations gens, long st, long valid) {
    long cur = ExpiringGenerations.slotIn(st);
    long[] set = gens.setBitsPerGeneration(valid);
    List<Generation> out = new ArrayList<>();
    for (long i = cur; i > cur - plan.generations && i >= 0; i--) { // slots before the origin held nothing
      int p = gens.generation(i);
      if ((valid & (1L << p)) == 0) {
        continue;
      }
      out.add(new Generation(Instant.ofEpochMilli(gens.slotStart(i)), Instant.ofEpochMilli(gens.slotStart(i + 1)),
          Instant.ofEpochMilli(gens.slotStart(i + plan.generations)), gens.countOf(p, i), set[p], i == cur));
    }
    return List.copyOf(out);
  }

  // ---------------------------------------------------------------- statistics

  private long validNow(ExpiringGenerations gens) {
    return gens.validAt(gens.stateVolatile(), gens.now());
  }

  /** Adds that returned true into the generations not yet retired. */
  @Override
  public long count() {
    ExpiringGenerations gens = generations;
    long t = gens.now();
    long st = gens.stateVolatile();
    return gens.count(st, gens.validAt(st, t));
  }

  /** Set bits of the unretired generations over all G·m bits. Scans the bits. */
  @Override
  public double fillRatio() {
    ExpiringGenerations gens = generations;
    long[] set = gens.setBitsPerGeneration(validNow(gens));
    return (double) Arrays.stream(set).sum() / plan.totalBits();
  }

  /**
   * An estimate of the rate at which a never-added item is found: min(1 − Π_g (1 − f_g^k), f^k), f_g the
   * fraction of unretired generation g's bits that are set and f that of their OR. A query answers true
   * iff some unretired generation has all k of the item's cells set, and every generation uses the same k
   * cells for an item. The first term takes the generations' answers as independent, as they are when
   * the generations hold different items (it is at most the union bound Σ f_g^k). The second is the rate
   * of one filter of the union of their items, which is what their OR is, and bounds the rate from above:
   * an item whose cells are all set in one generation has them all set in the OR. It is the right one
   * when the generations hold the same items (a key re-added in every slot), whose answers coincide.
   * Scans the bits once and allocates G + 1 longs.
   */
  @Override
  public double estimatedFpp() {
    ExpiringGenerations gens = generations;
    long[] set = gens.setBitsAndUnion(validNow(gens));
    double none = 1;
    for (int p = 0; p < plan.generations; p++) {
      none *= 1 - Math.pow((double) set[p] / plan.cells, plan.hashFunctions);
    }
    double union = Math.pow((double) set[plan.generations] / plan.cells, plan.hashFunctions);
    return Math.min(1 - none, union);
  }

  /**
   * An estimate of the distinct items in the unretired generations: the smaller of n_OR and Σ_g n_g, each
   * the Swamidass–Baldi estimate −(m/k)·ln(1 − X/m) from X set bits (2007), n_OR from the OR of the
   * generations' bits and n_g from generation g's. Every generation uses the same k cells for an item, so
   * the OR is the filter of the union of their items, and n_OR counts an item added in several slots once.
   * Σ n_g counts such an item once per generation it is in: it is at least the distinct count, up to the
   * estimates' error, and equal to it when the generations hold different items, which is when it is the
   * better one, since the OR of G generations of different items is nearly full and n_OR imprecise
   * (Long.MAX_VALUE once every cell is set in some generation). Taking the smaller of two estimates of one
   * count then errs low, by less than n_OR's own error. Long.MAX_VALUE only if some generation is
   * saturated. Scans the bits once and allocates G + 1 longs.
   */
  @Override
  public long approximateElementCount() {
    ExpiringGenerations gens = generations;
    long[] set = gens.setBitsAndUnion(validNow(gens));
    long sum = 0;
    for (int p = 0; p < plan.generations; p++) {
      sum = BitTable.saturatedSum(sum, Sizing.estimateElements(plan.cells, plan.hashFunctions, set[p]));
    }
    return Math.min(sum, Sizing.estimateElements(plan.cells, plan.hashFunctions, set[plan.generations]));
  }

  /**
   * Forgets every item, atomically for other operations (it swaps in fresh generations whose first slot
   * begins now). Allocates the bits anew.
   */
  @Override
  public void clear() {
    generations = ExpiringGenerations.empty(plan, clock);
  }

  // ---------------------------------------------------------------- persistence

  /**
   * Writes the filter as a type 6 record of docs/FORMAT.md: its shape, its clock origin and current slot,
   * each generation's times and count, and the bits. Generations the clock has retired are written
   * empty. A snapshot of a filter under concurrent adds holds every add that finished before the call.
   * Does not close {@code out}.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    ExpiringFormat.write(out, KeyType.of(funnel), generations);
  }

  /**
   * Reads a filter written by {@link #writeTo}, whose expiry then follows {@code clock}: generations past
   * their time by that clock are forgotten at once. Reads exactly the record's bytes and does not close
   * {@code in}.
   *
   * @throws IOException if the stream ends early or is not a valid type 6 record (another type, a shape
   *     the builder would not make, times that do not follow from the origin and slot, a kept-until time
   *     past the current generation's end, bits past m, checksum mismatch), or records a key type other
   *     than the funnel's; nothing larger than the bytes present is allocated
   */
  public static <T> ExpiringBloomFilter<T> readFrom(InputStream in, Funnel<? super T> funnel, InstantSource clock)
      throws IOException {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(funnel, "funnel");
    Objects.requireNonNull(clock, "clock");
    ExpiringGenerations gens = ExpiringFormat.read(in, funnel, clock);
    return new ExpiringBloomFilter<>(funnel, gens, clock);
  }

  /** {@link #readFrom(InputStream, Funnel, InstantSource)} with the system clock. */
  public static <T> ExpiringBloomFilter<T> readFrom(InputStream in, Funnel<? super T> funnel) throws IOException {
    return readFrom(in, funnel, InstantSource.system());
  }

  @Override
  public String toString() {
    return "ExpiringBloomFilter[window=" + window() + ", maxRetention=" + maxRetention() + ", generations="
        + plan.generations + ", bitsPerGeneration=" + plan.cells + ", hashFunctions=" + plan.hashFunctions
        + ", expectedInsertionsPerWindow=" + plan.expectedInsertions + ", fpp=" + plan.fpp + ", funnel=" + funnel
        + "]";
  }

  /** For tests: the generations now in use. */
  ExpiringGenerations generationsForTests() {
    return generations;
  }

  /** For tests: the steps that recycled a generation since this filter was built or read. */
  long stepsTaken() {
    return generations.stepsTaken();
  }
}
