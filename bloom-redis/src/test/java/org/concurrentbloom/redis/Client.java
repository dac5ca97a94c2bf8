package org.concurrentbloom.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The two Redis clients the filters run on; tests that take a {@code Client} parameter run over both.
 * Each opens the client on a server or a cluster, as an adapter, and registers what must be closed.
 */
enum Client {
  JEDIS, LETTUCE;

  /**
   * Lettuce logs through Netty, which skips SLF4J's no-op binding and falls back to java.util.logging:
   * its reconnect WARNINGs during the fault tests would read as JVM warnings to CI. Strong references,
   * since java.util.logging keeps its loggers weakly.
   */
  private static final List<java.util.logging.Logger> QUIET = List.of(
      java.util.logging.Logger.getLogger("io.lettuce"), java.util.logging.Logger.getLogger("io.netty"));

  static {
    QUIET.forEach(l -> l.setLevel(java.util.logging.Level.OFF));
  }

  /** An adapter to the single server {@code node}; what it opened is added to {@code opened}. */
  RedisClientAdapter open(RedisNode node, Duration timeout, List<AutoCloseable> opened) {
    if (this == JEDIS) {
      redis.clients.jedis.RedisClient jedis = node.client(timeout);
      opened.add(jedis);
      return RedisClientAdapter.jedis(jedis);
    }
    io.lettuce.core.RedisClient lettuce = io.lettuce.core.RedisClient.create(
        RedisURI.builder().withHost("127.0.0.1").withPort(node.port()).withTimeout(timeout).build());
    StatefulRedisConnection<byte[], byte[]> connection = lettuce.connect(ByteArrayCodec.INSTANCE);
    opened.add(() -> {
      connection.close();
      lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(5));
    });
    return LettuceAdapters.of(connection);
  }

  /**
   * An adapter to the single server {@code node} that logs in as the ACL user {@code user} with
   * {@code password}; what it opened is added to {@code opened}.
   */
  RedisClientAdapter open(RedisNode node, Duration timeout, String user, String password, List<AutoCloseable> opened) {
    if (this == JEDIS) {
      redis.clients.jedis.RedisClient jedis = node.client(timeout, user, password);
      opened.add(jedis);
      return RedisClientAdapter.jedis(jedis);
    }
    io.lettuce.core.RedisClient lettuce = io.lettuce.core.RedisClient.create(RedisURI.builder().withHost("127.0.0.1")
        .withPort(node.port()).withTimeout(timeout).withAuthentication(user, password.toCharArray()).build());
    StatefulRedisConnection<byte[], byte[]> connection = lettuce.connect(ByteArrayCodec.INSTANCE);
    opened.add(() -> {
      connection.close();
      lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(5));
    });
    return LettuceAdapters.of(connection);
  }

  /** An adapter to the cluster of {@code nodes}, seeded with all of them. */
  @SuppressWarnings("deprecation") // enableAllAdaptiveRefreshTriggers: every trigger, as wanted here
  RedisClientAdapter openCluster(RedisClusterExtension cluster, Duration timeout) {
    if (this == JEDIS) {
      return RedisClientAdapter.jedis(cluster.client(timeout));
    }
    List<RedisURI> seeds = new ArrayList<>();
    for (RedisNode node : cluster.nodes()) {
      if (node.isAlive()) {
        seeds.add(RedisURI.builder().withHost("127.0.0.1").withPort(node.port()).withTimeout(timeout).build());
      }
    }
    RedisClusterClient lettuce = RedisClusterClient.create(seeds);
    // A failover moves slots: learn the topology from MOVED replies and reconnects, and every second.
    lettuce.setOptions(ClusterClientOptions.builder().topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
        .enableAllAdaptiveRefreshTriggers().enablePeriodicRefresh(Duration.ofSeconds(1)).build()).build());
    StatefulRedisClusterConnection<byte[], byte[]> connection = lettuce.connect(ByteArrayCodec.INSTANCE);
    cluster.closeAfter(() -> {
      connection.close();
      lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(5));
    });
    return LettuceAdapters.of(connection);
  }
}
