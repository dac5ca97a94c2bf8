package org.concurrentbloom.redis;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import redis.clients.jedis.UnifiedJedis;

/**
 * A Bloom filter kept in Redis, so that every application instance that attaches to it sees every
 * other's inserts. It works on plain Redis 7 (strings and Lua, no module) and on Redis Cluster.
 *
 * <pre>{@code
 * UnifiedJedis redis = RedisClient.builder().hostAndPort(host, port).clientConfig(config).build(); // your settings
 * RedisBloomFilter<CharSequence> seen = RedisBloomFilter.create(redis, "app:emails",
 *     Funnels.stringFunnel(), 10_000_000, 0.01);              // or attach() an existing one
 * seen.add("alice@example.com");                            // one round trip, atomic
 * boolean maybe = seen.mightContain("bob@example.com");     // one round trip
 * }</pre>
 *
 * <p>Any key gets exactly the bit indexes a core {@link BloomFilter} of the same shape and hash strategy
 * gives it (strategy 4, XXH3, for new filters, as {@code BloomFilter.create}; strategy 1 for filters
 * made before), so a filter built locally can be {@linkplain Builder#upload uploaded} and a Redis filter
 * {@linkplain #download() downloaded} and both answer the same. With {@link Builder#partitions} above 1
 * the filter is split into that many independent filters, each in its own hash slot (docs/REDIS.md).
 *
 * <p>{@link #writeTo} throws {@link UnsupportedOperationException} if this filter has no form in the
 * file format: a {@code RedisBloomFilter} of more than one partition (see its {@code partitions()}).
 * Such a filter cannot be {@linkplain #download() downloaded} either; one that must be written out is
 * created with one partition (the default), which holds up to 2^32 bits.
 *
 * <h2>Thread safety and failures</h2>
 * Instances are immutable and every method may be called from any thread, as the client (Jedis or Lettuce) may. Each
 * add, query, clear and per-partition statistic is one atomic script on the server, so adds from any
 * number of clients are never lost. A Redis error or timeout throws {@link RedisFilterException}; no
 * method ever turns a failure into "absent". A script that finds the stored shape different from this
 * client's throws {@link RedisFilterMismatchException} and writes nothing; one that finds the filter
 * this instance opened gone, partly gone, or replaced by another of the same name (a filter has an id,
 * stored when it is created and checked by every script) throws {@link RedisFilterLostException}, on
 * every call, until the filter is rebuilt: items added before may be missing, so no answer is given.
 *
 * @param <T> the type of item
 */
public final class RedisBloomFilter<T> extends RedisFilterFigures<T> {
  /*
   * Design (docs/REDIS.md has the long form). PartitionCalls has the bits, the scripts' atomicity, the
   * batches and the partitions; ScriptCalls the pipelines, NOSCRIPT and the WAIT for replicas;
   * RedisClientAdapter the two clients; FilterOpener creating and attaching; LocalCopy uploads and
   * downloads. This class is the public face: the builder, the MembershipFilter methods, the batches.
   */

  /** The version of the Redis layout (key names, metadata fields, bit order); stored and checked. */
  public static final int FORMAT_VERSION = 1;
  /** The most bits one partition may have: a Redis string holds at most 512 MB. */
  public static final long MAX_PARTITION_BITS = 1L << 32;
  /** Batches are sent in pipelines of at most this many items. */
  static final int BATCH_CHUNK = 10_000;

  private final PartitionCalls<T> target;
  private final long expectedInsertions;
  private final double fpp;
  /** Whether the create that returned this instance wrote a partition (false: it attached). */
  private final boolean created;

  /** The filter whose calls {@code target} makes, with its stored n and p. */
  RedisBloomFilter(PartitionCalls<T> target, long expectedInsertions, double fpp, boolean created) {
    this.target = target;
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
    this.created = created;
  }

  // ---------------------------------------------------------------- creating and attaching

  /**
   * Creates the filter {@code name} sized for {@code expectedInsertions} items at {@code fpp}, or
   * attaches to it if it already exists with the same shape. Same as {@code builder(redis, name,
   * funnel).expectedInsertions(n).fpp(p).createOrAttach()}.
   */
  public static <T> RedisBloomFilter<T> create(UnifiedJedis redis, String name, Funnel<? super T> funnel,
      long expectedInsertions, double fpp) {
    return create(RedisClientAdapter.jedis(redis), name, funnel, expectedInsertions, fpp);
  }

  /** {@link #create(UnifiedJedis, String, Funnel, long, double)} through any client adapter. */
  public static <T> RedisBloomFilter<T> create(RedisClientAdapter redis, String name, Funnel<? super T> funnel,
      long expectedInsertions, double fpp) {
    return RedisBloomFilter.<T>builder(redis, name, funnel).expectedInsertions(expectedInsertions).fpp(fpp)
        .createOrAttach();
  }

  /** Attaches to the existing filter {@code name}, reading its shape from Redis. See {@link Builder#attach()}. */
  public static <T> RedisBloomFilter<T> attach(UnifiedJedis redis, String name, Funnel<? super T> funnel) {
    return attach(RedisClientAdapter.jedis(redis), name, funnel);
  }

  /** {@link #attach(UnifiedJedis, String, Funnel)} through any client adapter. */
  public static <T> RedisBloomFilter<T> attach(RedisClientAdapter redis, String name, Funnel<? super T> funnel) {
    return RedisBloomFilter.<T>builder(redis, name, funnel).attach();
  }

  /**
   * Starts describing a filter. {@code redis} is the caller's client (a {@code RedisClient} for one
   * server, a {@code RedisClusterClient} for a cluster), built with the caller's connection settings;
   * the filter uses it and never closes it.
   *
   * @throws IllegalArgumentException if the name is empty or contains '{' or '}'
   */
  public static <T> Builder<T> builder(UnifiedJedis redis, String name, Funnel<? super T> funnel) {
    return new Builder<>(RedisClientAdapter.jedis(redis), name, funnel);
  }

  /**
   * Starts describing a filter over any client: {@link RedisClientAdapter#jedis} or
   * {@link LettuceAdapters#of}.
   *
   * @throws IllegalArgumentException if the name is empty or contains '{' or '}'
   */
  public static <T> Builder<T> builder(RedisClientAdapter redis, String name, Funnel<? super T> funnel) {
    return new Builder<>(redis, name, funnel);
  }

  /** Describes a Redis filter before it is created or attached. Not thread-safe; the filters are. */
  public static final class Builder<T> extends RedisFilterSettings<T> {
    private Builder(RedisClientAdapter redis, String name, Funnel<? super T> funnel) {
      super(redis, name, funnel);
    }

    @Override
    Builder<T> self() {
      return this;
    }

    /**
     * Same as {@link #createOrAttach()}: creates the filter, or attaches to it if every partition
     * already exists with the same shape. {@link RedisBloomFilter#created()} tells which.
     *
     * @throws IllegalStateException if {@link #expectedInsertions} was not set
     * @throws IllegalArgumentException if n &lt; 1, p is not in (0, 1) (the message names the value), or
     *     a partition would need more than 2^32 bits
     * @throws RedisFilterMismatchException if a partition exists with another shape, or a key holds
     *     data this library did not write (the message names the key, and its type if not a hash);
     *     nothing was written to it
     * @throws RedisFilterException if Redis fails
     */
    public RedisBloomFilter<T> create() {
      return createOrAttach();
    }

    /**
     * Creates the filter, or attaches to it if every partition already exists with the same shape
     * (bits, hash functions, format version, partition count, and the strategy if {@link #hashStrategy}
     * set one). {@link RedisBloomFilter#created()} says whether this call wrote a partition;
     * {@link RedisBloomFilter#expectedInsertions()} and {@link RedisBloomFilter#fpp()} are the stored
     * ones, which differ from this builder's when another n and p round to the same shape. One round
     * trip (a few for a partitioned filter: every partition is probed before any is written).
     *
     * <p>A partitioned filter is created by one instance at a time: the first to write partition 0
     * writes the others; instances that call meanwhile wait for it (polling) and attach. A partition
     * that is missing from a filter that was completed is lost, never created again empty.
     *
     * @throws IllegalStateException if {@link #expectedInsertions} was not set
     * @throws IllegalArgumentException if n &lt; 1, p is not in (0, 1) (the message names the value), or
     *     a partition would need more than 2^32 bits
     * @throws RedisFilterMismatchException if a partition exists with another shape (or, with
     *     {@link #hashStrategy}, another strategy), or a key holds data this library did not write
     *     (another application's hash, a string, a list: the message names the key, and its type if not
     *     a hash); nothing was written
     * @throws RedisFilterLostException if the filter exists but lacks a partition, or a partition holds
     *     another filter's id (the message names it): nothing is filled in; delete the filter
     *     ({@link #delete()}) and build it again from the source of truth
     * @throws RedisFilterException if Redis fails
     */
    public RedisBloomFilter<T> createOrAttach() {
      return FilterOpener.create(this, false);
    }

    /**
     * Creates the filter and fails if any partition of it already exists (Redisson's {@code tryInit}
     * without the boolean): for a caller that must own a fresh filter. A partitioned filter's dry run
     * checks every partition first, so an existing one is reported before any is written.
     *
     * @throws RedisFilterExistsException if the filter (or a partition of it) already exists; nothing
     *     was written
     * @throws RedisFilterMismatchException if a key holds data this library did not write
     * @throws IllegalStateException (or IllegalArgumentException, RedisFilterException) as {@link #createOrAttach()}
     */
    public RedisBloomFilter<T> createNew() {
      return FilterOpener.create(this, true);
    }

    /**
     * Attaches to the existing filter, reading its shape, strategy, n and p from Redis (what was set on
     * this builder other than {@link #waitForReplicas} is ignored), and checks that every partition is
     * there with that shape and the filter's id. A filter made before ids gets one now. A few round trips.
     *
     * @throws RedisFilterMismatchException if there is no such filter, a partition differs, or it was
     *     written by a newer format version
     * @throws RedisFilterLostException if a partition is missing or holds another filter's id
     * @throws RedisFilterException if Redis fails
     */
    public RedisBloomFilter<T> attach() {
      return FilterOpener.attach(this);
    }

    /**
     * Deletes every key of the filter this builder names, whole or not: partitions 0 to P-1, where P is
     * the larger of {@link #partitions} (1 unless set) and the count partition 0 records. The recovery
     * for a filter reported lost, which attach refuses: delete it, then build it again from the source
     * of truth. Instances still attached to it throw {@link RedisFilterLostException} from then on.
     * Returns the number of keys deleted.
     *
     * @throws RedisFilterException if Redis fails (some partitions may be deleted: call it again)
     */
    public long delete() {
      return FilterOpener.delete(this);
    }

    /**
     * Stores a copy of {@code local} in Redis as the filter {@code name}, in one command, and returns
     * it. {@code local} must have the standard layout (either strategy: a {@code BloomFilter.create}
     * with the defaults is one) and this builder's funnel, and fit one partition; its adds that finished
     * before this call are included. n, p and the strategy come from {@code local}, not from this builder.
     *
     * @throws IllegalArgumentException if {@code local} is not of the standard layout, exceeds 2^32
     *     bits, has another strategy than {@link #hashStrategy} set, or this builder asks for more than
     *     one partition
     * @throws RedisFilterMismatchException if a filter (or any key) named {@code name} already exists;
     *     nothing was written
     * @throws RedisFilterException if Redis fails
     */
    public RedisBloomFilter<T> upload(BloomFilter<T> local) {
      Objects.requireNonNull(local, "local");
      return FilterOpener.upload(this, local);
    }
  }

  // ---------------------------------------------------------------- add and query

  /**
   * Adds {@code item}: sets its k bits atomically in one round trip. Returns true iff a bit changed,
   * that is, iff no client had added the item before (up to false positives). If the call throws, the
   * add may or may not have been applied; adding again is harmless.
   *
   * @throws RedisFilterException if Redis fails or, with {@link Builder#waitForReplicas}, too few
   *     replicas acknowledged in time
   */
  @Override
  public boolean add(T item) {
    return RedisCodec.isOne(target.write(target.item(Script.ADD, item), "add to"));
  }

  /**
   * Returns false if {@code item} was definitely never added by any client; true if it might have been.
   * One round trip.
   *
   * @throws RedisFilterException if Redis fails: never answers false for a failure
   */
  @Override
  public boolean mightContain(T item) {
    return RedisCodec.isOne(target.read(target.item(Script.QUERY, item), "query"));
  }

  /**
   * Adds every item, in one pipeline (one round trip per node for each {@value #BATCH_CHUNK} items);
   * each add is atomic on its own. Returns how many adds changed a bit. The whole batch is checked
   * before anything is sent: a null item throws and nothing of the batch is written.
   *
   * @throws NullPointerException if {@code items} or an item is null (the message gives its index)
   * @throws RedisFilterException if Redis fails; earlier chunks of the batch may have been added
   */
  public int addAll(Iterable<? extends T> items) {
    return target.addAll(target.items(Script.ADD, ItemBatches.checked(items)));
  }

  /**
   * Adds every key, as {@code add(Long)} would, in one pipeline as {@link #addAll(Iterable)}.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public int addAll(long[] keys) {
    return target.addAll(target.items(Script.ADD, longKeys(keys)));
  }

  /**
   * Answers {@link #mightContain} for every item, in one pipeline (one round trip per node for each
   * {@value #BATCH_CHUNK} items): element i of the result is the answer for item i, in iteration order.
   *
   * @throws NullPointerException if {@code items} or an item is null (the message gives its index)
   * @throws RedisFilterException if Redis fails for any item
   */
  public boolean[] mightContainAll(Iterable<? extends T> items) {
    return target.queryAll(target.items(Script.QUERY, ItemBatches.checked(items)));
  }

  /**
   * Answers {@code mightContain(Long)} for every key: element i of the result is the answer for key i.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean[] mightContainAll(long[] keys) {
    return target.queryAll(target.items(Script.QUERY, longKeys(keys)));
  }

  private List<T> longKeys(long[] keys) {
    return ItemBatches.longKeys(target.indexer().funnel(), keys);
  }

  // ---------------------------------------------------------------- whole-filter operations

  /**
   * Empties the filter: each partition at one instant (so a single-partition filter is cleared
   * atomically; the partitions of a partitioned one one after another). Adds after it are kept.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public void clear() {
    target.clear();
  }

  /**
   * Deletes the filter's keys from Redis, partition 0 first. Operations on any client attached to it
   * then throw {@link RedisFilterLostException}, also after a filter of the same name is created
   * again (it has another id).
   *
   * @throws RedisFilterException if Redis fails (some partitions may be left: delete again, or use
   *     {@link Builder#delete()})
   */
  public void delete() {
    target.delete();
  }

  /**
   * A local copy of the filter, read at one instant in one command: a standard {@link BloomFilter}
   * with the same shape, bits, n, p and count, which answers every query as this filter did.
   *
   * @throws IllegalStateException if the filter has more than one partition
   * @throws RedisFilterException if Redis fails or the stored bits are corrupt
   */
  public BloomFilter<T> download() {
    if (partitions() != 1) {
      throw new IllegalStateException("a filter of " + partitions()
          + " partitions has no single bit array to download; only single-partition filters can");
    }
    return LocalCopy.download(target, expectedInsertions, fpp);
  }

  /**
   * Writes the filter in the core's file format (docs/FORMAT.md), readable by
   * {@link BloomFilter#readFrom}: a {@link #download()} written out.
   *
   * @throws UnsupportedOperationException if this filter has no form in the file format: a
   *     {@code RedisBloomFilter} of more than one partition (see its {@code partitions()})
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    if (partitions() != 1) {
      throw new UnsupportedOperationException("filter \"" + name() + "\" has " + partitions() + " partitions, and"
          + " the file format holds one bit array: only a filter of one partition can be written (or downloaded)."
          + " To get the items out in that form, create a filter with partitions(1), the default (up to 2^32 bits),"
          + " and add them to it");
    }
    download().writeTo(out);
  }

  // ---------------------------------------------------------------- statistics (RedisFilterFigures)

  @Override
  PartitionStats figures() {
    return target.stats();
  }

  @Override
  boolean queryAsksEveryPart() {
    return false;
  }

  /** m, the total number of bits over all partitions. */
  @Override
  public long bitSize() {
    return target.indexer().bitSize() * partitions();
  }

  /** k, the number of bits per item. */
  public int hashFunctions() {
    return target.indexer().hashFunctions();
  }

  /** The hash strategy stored with the filter: 4 (XXH3) for new filters, 1 (MurmurHash3) for older ones. */
  public HashStrategy hashStrategy() {
    return target.indexer().strategy();
  }

  /** The filter's id, random at creation: what every call checks the stored filter by. */
  public String id() {
    return target.id();
  }

  /** The number of partitions (1 unless {@link Builder#partitions} set more). */
  public int partitions() {
    return target.partitions();
  }

  /** The filter's name; its keys are {@code name:{name:pI}:bits} and {@code name:{name:pI}:meta}. */
  public String name() {
    return target.name();
  }

  /**
   * True if the create that returned this instance wrote a partition (the filter, or part of it, was
   * new); false if it attached to partitions that were all there, and for {@code attach} and
   * {@code upload} (an upload always writes, or throws).
   */
  public boolean created() {
    return created;
  }

  /** n as stored in Redis (for a filter created here, the builder's; for one attached to, the creator's). */
  @Override
  public long expectedInsertions() {
    return expectedInsertions;
  }

  @Override
  public double fpp() {
    return fpp;
  }

  @Override
  public String toString() {
    return "RedisBloomFilter[name=" + name() + ", partitions=" + partitions() + ", bitsPerPartition="
        + target.indexer().bitSize() + ", hashFunctions=" + hashFunctions() + ", strategy=" + hashStrategy().id()
        + ", id=" + id() + ", expectedInsertions="
        + expectedInsertions + ", fpp=" + fpp + ", funnel=" + target.indexer().funnel() + "]";
  }
}
