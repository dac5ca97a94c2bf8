package org.concurrentbloom.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.concurrentbloom.BitIndexer;
import org.concurrentbloom.Funnel;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A Bloom filter kept by the server's own Bloom commands (BF.RESERVE, BF.ADD, BF.MADD, BF.EXISTS,
 * BF.MEXISTS, BF.CARD), which Redis 8 has built in and Redis Stack or the RedisBloom module add to
 * older servers. Use {@link #isSupported} to find out; plain Redis 7 has none, and there
 * {@link RedisBloomFilter} (strings and Lua) is the way.
 *
 * <p>The server hashes and sizes the filter itself (with its own hash function, and by default growing
 * by stacking sub-filters when n is passed, so the false-positive rate stays near p). Its bits therefore
 * mean nothing to the core library: this filter cannot be uploaded, downloaded or written in the core
 * format, which is why it is not a {@code MembershipFilter}. Each item is sent as the 32 hex digits of its
 * 128-bit MurmurHash3 (the funnel's bytes hashed as the core does), so any funnel works and items are
 * short; two distinct items collide with probability 2^-128, which adds nothing measurable to p.
 *
 * <p>Immutable; any thread may call any method, as the Jedis client may. Failures throw
 * {@link RedisFilterException}, never a "definitely absent". Each BF command is atomic on the server; a
 * batch is one command (BF.MADD / BF.MEXISTS), so one round trip.
 *
 * @param <T> the type of item
 */
public final class RedisNativeBloomFilter<T> {
  private static final byte[] CLEAR = ("redis.call('DEL', KEYS[1]) "
      + "return redis.call('BF.RESERVE', KEYS[1], ARGV[1], ARGV[2])").getBytes(StandardCharsets.US_ASCII);

  private final UnifiedJedis redis;
  private final String key;
  private final BitIndexer<T> hasher;
  private final long expectedInsertions;
  private final double fpp;

  private RedisNativeBloomFilter(UnifiedJedis redis, String key, Funnel<? super T> funnel, long n, double p) {
    this.redis = redis;
    this.key = key;
    this.hasher = BitIndexer.withShape(funnel, 64, 1); // only its hash() is used: the server places bits
    this.expectedInsertions = n;
    this.fpp = p;
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
   * Reserves the filter {@code key} for {@code expectedInsertions} items at {@code fpp} (BF.RESERVE), or
   * attaches to it if it exists (its stored capacity and rate then apply; the server does not report
   * the rate back, so {@link #fpp()} is the one given here).
   *
   * @throws IllegalArgumentException if n &lt; 1 or p is not in (0, 1), naming the value
   * @throws RedisFilterException if the server has no BF commands (the message says what to use instead),
   *     or Redis fails
   */
  public static <T> RedisNativeBloomFilter<T> create(UnifiedJedis redis, String key, Funnel<? super T> funnel,
      long expectedInsertions, double fpp) {
    Objects.requireNonNull(redis, "redis");
    Objects.requireNonNull(funnel, "funnel");
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("key must be a non-empty string, was " + (key == null ? "null" : "\"\""));
    }
    BitIndexer.sized(funnel, expectedInsertions, fpp); // the core's argument checks and messages
    if (!isSupported(redis)) {
      throw new RedisFilterException("this Redis server has no BF.* commands (they come with Redis 8, Redis Stack"
          + " or the RedisBloom module); RedisBloomFilter works on any Redis 7 without them");
    }
    try {
      redis.bfReserve(key, fpp, expectedInsertions);
    } catch (JedisException e) {
      if (!String.valueOf(e.getMessage()).contains("item exists")) {
        throw JedisAdapter.fail("BF.RESERVE " + key, e);
      }
    }
    return new RedisNativeBloomFilter<>(redis, key, funnel, expectedInsertions, fpp);
  }

  private String item(T item) {
    long[] hash = new long[2];
    hasher.hash(item, hash);
    HexFormat hex = HexFormat.of();
    return hex.toHexDigits(hash[0]) + hex.toHexDigits(hash[1]);
  }

  /** BF.ADD: true iff the item was new to the filter. @throws RedisFilterException if Redis fails */
  public boolean add(T item) {
    String encoded = item(item);
    try {
      return redis.bfAdd(key, encoded);
    } catch (JedisException e) {
      throw JedisAdapter.fail("BF.ADD " + key, e);
    }
  }

  /** BF.EXISTS: false iff the item was definitely never added. @throws RedisFilterException if Redis fails */
  public boolean mightContain(T item) {
    String encoded = item(item);
    try {
      return redis.bfExists(key, encoded);
    } catch (JedisException e) {
      throw JedisAdapter.fail("BF.EXISTS " + key, e);
    }
  }

  /** BF.MADD in one command; returns how many items were new. @throws RedisFilterException if Redis fails */
  public int addAll(Iterable<? extends T> items) {
    String[] encoded = encodeAll(items);
    if (encoded.length == 0) {
      return 0;
    }
    try {
      int added = 0;
      for (Boolean b : redis.bfMAdd(key, encoded)) {
        added += Boolean.TRUE.equals(b) ? 1 : 0;
      }
      return added;
    } catch (JedisException e) {
      throw JedisAdapter.fail("BF.MADD " + key, e);
    }
  }

  /**
   * BF.MEXISTS in one command: element i is the answer for item i.
   *
   * @throws RedisFilterException if Redis fails
   */
  public boolean[] mightContainAll(List<? extends T> items) {
    String[] encoded = encodeAll(items);
    boolean[] answers = new boolean[encoded.length];
    if (encoded.length == 0) {
      return answers;
    }
    try {
      List<Boolean> replies = redis.bfMExists(key, encoded);
      for (int i = 0; i < answers.length; i++) {
        answers[i] = Boolean.TRUE.equals(replies.get(i));
      }
      return answers;
    } catch (JedisException e) {
      throw JedisAdapter.fail("BF.MEXISTS " + key, e);
    }
  }

  private String[] encodeAll(Iterable<? extends T> items) {
    Objects.requireNonNull(items, "items");
    List<String> encoded = new ArrayList<>();
    for (T item : items) {
      encoded.add(item(item));
    }
    return encoded.toArray(new String[0]);
  }

  /** BF.CARD: the number of items added (adds that returned true). @throws RedisFilterException if Redis fails */
  public long count() {
    try {
      return redis.bfCard(key);
    } catch (JedisException e) {
      throw JedisAdapter.fail("BF.CARD " + key, e);
    }
  }

  /**
   * Empties the filter atomically: a script deletes it and reserves it again with this object's n and p.
   *
   * @throws RedisFilterException if Redis fails
   */
  public void clear() {
    try {
      redis.eval(CLEAR, List.of(key.getBytes(StandardCharsets.UTF_8)),
          List.of(Double.toString(fpp).getBytes(StandardCharsets.US_ASCII),
              Long.toString(expectedInsertions).getBytes(StandardCharsets.US_ASCII)));
    } catch (JedisException e) {
      throw JedisAdapter.fail("clear " + key, e);
    }
  }

  /** Deletes the filter's key. @throws RedisFilterException if Redis fails */
  public void delete() {
    try {
      redis.del(key);
    } catch (JedisException e) {
      throw JedisAdapter.fail("delete " + key, e);
    }
  }

  /** The Redis key holding the filter. */
  public String key() {
    return key;
  }

  /** The n given when this object was created. */
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /** The p given when this object was created. */
  public double fpp() {
    return fpp;
  }

  @Override
  public String toString() {
    return "RedisNativeBloomFilter[key=" + key + ", expectedInsertions=" + expectedInsertions + ", fpp=" + fpp + "]";
  }
}
