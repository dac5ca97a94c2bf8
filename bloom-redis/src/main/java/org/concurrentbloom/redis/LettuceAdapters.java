package org.concurrentbloom.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.util.Objects;

/**
 * {@link RedisClientAdapter}s over Lettuce (Spring Boot's default Redis client), kept apart from the
 * adapter class so that Jedis users need no Lettuce on their class path. The connection must use the
 * byte-array codec, as the filters send binary keys, arguments and bit strings:
 *
 * <pre>{@code
 * StatefulRedisConnection<byte[], byte[]> connection = redisClient.connect(ByteArrayCodec.INSTANCE);
 * RedisBloomFilter<CharSequence> seen = RedisBloomFilter.create(LettuceAdapters.of(connection),
 *     "app:emails", Funnels.stringFunnel(), 10_000_000, 0.01);
 * }</pre>
 *
 * <p>The same scripts and keys as over Jedis: instances on either client share one filter. A Lettuce
 * connection is thread-safe and multiplexed, so one adapter serves every thread; it is never closed here.
 */
public final class LettuceAdapters {
  private LettuceAdapters() {}

  /** The adapter over a connection to one server (or a master of a replication group). */
  public static RedisClientAdapter of(StatefulRedisConnection<byte[], byte[]> connection) {
    Objects.requireNonNull(connection, "connection");
    return new LettuceAdapter(connection, connection.async(), null);
  }

  /** The adapter over a Redis Cluster connection; Lettuce routes each command by its first key. */
  public static RedisClientAdapter of(StatefulRedisClusterConnection<byte[], byte[]> connection) {
    Objects.requireNonNull(connection, "connection");
    return new LettuceAdapter(connection, connection.async(), connection);
  }
}
