package org.concurrentbloom.redis;

import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.HashStrategy;
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
 * generation is its own Redis key; the metadata lists the generations written, and the add that starts a
 * slot deletes the generation it replaces, which is out of the window by then. All keys of one filter
 * share one hash tag, so one Cluster slot (docs/REDIS.md, "Expiring filters on Redis").
 *
 * <h2>Clock</h2>
 * The slots are cut by the <b>server's</b> clock ({@code TIME} inside each script), never the caller's:
 * instances on hosts whose clocks disagree, or an add that stalls between the caller and the server,
 * still agree on the current generation. The current slot never goes below the highest slot an add has
 * used, so a server clock that steps back (or a failover to a master whose clock is behind) hides no
 * generation that was written. A server clock that steps forward forgets early, as if that time had
 * passed: keep the masters' clocks synchronized (docs/REDIS.md, "What can go wrong in Redis").
 *
 * <h2>Losses, failures and thread safety</h2>
 * Instances are immutable and every method may be called from any thread, as the client may. Each add,
 * query, statistic and clear is one atomic script on the server: adds from any number of clients are
 * never lost. Generation keys carry no expiry, so a {@code volatile-*} {@code maxmemory} policy never
 * evicts them. If a key of the filter is gone all the same (an {@code allkeys-*} policy, a
 * {@code DEL}, a restart without persistence) or the filter was built again under the same name (it has
 * a new id and origin, which every script checks), every call throws {@link RedisFilterLostException}
 * instead of answering: build the filter again (docs/REDIS.md). A Redis error or timeout throws
 * {@link RedisFilterException}, never "absent"; a stored shape other than this client's, or a key or
 * field holding data this library did not write, throws {@link RedisFilterMismatchException}, having
 * written nothing. With {@link Builder#waitForReplicas}, an add that returns is on that many replicas.
 *
 * <p>{@link #writeTo} throws {@link UnsupportedOperationException}: the file format's expiring record
 * (type 6) keeps its generations interleaved on its own clock, not as Redis keeps them.
 *
 * @param <T> the type of item
 */
public final class RedisExpiringBloomFilter<T> extends RedisFilterFigures<T> {
  /** The most bits one generation may have: a Redis string holds at most 512 MB. */
  public static final long MAX_GENERATION_BITS = RedisBloomFilter.MAX_PARTITION_BITS;

  private final String name;
  private final ExpiringCalls<T> calls;
  private final ExpiringShape shape;
  private final long expectedInsertions;
  private final double fpp;
  private final long originMillis;
  private final String id;
  private final boolean created;

  private RedisExpiringBloomFilter(String name, ExpiringCalls<T> calls, ExpiringShape shape, long expectedInsertions,
      double fpp, long originMillis, String id, boolean created) {
    this.name = name;
    this.calls = calls;
    this.shape = shape;
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
    this.originMillis = originMillis;
    this.id = id;
    this.created = created;
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
    private ScriptCalls.Replication replication;
    /** Null: the server's clock. Else a test filter's manual clock, starting here (see manualClockForTest). */
    private Long manualStart;

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
     * After every add (and clear), waits until at least {@code replicas} replicas of the filter's master
     * have acknowledged it (Redis WAIT, in the same pipeline as the script), so that an add that
     * returned survives a failover. If fewer acknowledge within {@code timeout} the add throws
     * {@link RedisFilterException} (it has been applied on the master). An add is retried through a
     * failover within the client's own retry budget. Off by default.
     *
     * @throws IllegalArgumentException if {@code replicas < 1} or the timeout is not positive
     */
    public Builder<T> waitForReplicas(int replicas, Duration timeout) {
      this.replication = ScriptCalls.Replication.of(replicas, timeout);
      return this;
    }

    /**
     * Test hook: a filter whose clock is the metadata field {@code now}, starting at {@code startMillis},
     * which the test moves (HSET); every instance reads the same field, as they would the server's clock.
     * Such a filter is of another shape than a server-clock one: instances of the two kinds refuse each other.
     */
    Builder<T> manualClockForTest(long startMillis) {
      this.manualStart = startMillis;
      return this;
    }

    /**
     * Deletes the filter this builder names, whatever its shape or id: its metadata and every
     * generation the metadata lists. The recovery for a filter reported lost that cannot be opened;
     * generations left by a filter whose metadata was lost are not listed anywhere, and are replaced or
     * ignored by the next filter of the name (docs/REDIS.md). Returns the number of keys deleted.
     *
     * @throws RedisFilterMismatchException if the metadata key holds data this library did not write
     * @throws RedisFilterException if Redis fails
     */
    public long delete() {
      return ExpiringCalls.deleteAny(redis, name);
    }

    /**
     * Creates the filter's metadata in Redis, with its first slot beginning now on the server's clock
     * and hash strategy 4, or attaches to the filter if it exists with the same shape (m, k, G, s, W,
     * layout version; either strategy, 4 or the older filters' 1). {@link RedisExpiringBloomFilter#created()}
     * tells which; n and p are then the stored ones. A filter of the older layout (version 1: generation
     * keys with expiries) is upgraded in place, keeping its bits. One round trip, and one more to read
     * the node's eviction policy (a warning is logged for an {@code allkeys-*} one).
     *
     * @throws IllegalStateException if {@code window} or {@code expectedInsertionsPerWindow} was not set
     *     (the message names it)
     * @throws IllegalArgumentException if a generation would need more than 2^32 bits
     * @throws RedisFilterMismatchException if the filter exists with another shape, or the metadata key
     *     holds data this library did not write (the message names the key, and the field); nothing was
     *     written
     * @throws RedisFilterLostException if the filter exists but a generation of its window that the
     *     metadata lists is gone: nothing is filled in; delete it ({@link #delete()}) and build it again
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
      ExpiringShape proposed = new ExpiringShape(BitIndexer.DEFAULT_STRATEGY, m, k, generations,
          plan.generationSpan().toMillis(), windowMillis, manualStart == null);
      List<?> opened = ExpiringCalls.open(redis, name, proposed, FilterOpener.newId(), expectedInsertions, fpp,
          manualStart, replication);
      String filter = "expiring filter \"" + name + "\"";
      ExpiringShape shape = proposed.withStrategy(StoredShape.strategy(filter, RedisCodec.text(opened.get(5))));
      long origin = StoredShape.parse(filter, "origin", RedisCodec.text(opened.get(3)));
      String id = RedisCodec.text(opened.get(4));
      ExpiringCalls<T> calls = new ExpiringCalls<>(redis, name, shape,
          BitIndexer.withShape(funnel, shape.strategy(), m, k), id, origin, replication);
      EvictionPolicy.check(redis, RedisCodec.utf8(ExpiringKeys.meta(name)), filter);
      return new RedisExpiringBloomFilter<>(name, calls, shape,
          StoredShape.expectedInsertions(filter, RedisCodec.text(opened.get(1))),
          StoredShape.fpp(filter, RedisCodec.text(opened.get(2))), origin, id, RedisCodec.isOne(opened.get(0)));
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

  /** The time slot 0 began, on the server's clock: with the id, what tells this filter from one built again. */
  public long originMillis() {
    return originMillis;
  }

  /** The filter's id, random at creation: what every call checks the stored filter by. */
  public String id() {
    return id;
  }

  /** The hash strategy stored with the filter: 4 (XXH3) for new filters, 1 (MurmurHash3) for older ones. */
  public HashStrategy hashStrategy() {
    return shape.strategy();
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

  // ---------------------------------------------------------------- statistics (RedisFilterFigures)

  @Override
  PartitionStats figures() {
    return calls.stats();
  }

  @Override
  boolean queryAsksEveryPart() {
    return true;
  }

  // ---------------------------------------------------------------- whole-filter operations

  /**
   * Forgets every item, atomically: deletes every generation's key, keeping the metadata (so instances
   * stay attached). Adds after it are kept. It also makes whole (and empty) a filter that lost a
   * generation, for the instances attached to it.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public void clear() {
    calls.clear();
  }

  /**
   * Deletes the filter's keys: every generation, then the metadata. Every instance attached to it
   * then throws {@link RedisFilterLostException}, also after it is built again (with a new id).
   *
   * @throws RedisFilterLostException if the stored filter is no longer the one this instance opened
   *     (nothing deleted: use {@link Builder#delete()})
   * @throws RedisFilterException if Redis fails
   */
  public void delete() {
    calls.delete();
  }

  /**
   * Always throws: the file format's expiring record (type 6, docs/FORMAT.md) keeps G generations
   * interleaved in one bit array, counted from its own origin on the writer's clock, while this filter's
   * generations are Redis keys cut by the server's clock; no file could answer as this filter does.
   *
   * @throws NullPointerException if {@code out} is null
   * @throws UnsupportedOperationException always
   */
  @Override
  public void writeTo(OutputStream out) {
    Objects.requireNonNull(out, "out");
    throw new UnsupportedOperationException("expiring filter \"" + name + "\" cannot be written to a file: the"
        + " file format's expiring record (type 6) interleaves its generations on the writer's clock, and this"
        + " filter's generations are Redis keys on the server's clock. Keep it in Redis, or build a core"
        + " ExpiringBloomFilter and add the items to it");
  }

  @Override
  public String toString() {
    return "RedisExpiringBloomFilter[" + name + ", window=" + window() + ", " + shape.generations()
        + " generations of " + shape.bitsPerGeneration() + " bits, k=" + shape.hashFunctions() + ", slot="
        + shape.spanMillis() + " ms, strategy " + shape.strategy().id() + ", id " + id
        + (shape.serverClock() ? "" : ", manual clock") + "]";
  }
}
