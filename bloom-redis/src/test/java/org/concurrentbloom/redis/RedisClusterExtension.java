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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisException;

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

  /** The hash slot of {@code key}, as the cluster computes it (CLUSTER KEYSLOT on a live node). */
  int slotOf(String key) {
    for (RedisNode node : nodes) {
      if (node.isAlive()) {
        try (Jedis admin = node.admin()) {
          return (int) admin.clusterKeySlot(key);
        }
      }
    }
    throw new AssertionError("no live node to ask for the slot of " + key);
  }

  /**
   * One line of CLUSTER NODES: the node's id, port, flags ("myself,master", "slave", "master,fail", ...),
   * its master's id ("-" for a master) and the slot ranges it serves ("0-5460", "5461").
   */
  record NodeEntry(String id, int port, String flags, String masterId, List<String> slots) {
    static NodeEntry parse(String line) {
      String[] f = line.trim().split(" ", -1);
      String address = f[1];
      int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1, address.indexOf('@')));
      return new NodeEntry(f[0], port, f[2], f[3], List.of(f).subList(Math.min(8, f.length), f.length));
    }

    boolean myself() {
      return flags.contains("myself");
    }

    boolean master() {
      return flags.contains("master");
    }

    boolean owns(int slot) {
      for (String range : slots) {
        if (range.startsWith("[")) {
          continue; // a slot being imported or migrated, not served
        }
        int dash = range.indexOf('-');
        int low = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
        int high = dash < 0 ? low : Integer.parseInt(range.substring(dash + 1));
        if (low <= slot && slot <= high) {
          return true;
        }
      }
      return false;
    }
  }

  /** The node's own line of its CLUSTER NODES, or null if it is not running or does not answer. */
  private static NodeEntry self(RedisNode node) {
    if (!node.isAlive()) {
      return null;
    }
    try (Jedis admin = node.admin()) {
      for (String line : admin.clusterNodes().split("\n", -1)) {
        if (!line.isBlank()) {
          NodeEntry entry = NodeEntry.parse(line);
          if (entry.myself()) {
            return entry;
          }
        }
      }
    } catch (JedisException e) {
      return null; // frozen or just restarted: it says nothing about itself
    }
    return null;
  }

  /** The live node that, by its own account, is the master serving {@code slot}; null if none is now. */
  RedisNode masterOfSlot(int slot) {
    for (RedisNode node : nodes) {
      NodeEntry entry = self(node);
      if (entry != null && entry.master() && entry.owns(slot)) {
        return node;
      }
    }
    return null;
  }

  /**
   * A live node that, by its own account, replicates {@code master} and whose link to it is up (INFO
   * replication: master_link_status:up); null if there is none now.
   */
  RedisNode replicaOf(RedisNode master) {
    NodeEntry m = self(master);
    if (m == null) {
      return null;
    }
    for (RedisNode node : nodes) {
      NodeEntry entry = self(node);
      if (entry != null && !entry.master() && entry.masterId().equals(m.id())) {
        try (Jedis admin = node.admin()) {
          if (admin.info("replication").contains("master_link_status:up")) {
            return node;
          }
        }
      }
    }
    return null;
  }

  /**
   * Waits until {@code master}'s replicas have acknowledged every write it has (each replica's offset in
   * INFO replication equals master_repl_offset), so that what was written so far is on them.
   */
  void awaitReplicasCaughtUp(RedisNode master) throws InterruptedException {
    awaitUntil("the replicas of the master on port " + master.port() + " have caught up", () -> {
      try (Jedis admin = master.admin()) {
        String info = admin.info("replication");
        long offset = -1;
        List<Long> replicaOffsets = new ArrayList<>();
        for (String line : info.split("\r?\n", -1)) {
          if (line.startsWith("master_repl_offset:")) {
            offset = Long.parseLong(line.substring("master_repl_offset:".length()).trim());
          } else if (line.startsWith("slave") && line.contains("offset=")) {
            for (String field : line.substring(line.indexOf(':') + 1).split(",", -1)) {
              if (field.startsWith("offset=")) {
                replicaOffsets.add(Long.parseLong(field.substring("offset=".length())));
              }
            }
          }
        }
        long expected = offset;
        return !replicaOffsets.isEmpty() && replicaOffsets.stream().allMatch(o -> o == expected);
      }
    });
  }

  /**
   * Waits until a live node other than {@code victim} serves {@code slot} by its own account and every
   * live node reports cluster_state:ok (the failover is over), and returns that node.
   */
  RedisNode awaitPromotion(RedisNode victim, int slot) throws InterruptedException {
    AtomicReference<RedisNode> promoted = new AtomicReference<>();
    awaitUntil("a node other than port " + victim.port() + " serves slot " + slot + " and the cluster is ok", () -> {
      RedisNode owner = masterOfSlot(slot);
      if (owner == null || owner == victim) {
        return false;
      }
      promoted.set(owner);
      for (RedisNode node : nodes) {
        if (node.isAlive()) {
          try (Jedis admin = node.admin()) {
            if (!admin.clusterInfo().contains("cluster_state:ok")) {
              return false;
            }
          } catch (JedisException e) {
            return false;
          }
        }
      }
      return true;
    });
    return promoted.get();
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
