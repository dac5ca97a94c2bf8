package org.concurrentbloom.redis;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.internal.BitIndexer;
import org.concurrentbloom.internal.FilterWords;
import org.concurrentbloom.redis.ScriptCalls.Call;
import org.concurrentbloom.redis.ScriptCalls.Replication;
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
 * <p>Any key gets exactly the bit indexes a core {@link BloomFilter} of the same shape gives it, so a
 * filter built locally can be {@linkplain Builder#upload uploaded} and a Redis filter
 * {@linkplain #download() downloaded} and both answer the same. With {@link Builder#partitions} above 1
 * the filter is split into that many independent filters, each in its own hash slot (docs/REDIS.md).
 *
 * <h2>Thread safety and failures</h2>
 * Instances are immutable and every method may be called from any thread, as the client (Jedis or Lettuce) may. Each
 * add, query, clear and per-partition statistic is one atomic script on the server, so adds from any
 * number of clients are never lost. A Redis error or timeout throws {@link RedisFilterException}; no
 * method ever turns a failure into "absent". A script that finds the stored shape different from this
 * client's (or the filter gone) throws {@link RedisFilterMismatchException} and writes nothing.
 *
 * @param <T> the type of item
 */
public final class RedisBloomFilter<T> implements MembershipFilter<T> {
  /*
   * Design (docs/REDIS.md has the long form).
   *
   * Bits: each partition is one Redis string of ceil(m/8) bytes; bit i is Redis offset i, the one SETBIT
   * and GETBIT address (byte i/8, bit 7 - i%8). The client computes the k offsets with the core's
   * BitIndexer (MurmurHash3 x64 128 and enhanced double hashing, Dillinger and Manolios 2004), so Redis
   * only flips and reads bits: the server needs no module and the hashing stays identical to the local
   * filter's. A string holds at most 512 MB, so a partition holds at most 2^32 bits.
   *
   * Atomicity in one round trip: add is a Lua script (EVALSHA of a script loaded once per node) that
   * checks the partition's metadata against the client's shape, sets the k bits, and counts the add if a
   * bit changed. Redis runs a script alone, so two clients' adds cannot interleave and the count is
   * exact (unlike the local filter, concurrent adds of one item count once). A query is the same check
   * plus GETBITs that stop at the first zero. Checking the shape inside every script, rather than only
   * when attaching, is what makes a client with a stale shape harmless: it gets an error, never a write
   * in the wrong place or a false "absent".
   *
   * Batches pipeline one EVALSHA per item: one round trip per node for the whole batch (chunks of
   * BATCH_CHUNK items), and each item still atomic. MULTI/EXEC would add nothing but latency.
   *
   * Partitions (Redis Cluster): one string cannot span masters, and every key of a script must share a
   * slot, so a partitioned filter is N independent filters of m/N bits with hash tags {name:pI}. An
   * item's partition is a mixed function of its hash (FilterKeys.partitionOf), independent of where its
   * bits fall inside the partition, so each partition is an ordinary Bloom filter of ~n/N items and the
   * whole has the false-positive rate of one of them.
   *
   * Clients: Jedis (a required dependency: small, synchronous, one UnifiedJedis type for a server and a
   * cluster) and Lettuce (optional: Spring Boot's default, so many services already hold a connection),
   * both behind RedisClientAdapter, which carries only the commands the scripts need. Same scripts, same
   * keys: instances on either client share one filter. Callers build the client, so every connection
   * setting (URI, TLS, ACL user and password, timeouts, pool size, cluster retries) is theirs.
   *
   * Durability: Redis acknowledges a write before replicating it. With waitForReplicas(r, t) every write
   * is followed, in the same pipeline, by WAIT r t on its partition, so an acknowledged add is on r
   * replicas and survives a failover; if fewer acknowledge in time the add throws.
   */

  /** The version of the Redis layout (key names, metadata fields, bit order); stored and checked. */
  public static final int FORMAT_VERSION = 1;
  /** The most bits one partition may have: a Redis string holds at most 512 MB. */
  public static final long MAX_PARTITION_BITS = 1L << 32;
  /** Batches are sent in pipelines of at most this many items. */
  static final int BATCH_CHUNK = 10_000;

  private final ScriptCalls calls;
  private final RedisClientAdapter redis;
  private final String name;
  private final BitIndexer<T> indexer;
  private final int partitions;
  private final long expectedInsertions;
  private final double fpp;
  private final byte[][] bitsKeys;
  private final byte[][] metaKeys;
  /** ARGV[1..5] of every script: version, strategy, m, k, partitions. */
  private final List<byte[]> shapeArgs;
  private final Replication replication;
  /** Whether the create that returned this instance wrote a partition (false: it attached). */
  private final boolean created;

  private RedisBloomFilter(RedisClientAdapter redis, String name, BitIndexer<T> indexer, int partitions,
      long expectedInsertions, double fpp, Replication replication) {
    this(redis, name, indexer, partitions, expectedInsertions, fpp, replication, null, null, false);
  }

  /** With {@code bitsKey} and {@code metaKey} null, the partitions' keys of docs/REDIS.md, "Keys". */
  private RedisBloomFilter(RedisClientAdapter redis, String name, BitIndexer<T> indexer, int partitions,
      long expectedInsertions, double fpp, Replication replication, byte[] bitsKey, byte[] metaKey,
      boolean created) {
    this.redis = redis;
    this.created = created;
    this.calls = new ScriptCalls(redis);
    this.name = name;
    this.indexer = indexer;
    this.partitions = partitions;
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
    this.replication = replication;
    this.bitsKeys = new byte[partitions][];
    this.metaKeys = new byte[partitions][];
    for (int i = 0; i < partitions; i++) {
      bitsKeys[i] = bitsKey != null ? bitsKey : FilterKeys.bits(name, i);
      metaKeys[i] = metaKey != null ? metaKey : FilterKeys.meta(name, i);
    }
    this.shapeArgs = List.of(ascii(FORMAT_VERSION), ascii(BitIndexer.STRATEGY.id()),
        ascii(indexer.bitSize()), ascii(indexer.hashFunctions()), ascii(partitions));
  }

  // ---------------------------------------------------------------- creating and attaching

  /**
   * A one-partition filter of this shape whose keys are {@code bitsKey} and {@code metaKey}, which must
   * already hold it: a generation of a shared guard (GuardKeys), which its scripts create.
   */
  static <T> RedisBloomFilter<T> atKeys(RedisClientAdapter redis, String name, BitIndexer<T> indexer,
      long expectedInsertions, double fpp, byte[] bitsKey, byte[] metaKey) {
    return new RedisBloomFilter<>(redis, name, indexer, 1, expectedInsertions, fpp, null, bitsKey, metaKey, false);
  }

  /** This filter as a create reported it: the stored n and p, and whether it wrote a partition. */
  private RedisBloomFilter<T> asCreated(long storedN, double storedP, boolean wrote) {
    return new RedisBloomFilter<>(redis, name, indexer, partitions, storedN, storedP, replication, null, null, wrote);
  }

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
  public static final class Builder<T> {
    private final RedisClientAdapter redis;
    private final String name;
    private final Funnel<? super T> funnel;
    private long expectedInsertions;
    private boolean expectedInsertionsSet;
    private double fpp = 0.01;
    private int partitions = 1;
    private Replication replication;

    private Builder(RedisClientAdapter redis, String name, Funnel<? super T> funnel) {
      this.redis = Objects.requireNonNull(redis, "redis");
      FilterKeys.checkName(name);
      this.name = name;
      this.funnel = Objects.requireNonNull(funnel, "funnel");
    }

    /**
     * n, the number of distinct items the whole filter must hold at its target fpp: required for
     * {@link #create()}, which rejects values below 1.
     */
    public Builder<T> expectedInsertions(long expectedInsertions) {
      this.expectedInsertions = expectedInsertions;
      this.expectedInsertionsSet = true;
      return this;
    }

    /** p, the false-positive probability at n items, in (0, 1); {@link #create()} checks it. Defaults to 0.01. */
    public Builder<T> fpp(double fpp) {
      this.fpp = fpp;
      return this;
    }

    /**
     * Splits the filter into {@code partitions} filters of ceil(n / partitions) items each, each in its
     * own Redis Cluster hash slot, so that the filter spreads over the masters and may exceed 2^32 bits.
     * Defaults to 1. A partitioned filter cannot be uploaded, downloaded or written to a stream.
     *
     * @throws IllegalArgumentException unless 1 &le; partitions &le; 65536
     */
    public Builder<T> partitions(int partitions) {
      FilterKeys.checkPartitions(partitions);
      this.partitions = partitions;
      return this;
    }

    /**
     * After every write, waits until at least {@code replicas} replicas of the written partition have
     * acknowledged it (Redis WAIT, in the same pipeline as the write), so that an add that returned
     * survives a failover. If fewer acknowledge within {@code timeout} the write throws
     * {@link RedisFilterException} (it has been applied on the master). Off by default.
     *
     * @throws IllegalArgumentException if {@code replicas < 1} or the timeout is not positive
     */
    public Builder<T> waitForReplicas(int replicas, Duration timeout) {
      if (replicas < 1) {
        throw new IllegalArgumentException("replicas must be >= 1, was " + replicas);
      }
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, was " + timeout);
      }
      this.replication = new Replication(replicas, timeout.toMillis());
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
     * (bits, hash functions, strategy, format version, partition count). {@link RedisBloomFilter#created()}
     * says whether this call wrote a partition; {@link RedisBloomFilter#expectedInsertions()} and
     * {@link RedisBloomFilter#fpp()} are the stored ones, which differ from this builder's when another
     * n and p round to the same shape. One round trip per node (two for a partitioned filter: a dry
     * run checks every partition before any is written).
     *
     * @throws IllegalStateException if {@link #expectedInsertions} was not set
     * @throws IllegalArgumentException if n &lt; 1, p is not in (0, 1) (the message names the value), or
     *     a partition would need more than 2^32 bits
     * @throws RedisFilterMismatchException if a partition exists with another shape, or a key holds
     *     data this library did not write (another application's hash, a string, a list: the message
     *     names the key, and its type if not a hash); nothing was written
     * @throws RedisFilterException if Redis fails
     */
    public RedisBloomFilter<T> createOrAttach() {
      return create(false);
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
      return create(true);
    }

    private RedisBloomFilter<T> create(boolean exclusive) {
      if (!expectedInsertionsSet) {
        throw new IllegalStateException("expectedInsertions(n) must be set before create()");
      }
      BitIndexer.sized(funnel, expectedInsertions, fpp); // the core's checks of n and p, and their messages
      long perPartition = (expectedInsertions + partitions - 1) / partitions;
      BitIndexer<T> indexer = BitIndexer.sized(funnel, perPartition, fpp);
      checkPartitionBits(indexer.bitSize(), "expectedInsertions=" + expectedInsertions + " at fpp=" + fpp
          + " in " + partitions + " partition(s)");
      RedisBloomFilter<T> filter =
          new RedisBloomFilter<>(redis, name, indexer, partitions, expectedInsertions, fpp, replication);
      return filter.createPartitions(exclusive);
    }

    /**
     * Attaches to the existing filter, reading its shape, n and p from Redis (what was set on this
     * builder other than {@link #waitForReplicas} is ignored), and checks that every partition is there
     * with that shape. One round trip, plus one per node.
     *
     * @throws RedisFilterMismatchException if there is no such filter, a partition is missing or differs,
     *     or it was written by a newer format version
     * @throws RedisFilterException if Redis fails
     */
    public RedisBloomFilter<T> attach() {
      Map<String, String> meta;
      byte[] key = FilterKeys.meta(name, 0);
      String keyName = utf8(key);
      try {
        String type = redis.type(key);
        if (type.equals("none")) {
          throw new RedisFilterMismatchException("no filter named \"" + name + "\": " + keyName + " does not exist");
        }
        if (!type.equals("hash")) {
          throw new RedisFilterMismatchException("attach to " + name + " refused: " + keyName + " holds a " + type
              + ", not a filter's metadata hash: it was not made by this library");
        }
        meta = redis.hgetAll(key);
      } catch (RedisCallException e) {
        throw ScriptCalls.translate("attach to " + name, e);
      }
      if (!meta.containsKey("version")) {
        throw new RedisFilterMismatchException("attach to " + name + " refused: " + keyName + " is a hash without"
            + " this library's fields (" + String.join(", ", meta.keySet()) + "): it was not made by this library");
      }
      StoredShape stored = StoredShape.parse(name, meta);
      BitIndexer<T> indexer;
      try {
        indexer = BitIndexer.withShape(funnel, stored.bits(), stored.hashFunctions());
      } catch (IllegalArgumentException e) {
        throw new RedisFilterMismatchException("filter \"" + name + "\" has an invalid shape: " + e.getMessage(), e);
      }
      RedisBloomFilter<T> filter = new RedisBloomFilter<>(redis, name, indexer, stored.partitions(),
          stored.expectedInsertions(), stored.fpp(), replication);
      filter.partitionStats(); // every partition present, with this shape
      return filter;
    }

    /**
     * Stores a copy of {@code local} in Redis as the filter {@code name}, in one command, and returns
     * it. {@code local} must have the standard layout and this builder's funnel, and fit one
     * partition; its adds that finished before this call are included. n and p come from
     * {@code local}, not from this builder.
     *
     * @throws IllegalArgumentException if {@code local} is not of the standard layout, exceeds 2^32
     *     bits, or this builder asks for more than one partition
     * @throws RedisFilterMismatchException if a filter (or any key) named {@code name} already exists;
     *     nothing was written
     * @throws RedisFilterException if Redis fails
     */
    public RedisBloomFilter<T> upload(BloomFilter<T> local) {
      Objects.requireNonNull(local, "local");
      if (local.filterType() != FilterType.STANDARD) {
        throw new IllegalArgumentException("only the standard layout can be kept in Redis; this filter's layout is "
            + local.filterType().shortName());
      }
      if (partitions != 1) {
        throw new IllegalArgumentException("a local filter uploads to one partition, not " + partitions);
      }
      checkPartitionBits(local.bitSize(), "this filter");
      BitIndexer<T> indexer = BitIndexer.withShape(funnel, local.bitSize(), local.hashFunctions());
      RedisBloomFilter<T> filter = new RedisBloomFilter<>(redis, name, indexer, 1, local.expectedInsertions(),
          local.fpp(), replication);
      long count = local.count();
      byte[] bits = RedisBits.toRedis(FilterWords.copyOf(local), local.bitSize());
      filter.uploadBits(count, bits);
      return filter;
    }
  }

  private static void checkPartitionBits(long bits, String what) {
    if (bits > MAX_PARTITION_BITS) {
      throw new IllegalArgumentException(what + " needs " + bits + " bits in a partition, past the " + MAX_PARTITION_BITS
          + " (2^32) a Redis string can hold; use more partitions");
    }
  }

  /**
   * Creates the missing partitions. With several partitions a dry run checks them all first, so that a
   * mismatch in any of them is reported before any is written; each partition's create re-checks
   * atomically, so a racing creator of another shape is still refused.
   */
  private RedisBloomFilter<T> createPartitions(boolean exclusive) {
    if (partitions > 1) {
      calls.runAll(createCalls(false, exclusive), null, "create " + name);
    }
    Object[] replies = calls.runAll(createCalls(true, exclusive), replication, "create " + name);
    boolean wrote = false;
    for (Object reply : replies) {
      wrote |= (Long) ((List<?>) reply).get(0) == 1L;
    }
    List<?> first = (List<?>) replies[0];
    try {
      return asCreated(Long.parseLong(utf8(first.get(1))), Double.parseDouble(utf8(first.get(2))), wrote);
    } catch (RuntimeException e) {
      throw new RedisFilterMismatchException("filter \"" + name + "\" has invalid stored n or fpp ("
          + first + "): " + e.getMessage(), e);
    }
  }

  private List<Call> createCalls(boolean write, boolean exclusive) {
    List<byte[]> args = withShape(ascii(expectedInsertions), ascii(Double.toString(fpp)), ascii(write ? 1 : 0),
        ascii(exclusive ? 1 : 0));
    List<Call> creates = new ArrayList<>(partitions);
    for (int i = 0; i < partitions; i++) {
      creates.add(new Call(Script.CREATE, bitsKeys[i], metaKeys[i], args));
    }
    return creates;
  }

  private void uploadBits(long count, byte[] bits) {
    List<byte[]> args = withShape(ascii(expectedInsertions), ascii(Double.toString(fpp)), ascii(count), bits);
    Call upload = new Call(Script.UPLOAD, bitsKeys[0], metaKeys[0], args);
    if (replication == null) {
      calls.run(upload, "upload " + name);
    } else {
      calls.runAll(List.of(upload), replication, "upload " + name);
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
    Call call = itemCall(Script.ADD, item);
    Object reply = replication == null ? calls.run(call, "add to " + name)
        : calls.runAll(List.of(call), replication, "add to " + name)[0];
    return isOne(reply);
  }

  /**
   * Returns false if {@code item} was definitely never added by any client; true if it might have been.
   * One round trip.
   *
   * @throws RedisFilterException if Redis fails: never answers false for a failure
   */
  @Override
  public boolean mightContain(T item) {
    return isOne(calls.run(itemCall(Script.QUERY, item), "query " + name));
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
    return addCalls(checkedItems(items).stream().map(item -> itemCall(Script.ADD, item)).toList());
  }

  /**
   * Adds every key, as {@code add(Long)} would, in one pipeline as {@link #addAll(Iterable)}.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public int addAll(long[] keys) {
    return addCalls(longCalls(Script.ADD, keys));
  }

  private int addCalls(List<Call> all) {
    int changed = 0;
    for (int start = 0; start < all.size(); start += BATCH_CHUNK) {
      List<Call> chunk = all.subList(start, Math.min(all.size(), start + BATCH_CHUNK));
      changed += countOnes(calls.runAll(chunk, replication, "batch add to " + name));
    }
    return changed;
  }

  /**
   * Answers {@link #mightContain} for every item, in one pipeline (one round trip per node for each
   * {@value #BATCH_CHUNK} items): element i of the result is the answer for item i, in iteration order.
   *
   * @throws NullPointerException if {@code items} or an item is null (the message gives its index)
   * @throws RedisFilterException if Redis fails for any item
   */
  public boolean[] mightContainAll(Iterable<? extends T> items) {
    return queryCalls(checkedItems(items).stream().map(item -> itemCall(Script.QUERY, item)).toList());
  }

  /**
   * Answers {@code mightContain(Long)} for every key: element i of the result is the answer for key i.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean[] mightContainAll(long[] keys) {
    return queryCalls(longCalls(Script.QUERY, keys));
  }

  private boolean[] queryCalls(List<Call> all) {
    boolean[] answers = new boolean[all.size()];
    for (int start = 0; start < all.size(); start += BATCH_CHUNK) {
      int end = Math.min(all.size(), start + BATCH_CHUNK);
      Object[] replies = calls.runAll(all.subList(start, end), null, "batch query " + name);
      for (int i = start; i < end; i++) {
        answers[i] = isOne(replies[i - start]);
      }
    }
    return answers;
  }

  /** The items as a list, every one checked: validated whole before the first chunk is sent. */
  private static <T> List<T> checkedItems(Iterable<? extends T> items) {
    Objects.requireNonNull(items, "items");
    List<T> list = new ArrayList<>();
    for (T item : items) {
      if (item == null) {
        throw new NullPointerException("items[" + list.size() + "] is null; nothing of the batch was sent");
      }
      list.add(item);
    }
    return list;
  }

  @SuppressWarnings("unchecked")
  private List<Call> longCalls(Script script, long[] keys) {
    Objects.requireNonNull(keys, "keys");
    if (indexer.funnel() != Funnels.longFunnel()) {
      throw new IllegalStateException("long[] batches need a filter built with Funnels.longFunnel(), not "
          + indexer.funnel());
    }
    List<Call> all = new ArrayList<>(keys.length);
    for (long key : keys) {
      all.add(itemCall(script, (T) Long.valueOf(key)));
    }
    return all;
  }

  /** The script call for one item: its partition's keys, the shape, and its k bit offsets. */
  private Call itemCall(Script script, T item) {
    int k = indexer.hashFunctions();
    long[] scratch = new long[Math.max(2, k)];
    indexer.hash(item, scratch);
    int partition = FilterKeys.partitionOf(scratch[0], scratch[1], partitions);
    indexer.indexes(scratch[0], scratch[1], scratch);
    List<byte[]> args = new ArrayList<>(shapeArgs.size() + k);
    args.addAll(shapeArgs);
    for (int i = 0; i < k; i++) {
      args.add(ascii(scratch[i]));
    }
    return new Call(script, bitsKeys[partition], metaKeys[partition], args);
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
    List<Call> clears = new ArrayList<>(partitions);
    for (int i = 0; i < partitions; i++) {
      clears.add(new Call(Script.CLEAR, bitsKeys[i], metaKeys[i], shapeArgs));
    }
    calls.runAll(clears, replication, "clear " + name);
  }

  /**
   * Deletes the filter's keys from Redis. Operations on any client attached to it then throw
   * {@link RedisFilterMismatchException} until it is created again.
   *
   * @throws RedisFilterException if Redis fails
   */
  public void delete() {
    try {
      for (int i = 0; i < partitions; i++) {
        redis.del(bitsKeys[i], metaKeys[i]);
      }
    } catch (RedisCallException e) {
      throw ScriptCalls.translate("delete " + name, e);
    }
  }

  /**
   * A local copy of the filter, read at one instant in one command: a standard {@link BloomFilter}
   * with the same shape, bits, n, p and count, which answers every query as this filter did.
   *
   * @throws IllegalStateException if the filter has more than one partition
   * @throws RedisFilterException if Redis fails or the stored bits are corrupt
   */
  public BloomFilter<T> download() {
    if (partitions != 1) {
      throw new IllegalStateException("a filter of " + partitions
          + " partitions has no single bit array to download; only single-partition filters can");
    }
    Object reply = calls.run(new Call(Script.SNAPSHOT, bitsKeys[0], metaKeys[0], shapeArgs), "download " + name);
    List<?> fields = (List<?>) reply;
    try {
      long count = Long.parseLong(utf8(fields.get(2)));
      long[] words = RedisBits.toWords((byte[]) fields.get(3), indexer.bitSize());
      return FilterWords.standardFilter(indexer.funnel(), indexer.bitSize(), indexer.hashFunctions(),
          expectedInsertions, fpp, count, words);
    } catch (IllegalArgumentException e) {
      throw new RedisFilterException("download " + name + " failed: the stored filter is corrupt: "
          + e.getMessage(), e);
    }
  }

  /**
   * Writes the filter in the core's file format (docs/FORMAT.md), readable by
   * {@link BloomFilter#readFrom}: a {@link #download()} written out.
   *
   * @throws UnsupportedOperationException if the filter has more than one partition
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    if (partitions != 1) {
      throw new UnsupportedOperationException("a filter of " + partitions
          + " partitions has no single-array file form; only single-partition filters can be written");
    }
    download().writeTo(out);
  }

  // ---------------------------------------------------------------- statistics

  /** {set bits, count} of every partition, read in one pipeline; checks every partition's shape. */
  private long[][] partitionStats() {
    List<Call> stats = new ArrayList<>(partitions);
    for (int i = 0; i < partitions; i++) {
      stats.add(new Call(Script.STATS, bitsKeys[i], metaKeys[i], shapeArgs));
    }
    Object[] replies = calls.runAll(stats, null, "statistics of " + name);
    long[][] result = new long[partitions][];
    for (int i = 0; i < partitions; i++) {
      List<?> pair = (List<?>) replies[i];
      result[i] = new long[] {(Long) pair.get(0), (Long) pair.get(1)};
    }
    return result;
  }

  /**
   * The number of adds, from every client, that changed a bit, since creation or the last clear (plus
   * an uploaded filter's count). Exact: each add is counted by the script that applied it.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public long count() {
    long sum = 0;
    for (long[] p : partitionStats()) {
      sum += p[1];
    }
    return sum;
  }

  /** The fraction of bits set (BITCOUNT on the server). @throws RedisFilterException if Redis fails */
  @Override
  public double fillRatio() {
    long set = 0;
    for (long[] p : partitionStats()) {
      set += p[0];
    }
    return (double) set / bitSize();
  }

  /**
   * The false-positive rate read off the bits set, as the local filter's: (X/m)^k for a partition
   * with X of its m bits set, the mean over partitions for several (a query lands in each equally
   * often). It holds after merges, uploads and past capacity, where {@link #count()} falls behind.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public double estimatedFpp() {
    double sum = 0;
    for (long[] p : partitionStats()) {
      sum += Math.pow((double) p[0] / indexer.bitSize(), indexer.hashFunctions());
    }
    return sum / partitions;
  }

  /**
   * Distinct items estimated from the set bits of each partition (Swamidass and Baldi 2007), summed;
   * {@code Long.MAX_VALUE} when a partition is saturated.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public long approximateElementCount() {
    long sum = 0;
    for (long[] p : partitionStats()) {
      long estimate = indexer.estimateElements(p[0]);
      if (estimate == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      sum += estimate;
    }
    return sum;
  }

  /** m, the total number of bits over all partitions. */
  @Override
  public long bitSize() {
    return indexer.bitSize() * partitions;
  }

  /** k, the number of bits per item. */
  public int hashFunctions() {
    return indexer.hashFunctions();
  }

  /** The number of partitions (1 unless {@link Builder#partitions} set more). */
  public int partitions() {
    return partitions;
  }

  /** The filter's name; its keys are {@code name:{name:pI}:bits} and {@code name:{name:pI}:meta}. */
  public String name() {
    return name;
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
    return "RedisBloomFilter[name=" + name + ", partitions=" + partitions + ", bitsPerPartition="
        + indexer.bitSize() + ", hashFunctions=" + indexer.hashFunctions() + ", expectedInsertions="
        + expectedInsertions + ", fpp=" + fpp + ", funnel=" + indexer.funnel() + "]";
  }

  // ---------------------------------------------------------------- encoding

  private List<byte[]> withShape(byte[]... more) {
    List<byte[]> args = new ArrayList<>(shapeArgs.size() + more.length);
    args.addAll(shapeArgs);
    Collections.addAll(args, more);
    return args;
  }

  /** A script argument: the decimal digits of {@code v}. */
  static byte[] ascii(long v) {
    return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** A bulk reply as text. */
  static String utf8(Object bulk) {
    return new String((byte[]) bulk, StandardCharsets.UTF_8);
  }

  private static boolean isOne(Object reply) {
    return ((Long) reply) == 1L;
  }

  private static int countOnes(Object[] replies) {
    int n = 0;
    for (Object r : replies) {
      if (isOne(r)) {
        n++;
      }
    }
    return n;
  }
}
