package org.concurrentbloom.redis;

import java.io.OutputStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.internal.BitIndexer;
import redis.clients.jedis.UnifiedJedis;

/**
 * An {@link ExpiringBloomFilter} kept in Redis: every add is remembered for at least the window W and
 * forgotten by {@link #maxRetention()} after it, and every application instance attached to the filter
 * sees every other's adds. Plain Redis 7 (strings, hashes, Lua, {@code PEXPIREAT ... GT}), one server or
 * a Cluster.
 *
 * <pre>{@code
 * RedisExpiringBloomFilter<CharSequence> seen = RedisExpiringBloomFilter.<CharSequence>builder(redis,
 *     "app:seen-messages", Funnels.stringFunnel())
 *     .window(Duration.ofHours(1)).expectedInsertionsPerWindow(1_000_000).fpp(0.01).build();
 * if (seen.add(message.id())) {   // true iff no instance added it within the remembered generations
 *   process(message);
 * }
 * }</pre>
 *
 * <p>As in the core filter, time is cut into slots of s = ⌈W/(G − 1)⌉ ms from the filter's origin (the
 * time its metadata was created); an add goes to the generation of the current slot, a query asks the
 * generations of the last G slots, and the generation of slot i is forgotten once slot i + G begins. Each
 * generation is its own Redis key, which Redis deletes by itself at that time ({@code PEXPIREAT}); the
 * keys of one filter share one hash tag, so one Cluster slot (docs/REDIS.md, "Expiring filters on Redis").
 *
 * <h2>Clock</h2>
 * By default the slots are cut by the <b>server's</b> clock ({@code TIME} inside each script), so
 * instances on hosts whose clocks disagree still agree on the current generation. With
 * {@link Builder#clock} the caller's clock decides the slots instead (for tests): its
 * {@code millis()} is sent with every call. Redis still expires keys on its own clock, so the script
 * sets each key's expiry to the server's now plus the time, on the caller's clock, until the generation
 * is forgotten: a test clock far from real time never makes Redis drop a generation still remembered,
 * nor keep one for ever. (That assumes the caller's clock runs at least as fast as the server's: one
 * that stands still for longer than a generation's remaining retention lets Redis drop it early.)
 * Expiries are only ever raised ({@code GT}), and the current slot never goes below the highest slot an
 * add has used, so a clock that steps back causes no false negative. Every instance of one filter must
 * use the same kind of clock (it is part of the stored shape).
 *
 * <h2>Thread safety and failures</h2>
 * Instances are immutable and every method may be called from any thread, as the client may. Each add,
 * query, statistic and clear is one atomic script on the server: adds from any number of clients are
 * never lost. A Redis error or timeout throws {@link RedisFilterException}, never "absent"; a stored
 * shape other than this client's, missing metadata, or a key holding data this library did not write
 * throws {@link RedisFilterMismatchException}, having written nothing.
 *
 * <p>{@link #writeTo} throws {@link UnsupportedOperationException}: the file format's expiring record
 * (type 6) places bits by hash strategy 4, while Redis filters place them by strategy 1.
 *
 * @param <T> the type of item
 */
public final class RedisExpiringBloomFilter<T> implements MembershipFilter<T> {
  /** The most bits one generation may have: a Redis string holds at most 512 MB. */
  public static final long MAX_GENERATION_BITS = RedisBloomFilter.MAX_PARTITION_BITS;

  private final String name;
  private final ExpiringCalls<T> calls;
  private final ExpiringShape shape;
  private final long expectedInsertions;
  private final double fpp;
  private final long originMillis;
  private final boolean created;

  private RedisExpiringBloomFilter(String name, ExpiringCalls<T> calls, ExpiringShape shape, List<?> opened) {
    this.name = name;
    this.calls = calls;
    this.shape = shape;
    this.created = RedisCodec.isOne(opened.get(0));
    this.expectedInsertions = RedisCodec.number(opened.get(1));
    this.fpp = Double.parseDouble(RedisCodec.text(opened.get(2)));
    this.originMillis = RedisCodec.number(opened.get(3));
  }

  /**
   * Starts describing the filter {@code name} on a Jedis client (a {@code RedisClient} for one server, a
   * {@code RedisClusterClient} for a cluster), which the filter uses and never closes.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the name is empty or contains '{' or '}'
   */
  public static <T> Builder<T> builder(UnifiedJedis redis, String name, Funnel<? super T> funnel) {
    return new Builder<>(RedisClientAdapter.jedis(redis), name, funnel);
  }

  /**
   * Starts describing the filter {@code name} over any client: {@link RedisClientAdapter#jedis} or
   * {@link LettuceAdapters#of}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the name is empty or contains '{' or '}'
   */
  public static <T> Builder<T> builder(RedisClientAdapter redis, String name, Funnel<? super T> funnel) {
    return new Builder<>(redis, name, funnel);
  }

  /**
   * Settings of a {@link RedisExpiringBloomFilter}, checked as the core {@link ExpiringBloomFilter.Builder}
   * checks them: {@code NullPointerException} for null, {@code IllegalArgumentException} naming the
   * setting and the value when out of range. Not thread-safe; the filters are.
   *
   * @param <T> the type of item
   */
  public static final class Builder<T> {
    private final RedisClientAdapter redis;
    private final String name;
    private final Funnel<? super T> funnel;
    /** The core's builder checks each setting and computes the shape, so both filters size alike. */
    private final ExpiringBloomFilter.Builder<T> plan;
    private long windowMillis = -1;
    private long expectedInsertions = -1;
    private double fpp = 0.01;
    private int generations = 8;
    private InstantSource clock;

    private Builder(RedisClientAdapter redis, String name, Funnel<? super T> funnel) {
      this.redis = Objects.requireNonNull(redis, "redis");
      FilterKeys.checkName(name);
      this.name = name;
      this.funnel = Objects.requireNonNull(funnel, "funnel");
      this.plan = ExpiringBloomFilter.builder(funnel);
    }

    /** W: how long every add must be remembered. Required; a whole number of milliseconds, at least one second. */
    public Builder<T> window(Duration window) {
      plan.window(window);
      this.windowMillis = window.toMillis();
      return this;
    }

    /** n: the items added during one window at the steady rate the filter is sized for. Required; at least 1. */
    public Builder<T> expectedInsertionsPerWindow(long expectedInsertions) {
      plan.expectedInsertionsPerWindow(expectedInsertions);
      this.expectedInsertions = expectedInsertions;
      return this;
    }

    /** p: the false-positive probability at n items per window, in (0, 1). Defaults to 0.01. */
    public Builder<T> fpp(double fpp) {
      plan.fpp(fpp);
      this.fpp = fpp;
      return this;
    }

    /** G, a power of two in [2, 64]; default 8. {@link RedisExpiringBloomFilter#maxRetention()} is G·s. */
    public Builder<T> generations(int generations) {
      plan.generations(generations);
      this.generations = generations;
      return this;
    }

    /**
     * The clock that decides the slots, instead of the server's (the default). For tests; see the class
     * comment, "Clock", for how expiries stay in the server's time. Every instance of the filter must use
     * a caller's clock then.
     */
    public Builder<T> clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Creates the filter's metadata in Redis, with its first slot beginning now, or attaches to the
     * filter if it exists with the same shape (m, k, G, s, W, hash strategy, format version, kind of
     * clock). {@link RedisExpiringBloomFilter#created()} tells which; n and p are then the stored ones.
     * One round trip.
     *
     * @throws IllegalStateException if {@code window} or {@code expectedInsertionsPerWindow} was not set
     *     (the message names it)
     * @throws IllegalArgumentException if a generation would need more than 2^32 bits
     * @throws RedisFilterMismatchException if the filter exists with another shape, or the metadata key
     *     holds data this library did not write (the message names the key); nothing was written
     * @throws RedisFilterException if Redis fails
     */
    public RedisExpiringBloomFilter<T> build() {
      plan.generations(generations); // the core's default is the same 8; set so that the two never drift
      long m = plan.bitsPerGeneration(); // throws IllegalStateException naming a missing setting
      if (m > MAX_GENERATION_BITS) {
        throw new IllegalArgumentException("bitsPerGeneration would be " + m + ", past the " + MAX_GENERATION_BITS
            + " bits one Redis string holds: lower expectedInsertionsPerWindow, raise fpp or use more generations");
      }
      int k = plan.hashFunctions();
      ExpiringShape shape = new ExpiringShape(m, k, generations, plan.generationSpan().toMillis(), windowMillis,
          clock == null);
      ExpiringCalls<T> calls = new ExpiringCalls<>(redis, name, shape, BitIndexer.withShape(funnel, m, k), clock);
      List<?> opened = calls.open(expectedInsertions, fpp);
      return new RedisExpiringBloomFilter<>(name, calls, shape, opened);
    }
  }

  // ---------------------------------------------------------------- membership

  /**
   * Adds {@code item} to the current generation (renewing it there if it was known). Returns true iff it
   * was definitely absent from every remembered generation, as no instance had added it within them (up
   * to false positives): {@code if (seen.add(id)) process(msg)} processes each id once per window. One
   * round trip, atomic. If the call throws, the add may or may not have been applied.
   *
   * @throws NullPointerException if {@code item} is null
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public boolean add(T item) {
    return calls.add(item);
  }

  /**
   * True if {@code item} may have been added within the remembered generations, and always true if it
   * was added within {@link #window()} of now; false if it was definitely not. One round trip.
   *
   * @throws NullPointerException if {@code item} is null
   * @throws RedisFilterException if Redis fails: never answers false for a failure
   */
  @Override
  public boolean mightContain(T item) {
    return calls.query(item);
  }

  // ---------------------------------------------------------------- shape

  /** The filter's name, which every one of its keys starts with. */
  public String name() {
    return name;
  }

  /** Whether the {@code build()} that returned this instance created the filter (false: it attached). */
  public boolean created() {
    return created;
  }

  /** W: an add is remembered at least this long. */
  public Duration window() {
    return Duration.ofMillis(shape.windowMillis());
  }

  /** G·s: an add is forgotten (unless added again) this long after it at the latest. */
  public Duration maxRetention() {
    return Duration.ofMillis(shape.spanMillis() * shape.generations());
  }

  /** s: the span of one generation's slot, ⌈W/(G − 1)⌉. */
  public Duration generationSpan() {
    return Duration.ofMillis(shape.spanMillis());
  }

  /** G, the number of generations. */
  public int generationCount() {
    return shape.generations();
  }

  /** The time slot 0 began, on the clock that cuts the slots (the server's unless {@link Builder#clock}). */
  public long originMillis() {
    return originMillis;
  }

  /** The per-window n stored with the filter. */
  @Override
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /** The p stored with the filter. */
  @Override
  public double fpp() {
    return fpp;
  }

  /** k: bits per item, the same offsets in every generation. */
  public int hashFunctions() {
    return shape.hashFunctions();
  }

  /** m: bits per generation. */
  public long bitsPerGeneration() {
    return shape.bitsPerGeneration();
  }

  /** G·m: the bits of all generations. */
  @Override
  public long bitSize() {
    return shape.bitsPerGeneration() * shape.generations();
  }

  // ---------------------------------------------------------------- statistics

  /**
   * Adds that returned true, from every instance, into the generations still remembered. Exact: each
   * is counted by the script that applied it. @throws RedisFilterException if Redis fails
   */
  @Override
  public long count() {
    return calls.stats().count();
  }

  /** Set bits of the remembered generations (BITCOUNT) over all G·m bits. @throws RedisFilterException if Redis fails */
  @Override
  public double fillRatio() {
    return (double) calls.stats().setBits() / bitSize();
  }

  /**
   * 1 − Π (1 − f_g^k) over the remembered generations, f_g the fraction of generation g's bits set: a
   * query asks every one. @throws RedisFilterException if Redis fails
   */
  @Override
  public double estimatedFpp() {
    return calls.stats().unionFpp();
  }

  /**
   * The Swamidass–Baldi estimate of each remembered generation, added up; {@code Long.MAX_VALUE} if one
   * is saturated. @throws RedisFilterException if Redis fails
   */
  @Override
  public long approximateElementCount() {
    return calls.stats().approximateElementCount();
  }

  // ---------------------------------------------------------------- whole-filter operations

  /**
   * Forgets every item, atomically: deletes the remembered generations' keys, keeping the metadata (so
   * instances stay attached). Adds after it are kept.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public void clear() {
    calls.clear();
  }

  /**
   * Always throws: the file format's expiring record (type 6, docs/FORMAT.md) places bits by hash
   * strategy 4, and the Redis filters place them by strategy 1, so no file could answer as this filter does.
   *
   * @throws NullPointerException if {@code out} is null
   * @throws UnsupportedOperationException always
   */
  @Override
  public void writeTo(OutputStream out) {
    Objects.requireNonNull(out, "out");
    throw new UnsupportedOperationException("expiring filter \"" + name + "\" cannot be written to a file: the"
        + " file format's expiring record (type 6) places bits by hash strategy 4, and Redis filters place them by"
        + " strategy 1. Keep it in Redis, or build a core ExpiringBloomFilter and add the items to it");
  }

  @Override
  public String toString() {
    return "RedisExpiringBloomFilter[" + name + ", window=" + window() + ", " + shape.generations()
        + " generations of " + shape.bitsPerGeneration() + " bits, k=" + shape.hashFunctions() + ", slot="
        + shape.spanMillis() + " ms, " + (shape.serverClock() ? "server" : "caller") + " clock]";
  }
}
