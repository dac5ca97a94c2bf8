package org.concurrentbloom.redis;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis client a filter talks through: Jedis ({@link #jedis}) or Lettuce
 * ({@link LettuceAdapters}). Both send the same scripts to the same keys, so instances on either client
 * share one filter. The adapter uses the caller's client, connection or pool and never closes it.
 *
 * <p>Only the few commands the filters need are here, package-private: the scripts' EVALSHA and SCRIPT LOAD,
 * pipelines of them with WAIT, and plain key reads and writes. Every failure is a
 * {@link RedisCallException}. Implementations are thread-safe as their client is.
 */
public abstract class RedisClientAdapter {
  /*
   * Jedis is the required client (small, synchronous, one UnifiedJedis type for a server and a cluster);
   * Lettuce is optional (Spring Boot's default, so many services already hold a connection). Callers
   * build the client, so every connection setting (URI, TLS, ACL user and password, timeouts, pool
   * size, cluster retries) is theirs.
   */

  RedisClientAdapter() {}

  /**
   * The adapter over a Jedis client: a {@code RedisClient} for one server or a
   * {@code RedisClusterClient} for a cluster, built with the caller's settings.
   */
  public static RedisClientAdapter jedis(UnifiedJedis redis) {
    return new JedisAdapter(Objects.requireNonNull(redis, "redis"));
  }

  /** One command of a pipeline. */
  sealed interface Command permits EvalSha, Wait {}

  /** EVALSHA of a script; {@code keys} share one hash slot, the first routes it. */
  record EvalSha(byte[] sha, List<byte[]> keys, List<byte[]> args) implements Command {}

  /**
   * WAIT for {@code replicas} replicas, on the node that owns {@code routingKey} and on the connection
   * that sent the writes before it in the same pipeline (WAIT covers that connection's writes only).
   */
  record Wait(byte[] routingKey, int replicas, long timeoutMillis) implements Command {}

  /** EVALSHA: the reply as Long, byte[], List of those, or null. */
  abstract Object evalsha(byte[] sha, List<byte[]> keys, List<byte[]> args);

  /** SCRIPT LOAD on the node that owns {@code routingKey} (the script cache is per node). */
  abstract void scriptLoad(byte[] source, byte[] routingKey);

  /**
   * Sends every command without waiting for replies between them (one round trip per node), and
   * returns each one's reply, or the {@link RedisCallException} it failed with, in order.
   *
   * @throws RedisCallException if the pipeline as a whole could not be sent
   */
  abstract List<Object> pipeline(List<Command> commands);

  /**
   * A plain command routed by {@code key} (EXISTS), sent the way the client sends any command, so that
   * it is retried as the client retries one: Jedis's cluster client renews its slot map and retries
   * within its {@code maxAttempts} and {@code maxTotalRetriesDuration}; Lettuce follows MOVED and waits
   * for a reconnect within its command timeout. A write pipelined with WAIT, which the clients do not
   * retry, waits on this during a failover before it is sent again (ScriptCalls.writeRetrying).
   *
   * @throws RedisCallException when the client gives up
   */
  abstract void awaitRoute(byte[] key);

  /** TYPE: "none", "string", "hash", "list", ... */
  abstract String type(byte[] key);

  /** HGETALL, fields and values as UTF-8. */
  abstract Map<String, String> hgetAll(byte[] key);

  /** HMGET: one value per field, null where absent. */
  abstract List<byte[]> hmget(byte[] key, byte[]... fields);

  abstract byte[] hget(byte[] key, byte[] field);

  abstract boolean exists(byte[] key);

  abstract long hincrBy(byte[] key, byte[] field, long by);

  /** DEL of keys that share one hash slot; the number deleted. */
  abstract long del(byte[]... keys);

  abstract void set(byte[] key, byte[] value);

  abstract byte[] get(byte[] key);

  /** SET key value NX PX millis: true if it was set. */
  abstract boolean setIfAbsent(byte[] key, byte[] value, long pxMillis);
}
