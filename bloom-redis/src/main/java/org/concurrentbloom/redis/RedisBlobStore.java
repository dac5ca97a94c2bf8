package org.concurrentbloom.redis;

import java.util.Objects;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;

/**
 * Whole byte strings under keys, for storing files such as a filter snapshot in the core format
 * (docs/FORMAT.md) next to the filters. {@link #put} replaces the value in one SET, so a reader sees the
 * old blob or the new one, never a mix. Values are limited to Redis's 512 MB.
 *
 * <p>Immutable; any thread may call any method, as the client (Jedis or Lettuce) may. Failures throw
 * {@link RedisFilterException}; a missing key is an empty {@code Optional}, never an error.
 */
public final class RedisBlobStore {
  private final RedisClientAdapter redis;
  private final String prefix;

  /**
   * A store whose keys are {@code prefix + name}. The caller's client; never closed here.
   *
   * @throws NullPointerException if an argument is null
   */
  public RedisBlobStore(UnifiedJedis redis, String prefix) {
    this(RedisClientAdapter.jedis(redis), prefix);
  }

  /** A store over any client adapter (Jedis or Lettuce). @throws NullPointerException if an argument is null */
  public RedisBlobStore(RedisClientAdapter redis, String prefix) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.prefix = Objects.requireNonNull(prefix, "prefix");
  }

  private byte[] key(String name) {
    return RedisCodec.utf8(prefix + Objects.requireNonNull(name, "name"));
  }

  /** Stores {@code blob} under {@code name}, replacing any value atomically. @throws RedisFilterException if Redis fails */
  public void put(String name, byte[] blob) {
    Objects.requireNonNull(blob, "blob");
    try {
      redis.set(key(name), blob);
    } catch (RedisCallException e) {
      throw ScriptCalls.translate("put " + prefix + name, e);
    }
  }

  /** The blob under {@code name}, or empty if there is none. @throws RedisFilterException if Redis fails */
  public Optional<byte[]> get(String name) {
    return Optional.ofNullable(ScriptCalls.command("get " + prefix + name, () -> redis.get(key(name))));
  }

  /** Removes {@code name}; true if it existed. @throws RedisFilterException if Redis fails */
  public boolean delete(String name) {
    return ScriptCalls.command("delete " + prefix + name, () -> redis.del(key(name))) > 0;
  }
}
