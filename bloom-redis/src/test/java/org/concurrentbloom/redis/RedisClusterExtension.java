package org.concurrentbloom.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;

/**
 * A Redis Cluster of 3 masters and 3 replicas on loopback ports for a test class: six
 * {@code redis-server --cluster-enabled yes} processes (AOF on, fsync always, node timeout 1 s) joined
 * by {@code redis-cli --cluster create --cluster-replicas 1}. Waits, by polling with a deadline, until
 * every node reports the cluster ok and every replica is in sync.
 */
final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {
  static final Duration DEADLINE = Duration.ofSeconds(60);
  private final List<RedisNode> nodes = new ArrayList<>();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private Path dir;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    RedisNode.requireServerBinary();
    dir = Files.createTempDirectory("bloom-redis-cluster");
    for (int i = 0; i < 6; i++) {
      nodes.add(RedisNode.start(dir, List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
          "--cluster-node-timeout", "1000", "--appendonly", "yes", "--appendfsync", "always")));
    }
    List<String> create = new ArrayList<>(List.of(RedisNode.cliBinary(), "--cluster", "create"));
    for (RedisNode node : nodes) {
      create.add("127.0.0.1:" + node.port());
    }
    create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
    Process cli = new ProcessBuilder(create).redirectErrorStream(true).start();
    String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (cli.waitFor() != 0) {
      throw new IOException("redis-cli --cluster create failed:\n" + output);
    }
    awaitUntil("every node reports cluster_state:ok and replicas are in sync", this::clusterReady);
  }

  private boolean clusterReady() {
    int replicasInSync = 0;
    for (RedisNode node : nodes) {
      try (Jedis admin = node.admin()) {
        String info = admin.clusterInfo();
        if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:6")) {
          return false;
        }
        String replication = admin.info("replication");
        if (replication.contains("role:slave") && replication.contains("master_link_status:up")) {
          replicasInSync++;
        }
      }
    }
    return replicasInSync == 3;
  }

  /** Polls {@code condition} until true; fails after {@link #DEADLINE}. */
  static void awaitUntil(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    Object monitor = new Object();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not true within " + DEADLINE + ": " + what);
      }
      synchronized (monitor) {
        monitor.wait(50); // poll interval between checks of the condition, not a wait for concurrency
      }
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    for (RedisNode node : nodes) {
      node.close();
    }
    TestFiles.deleteTree(dir);
  }

  List<RedisNode> nodes() {
    return nodes;
  }

  /** A cluster client seeded with every node, with this socket timeout; closed after the class. */
  RedisClusterClient client(Duration timeout) {
    Set<HostAndPort> seeds = new HashSet<>();
    for (RedisNode node : nodes) {
      seeds.add(node.hostAndPort());
    }
    RedisClusterClient client = RedisClusterClient.builder().nodes(seeds)
        .clientConfig(DefaultJedisClientConfig.builder().timeoutMillis((int) timeout.toMillis()).build())
        .maxAttempts(5).maxTotalRetriesDuration(Duration.ofSeconds(10)).build();
    opened.add(client);
    return client;
  }

  /** Closes {@code resource} after the class, with the clients. */
  void closeAfter(AutoCloseable resource) {
    opened.add(resource);
  }

  /** An adapter over a new cluster client of this kind, closed after the class. */
  RedisClientAdapter adapter(Client kind, Duration timeout) {
    return kind.openCluster(this, timeout);
  }

  /** The live master that holds this (existing) key. */
  RedisNode masterOf(String key) {
    for (RedisNode node : nodes) {
      if (!node.isAlive()) {
        continue;
      }
      try (Jedis admin = node.admin()) {
        if (admin.info("replication").contains("role:master")) {
          // A master answers only for its own slots; for others it replies MOVED, which is an error.
          try {
            if (admin.exists(key)) {
              return node;
            }
          } catch (redis.clients.jedis.exceptions.JedisDataException moved) {
            // not this master's slot
          }
        }
      }
    }
    throw new AssertionError("no live master holds " + key);
  }
}
