package org.concurrentbloom.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.internal.BitIndexer;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A Bloom filter kept by the server's own Bloom commands (BF.RESERVE, BF.ADD, BF.MADD, BF.EXISTS,
 * BF.MEXISTS, BF.CARD, BF.INFO), which Redis 8 has built in and Redis Stack or the RedisBloom module
 * add to older servers. Use {@link #isSupported} to find out; plain Redis 7 has none, and there
 * {@link RedisBloomFilter} (strings and Lua) is the way.
 *
 * <p>Shared with every client. Each item is sent as the bytes its funnel writes (a string funnel: the
 * string's UTF-8), and the server hashes them, so an item added here answers {@code BF.EXISTS key item}
 * from redis-cli or any other client and language, and the other way round. The server sizes and
 * grows the filter itself (by default stacking sub-filters, each {@link Builder#expansion} times
 * larger, when n is passed); {@link Builder#nonScaling} keeps it at one filter, which then refuses
 * adds past its capacity. Its bits mean nothing to the core library: this filter cannot be uploaded,
 * downloaded or written in the core format, which is why it is not a {@code MembershipFilter}.
 *
 * <p>Attaching to an existing key checks it is a filter of the same shape: a key this library reserved
 * carries a companion hash {@code KEY:bloom-params} with the capacity, error rate, expansion and
 * scaling it was made with, and every one must match; a filter another client reserved is checked
 * against BF.INFO (capacity and expansion; the error rate is not reported by the server, so it cannot
 * be). A mismatch throws {@link RedisFilterMismatchException}.
 *
 * <p>Immutable; any thread may call any method, as the Jedis client may. Failures throw
 * {@link RedisFilterException}, never a "definitely absent". Each BF command is atomic on the server; a
 * batch is one command (BF.MADD / BF.MEXISTS), so one round trip.
 *
 * @param <T> the type of item
 */
public final class RedisNativeBloomFilter<T> {
  private static final String PARAMS_SUFFIX = ":bloom-params";
  /** RedisBloom's default expansion. */
  public static final int DEFAULT_EXPANSION = 2;

  private final UnifiedJedis redis;
  private final String key;
  private final byte[] rawKey;
  private final Funnel<? super T> funnel;
  private final NativeShape shape;
  private final boolean created;
  /** Null: writes do not wait for replicas. */
  private final BfWrites waiting;

  private RedisNativeBloomFilter(UnifiedJedis redis, String key, Funnel<? super T> funnel, NativeShape shape,
      boolean created, ScriptCalls.Replication replication) {
    this.redis = redis;
    this.key = key;
    this.rawKey = RedisCodec.utf8(key);
    this.funnel = funnel;
    this.shape = shape;
    this.created = created;
    this.waiting = replication == null ? null : new BfWrites(redis, rawKey, key, replication);
  }

  /**
   * True iff the server knows BF.ADD ({@code COMMAND INFO BF.ADD}): Redis 8, Redis Stack, or a server
   * with the RedisBloom module loaded. On a cluster the client asks one node (all nodes are expected
   * to run the same server).
   *
   * @throws RedisFilterException if Redis fails
   */
  public static boolean isSupported(UnifiedJedis redis) {
    Objects.requireNonNull(redis, "redis");
    try {
      Object reply = redis.executeCommand(new CommandArguments(Protocol.Command.COMMAND).add("INFO").add("BF.ADD"));
      return reply instanceof List<?> list && !list.isEmpty() && list.get(0) != null;
    } catch (JedisException e) {
      throw JedisAdapter.fail("COMMAND INFO BF.ADD", e);
    }
  }

  /**
   * Reserves the filter {@code key} for {@code expectedInsertions} items at {@code fpp}, scaling by the
   * default expansion, or attaches to it if it exists with that shape. Same as {@code builder(redis, key,
   * funnel).expectedInsertions(n).fpp(p).create()}.
   */
  public static <T> RedisNativeBloomFilter<T> create(UnifiedJedis redis, String key, Funnel<? super T> funnel,
      long expectedInsertions, double fpp) {
    return RedisNativeBloomFilter.<T>builder(redis, key, funnel).expectedInsertions(expectedInsertions).fpp(fpp)
        .create();
  }

  /**
   * Starts describing a BF.* filter under {@code key}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code key} is empty
   */
  public static <T> Builder<T> builder(UnifiedJedis redis, String key, Funnel<? super T> funnel) {
    return new Builder<>(redis, key, funnel);
  }

  /** Describes a BF.* filter. Not thread-safe; the filter is. */
  public static final class Builder<T> {
    private final UnifiedJedis redis;
    private final String key;
    private final Funnel<? super T> funnel;
    private long expectedInsertions;
    private boolean expectedInsertionsSet;
    private double fpp = 0.01;
    private int expansion = DEFAULT_EXPANSION;
    private boolean nonScaling;
    private ScriptCalls.Replication replication;

    private Builder(UnifiedJedis redis, String key, Funnel<? super T> funnel) {
      this.redis = Objects.requireNonNull(redis, "redis");
      this.funnel = Objects.requireNonNull(funnel, "funnel");
      if (key == null || key.isEmpty()) {
        throw new IllegalArgumentException("key must be a non-empty string, was " + (key == null ? "null" : "\"\""));
      }
      this.key = key;
    }

    /** n, the capacity of the first (or only) sub-filter. Required. */
    public Builder<T> expectedInsertions(long n) {
      this.expectedInsertions = n;
      this.expectedInsertionsSet = true;
      return this;
    }

    /** p, the error rate; default 0.01. */
    public Builder<T> fpp(double p) {
      this.fpp = p;
      return this;
    }

    /**
     * Each sub-filter the server adds when the filter is full holds {@code factor} times the previous
     * one's items (BF.RESERVE ... EXPANSION). Default {@value #DEFAULT_EXPANSION}.
     *
     * @throws IllegalArgumentException if below 1, or combined with {@link #nonScaling()}
     */
    public Builder<T> expansion(int factor) {
      if (factor < 1) {
        throw new IllegalArgumentException("expansion must be >= 1, was " + factor);
      }
      if (nonScaling) {
        throw new IllegalArgumentException("expansion(" + factor + ") contradicts nonScaling()");
      }
      this.expansion = factor;
      return this;
    }

    /**
     * One filter that never grows (BF.RESERVE ... NONSCALING): adds past its capacity fail with an
     * error instead of stacking a sub-filter. @throws IllegalArgumentException after a non-default
     * {@link #expansion}
     */
    public Builder<T> nonScaling() {
      if (expansion != DEFAULT_EXPANSION) {
        throw new IllegalArgumentException("nonScaling() contradicts expansion(" + expansion + ")");
      }
      this.nonScaling = true;
      return this;
    }

    /**
     * After every add, waits until at least {@code replicas} replicas have acknowledged it (Redis WAIT,
     * pipelined after {@code BF.ADD} or {@code BF.MADD} on the same connection), so that an add that
     * returned survives a failover; too few in {@code timeout} and the add throws
     * {@link RedisFilterException} (it is on the master). An add is retried through a failover within
     * the client's own retry budget. Off by default.
     *
     * @throws IllegalArgumentException if {@code replicas < 1} or the timeout is not positive
     */
    public Builder<T> waitForReplicas(int replicas, Duration timeout) {
      this.replication = ScriptCalls.Replication.of(replicas, timeout);
      return this;
    }

    /**
     * Reserves the filter, or attaches to it if the key holds a filter of the same shape (see the
     * class comment). {@link RedisNativeBloomFilter#created()} tells which.
     *
     * @throws IllegalStateException if {@link #expectedInsertions} was not set
     * @throws IllegalArgumentException if n &lt; 1 or p is not in (0, 1), naming the value
     * @throws RedisFilterMismatchException if the key holds a filter of another capacity, error rate,
     *     expansion or scaling, or something that is not a BF filter; nothing was written
     * @throws RedisFilterException if the server has no BF commands (the message says what to use
     *     instead), or Redis fails
     */
    public RedisNativeBloomFilter<T> create() {
      if (!expectedInsertionsSet) {
        throw new IllegalStateException("expectedInsertions(n) must be set before create()");
      }
      BitIndexer.sized(funnel, expectedInsertions, fpp); // the core's argument checks and messages
      if (!isSupported(redis)) {
        throw new RedisFilterException("this Redis server has no BF.* commands (they come with Redis 8, Redis"
            + " Stack or the RedisBloom module); RedisBloomFilter works on any Redis 7 without them");
      }
      NativeShape shape = new NativeShape(expectedInsertions, fpp, expansion, nonScaling);
      boolean created;
      try {
        BfCommand.RESERVE.send(redis, RedisCodec.utf8(key), shape.reserveArgs());
        created = true;
      } catch (JedisException e) {
        if (!String.valueOf(e.getMessage()).contains("item exists")) {
          throw JedisAdapter.fail("BF.RESERVE " + key, e);
        }
        created = false;
      }
      RedisNativeBloomFilter<T> filter = new RedisNativeBloomFilter<>(redis, key, funnel, shape, created, replication);
      if (created) {
        filter.writeParams();
      } else {
        filter.checkExisting();
      }
      return filter;
    }
  }

  private void writeParams() {
    try {
      redis.hset(key + PARAMS_SUFFIX, shape.params());
    } catch (JedisException e) {
      throw JedisAdapter.fail("record the parameters of " + key, e);
    }
  }

  /** The existing key must be a BF filter of this shape; see the class comment. */
  private void checkExisting() {
    Map<String, String> stored;
    Object info;
    try {
      stored = redis.hgetAll(key + PARAMS_SUFFIX);
      info = BfCommand.INFO.send(redis, rawKey);
    } catch (JedisException e) {
      throw new RedisFilterMismatchException("BF.RESERVE " + key + " refused: the key exists and is not a BF filter"
          + " (" + e.getMessage() + ")", e);
    }
    shape.check(key, stored, info);
  }

  private byte[] item(T item) {
    return FunnelBytes.of(funnel, item);
  }

  /**
   * BF.ADD of the item's funnelled bytes: true iff it was new to the filter. With
   * {@link Builder#waitForReplicas}, on that many replicas when it returns.
   *
   * @throws RedisFilterException if Redis fails, or too few replicas acknowledged in time
   */
  public boolean add(T item) {
    return isOne(write(BfCommand.ADD, item(item)));
  }

  /** BF.EXISTS: false iff the item was definitely never added. @throws RedisFilterException if Redis fails */
  public boolean mightContain(T item) {
    return isOne(send(BfCommand.EXISTS, item(item)));
  }

  /**
   * BF.MADD in one command; returns how many items were new. Every item is encoded before anything is sent.
   *
   * @throws NullPointerException if an item is null
   * @throws RedisFilterException if Redis fails
   */
  public int addAll(Iterable<? extends T> items) {
    return countOnes(batch(BfCommand.MADD, encodeAll(items)));
  }

  /** A write: sent as is, or pipelined with WAIT (BfWrites) if the filter waits for replicas. */
  private Object write(BfCommand command, byte[]... args) {
    return waiting == null ? send(command, args) : waiting.write(command, args);
  }

  /** BF.MADD of {@code add(Long)}'s bytes. @throws IllegalStateException unless the funnel is the long funnel */
  public int addAll(long[] keys) {
    return countOnes(batch(BfCommand.MADD, encodeLongs(keys)));
  }

  /**
   * BF.MEXISTS in one command: element i is the answer for item i, in iteration order.
   *
   * @throws RedisFilterException if Redis fails
   */
  public boolean[] mightContainAll(Iterable<? extends T> items) {
    return answers(batch(BfCommand.MEXISTS, encodeAll(items)));
  }

  /** BF.MEXISTS of {@code mightContain(Long)}'s bytes. @throws IllegalStateException unless the long funnel */
  public boolean[] mightContainAll(long[] keys) {
    return answers(batch(BfCommand.MEXISTS, encodeLongs(keys)));
  }

  private List<?> batch(BfCommand command, List<byte[]> encoded) {
    if (encoded.isEmpty()) {
      return List.of();
    }
    byte[][] args = encoded.toArray(new byte[0][]);
    return (List<?>) (command == BfCommand.MADD ? write(command, args) : send(command, args));
  }

  /** {@code BF.COMMAND key args...}; a failure as the filters' exception, naming the command and key. */
  private Object send(BfCommand command, byte[]... args) {
    try {
      return command.send(redis, rawKey, args);
    } catch (JedisException e) {
      throw JedisAdapter.fail(command.commandName() + " " + key, e);
    }
  }

  private List<byte[]> encodeAll(Iterable<? extends T> items) {
    Objects.requireNonNull(items, "items");
    List<byte[]> encoded = new ArrayList<>();
    for (T item : items) {
      encoded.add(item(item));
    }
    return encoded;
  }

  private List<byte[]> encodeLongs(long[] keys) {
    List<T> boxed = ItemBatches.longKeys(funnel, keys);
    return encodeAll(boxed);
  }

  /** BF.CARD: the number of items added (adds that returned true). @throws RedisFilterException if Redis fails */
  public long count() {
    return (Long) send(BfCommand.CARD);
  }

  /**
   * Empties the filter atomically: a script deletes it and reserves it again with this object's
   * parameters (its companion hash is unchanged).
   *
   * @throws RedisFilterException if Redis fails
   */
  public void clear() {
    try {
      redis.eval(shape.clearScript(), List.of(rawKey), shape.clearArgs());
    } catch (JedisException e) {
      throw JedisAdapter.fail("clear " + key, e);
    }
  }

  /** Deletes the filter's key and its companion hash. @throws RedisFilterException if Redis fails */
  public void delete() {
    try {
      redis.del(key);
      redis.del(key + PARAMS_SUFFIX);
    } catch (JedisException e) {
      throw JedisAdapter.fail("delete " + key, e);
    }
  }

  /** The Redis key holding the filter. */
  public String key() {
    return key;
  }

  /** True if the create that returned this instance reserved the key; false if it attached. */
  public boolean created() {
    return created;
  }

  /** The capacity of the first sub-filter. */
  public long expectedInsertions() {
    return shape.capacity();
  }

  /** The error rate. */
  public double fpp() {
    return shape.fpp();
  }

  /** The expansion factor; 0 for a non-scaling filter. */
  public int expansion() {
    return shape.nonScaling() ? 0 : shape.expansion();
  }

  /** The bytes this filter sends for {@code item}: its funnel's, as any client would send them. */
  byte[] encoded(T item) {
    return item(item);
  }

  /** 1 over RESP2, true over RESP3. */
  private static boolean isOne(Object reply) {
    return (reply instanceof Long l && l == 1L) || Boolean.TRUE.equals(reply);
  }

  private static int countOnes(List<?> replies) {
    int n = 0;
    for (Object r : replies) {
      n += isOne(r) ? 1 : 0;
    }
    return n;
  }

  private static boolean[] answers(List<?> replies) {
    boolean[] a = new boolean[replies.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = isOne(replies.get(i));
    }
    return a;
  }

  @Override
  public String toString() {
    return "RedisNativeBloomFilter[key=" + key + ", expectedInsertions=" + shape.capacity() + ", fpp=" + shape.fpp()
        + (shape.nonScaling() ? ", non-scaling" : ", expansion=" + shape.expansion()) + "]";
  }
}
