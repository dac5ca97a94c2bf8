package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.concurrentbloom.ConcurrentRun;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;

/**
 * Partitioned filters on a real 3-master, 3-replica Redis Cluster: partitions spread over the masters,
 * the false-positive rate holds, and a master's failover to its replica loses no acknowledged add.
 * The failover test runs last because it changes the cluster. Each runs over Jedis and over Lettuce
 * (the sharing test with one instance on each).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterBloomFilterTest {
  @RegisterExtension
  static final RedisClusterExtension CLUSTER = new RedisClusterExtension();

  @ParameterizedTest
  @EnumSource(Client.class)
  @Order(1)
  void partitionsSpreadOverTheMastersAndTheFalsePositiveRateHolds(Client client) {
    RedisClientAdapter redis = CLUSTER.adapter(client, Duration.ofSeconds(5));
    int n = 20_000;
    double p = 0.01;
    String name = "cluster:fpr:" + client;
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .expectedInsertions(n).fpp(p).partitions(12).create();
    Set<Integer> masters = new HashSet<>();
    for (int i = 0; i < 12; i++) {
      masters.add(CLUSTER.masterOf(FilterKeys.bitsKey(name, i)).port());
    }
    assertThat(masters).as("masters holding a partition").hasSize(3);

    f.addAll(keys("member-", 0, n));
    assertThat(f.mightContainAll(keys("member-", 0, n))).containsOnly(true);
    int trials = 100_000;
    int falsePositives = 0;
    for (boolean b : f.mightContainAll(keys("absent-", 0, trials))) {
      falsePositives += b ? 1 : 0;
    }
    double measured = (double) falsePositives / trials;
    // Bound as in the core's FalsePositiveRateTest: 1.1 p for rounding and partition load spread, plus
    // 3 standard errors of a binomial proportion (one-sided 99.87%); the seedless keys are fixed strings.
    double se = Math.sqrt(p * (1 - p) / trials);
    System.out.printf("partitioned filter, 12 partitions on 3 masters: measured FPR %.5f (target %.3f)%n", measured, p);
    assertThat(measured).isLessThanOrEqualTo(1.1 * p + 3 * se).isGreaterThanOrEqualTo(0.5 * p);
    assertThat(f.count()).isGreaterThan(n - n / 100).isLessThanOrEqualTo(n);
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  @Order(2)
  void twoClusterClientsShareTheFilterWhicheverLibraryEachUses(Client other) {
    String name = "cluster:shared:" + other;
    RedisBloomFilter<Long> a = RedisBloomFilter.<Long>builder(CLUSTER.adapter(Client.JEDIS, Duration.ofSeconds(5)),
        name, Funnels.longFunnel()).expectedInsertions(10_000).partitions(6).create();
    RedisBloomFilter<Long> b = RedisBloomFilter.attach(CLUSTER.adapter(other, Duration.ofSeconds(5)), name,
        Funnels.longFunnel());
    for (long i = 0; i < 500; i++) {
      assertThat(a.add(i)).isTrue();
      assertThat(b.mightContain(i)).isTrue();
      assertThat(b.add(i + 1_000)).isTrue();
      assertThat(a.mightContain(i + 1_000)).isTrue();
    }
    assertThat(b.count()).isEqualTo(1_000);
    assertThat(a.mightContainAll(new long[] {1, 2, 1_001})).containsOnly(true);
  }

  /** The shared guard's keys share one slot, so its scripts run on one master of the cluster. */
  @ParameterizedTest
  @EnumSource(Client.class)
  @Order(2)
  void aSharedGuardWorksOnTheCluster(Client client) throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    String name = "cluster.guard." + client;
    RedisClientAdapter clientA = CLUSTER.adapter(client, Duration.ofSeconds(5));
    RedisSnapshotStore store = new RedisSnapshotStore(clientA, name + ":snapshot");
    try (MembershipGuard<String> a = Guards.ready(Guards.over(table, name).snapshotStore(store)
            .backend(RedisGuardBackend.of(clientA)));
        MembershipGuard<String> b =
            Guards.sharedInstance(table, name, CLUSTER.adapter(Client.JEDIS, Duration.ofSeconds(5)))) {
      assertThat(table.scanAllCalls.get()).as("B adopted A's filter").isEqualTo(1);
      table.insert("from-a");
      a.recordInsert("from-a");
      assertThat(b.mightExist("from-a")).isTrue();
      for (int i = 0; i < 10; i++) {
        table.delete("key-" + i);
        b.recordDelete("key-" + i);
      }
      b.rebuildNow();
      for (int i = 0; i < 10; i++) {
        assertThat(a.mightExist("key-" + i)).as("A answers from B's new generation").isFalse();
      }
      RedisSnapshotStoreTest.assertAll(a, table);
      assertThat(store.read()).as("A's snapshot, downloaded from the cluster").isPresent();
    }
  }

  @Test
  @Order(2)
  void bfDetectionOnAClusterAgreesWithASingleNode() {
    RedisNode node = CLUSTER.nodes().get(0);
    try (redis.clients.jedis.RedisClient single = node.client(Duration.ofSeconds(5))) {
      assertThat(RedisNativeBloomFilter.isSupported(CLUSTER.client(Duration.ofSeconds(5))))
          .isEqualTo(RedisNativeBloomFilter.isSupported(single));
    }
  }

  /**
   * Kills (SIGKILL) the master of partition 0 while a reader queries added keys, waits until its replica
   * is promoted, and checks that every add acknowledged before the crash (waitForReplicas(1)) is present
   * and that new adds work. During the failover each query answers true or throws; never false.
   */
  @Tag("jdk-independent") // what survives a failover is Redis's and the protocol's: JDK-free (.ci/run)
  @ParameterizedTest
  @EnumSource(Client.class)
  @Order(3)
  void aMasterFailoverLosesNoAcknowledgedAdd(Client client) throws Exception {
    RedisClientAdapter redis = CLUSTER.adapter(client, Duration.ofSeconds(2));
    String name = "cluster:failover:" + client;
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .expectedInsertions(20_000).fpp(0.01).partitions(6).waitForReplicas(1, Duration.ofSeconds(5)).create();
    List<String> batch = keys("k-", 0, 5_000);
    f.addAll(batch);
    List<String> singles = keys("s-", 0, 200);
    for (String key : singles) {
      f.add(key);
    }

    RedisNode victim = CLUSTER.masterOf(FilterKeys.bitsKey(name, 0));
    AtomicInteger falseAnswers = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    AtomicInteger answered = new AtomicInteger();
    CountDownLatch readerStarted = new CountDownLatch(1);
    // The deadline covers both waits below, each bounded by the cluster extension's own deadline.
    ConcurrentRun run = new ConcurrentRun(Duration.ofMinutes(5));
    run.background(() -> { // any other exception than RedisFilterException fails the run
      RedisBloomFilter<CharSequence> r = RedisBloomFilter.attach(redis, name, Funnels.stringFunnel());
      readerStarted.countDown();
      for (int i = 0; !run.stopping(); i++) {
        try {
          if (r.mightContain(singles.get(i % singles.size()))) {
            answered.incrementAndGet();
          } else {
            falseAnswers.incrementAndGet();
          }
        } catch (RedisFilterException e) {
          errors.incrementAndGet();
        }
      }
    });
    AssertionError readerFailure;
    try (run) {
      run.start();
      assertThat(readerStarted.await(30, TimeUnit.SECONDS)).as("the reader attached").isTrue();

      victim.kill();
      RedisClusterExtension.awaitUntil("a replica of the killed master is promoted and the cluster is ok",
          () -> promotedAndOk(victim));
      // The client learns the new topology on its next failure; poll until a query goes through.
      RedisClusterExtension.awaitUntil("the client reaches the promoted master", () -> {
        try {
          return f.mightContainAll(batch).length == batch.size();
        } catch (RedisFilterException e) {
          return false;
        }
      });
      readerFailure = finishKeepingTheFailure(run);
    }
    // The promoted master has no replica until the killed node comes back (as its replica), and until
    // then an add with waitForReplicas(1) throws: restart it and wait until it is in sync.
    victim.restart();
    RedisClusterExtension.awaitUntil("the restarted node is a replica in sync", () -> replicaInSync(victim));
    if (readerFailure != null) { // reported once the cluster is whole again, for the tests after this one
      throw readerFailure;
    }

    System.out.printf("failover: reader got %d true answers, %d errors, %d false answers%n",
        answered.get(), errors.get(), falseAnswers.get());
    assertThat(falseAnswers.get()).as("queries answered false during the failover").isZero();
    assertThat(f.mightContainAll(batch)).containsOnly(true);
    assertThat(f.mightContainAll(singles)).containsOnly(true);
    List<String> fresh = keys("after-", 0, 300);
    RedisClusterExtension.awaitUntil("an add reaches the new topology", () -> {
      try {
        f.addAll(fresh);
        return true;
      } catch (RedisFilterException e) {
        return false;
      }
    });
    f.add("after-single");
    assertThat(f.mightContainAll(fresh)).containsOnly(true);
    assertThat(f.mightContain("after-single")).isTrue();
  }

  private static boolean replicaInSync(RedisNode node) {
    try (Jedis admin = node.admin()) {
      String replication = admin.info("replication");
      return replication.contains("role:slave") && replication.contains("master_link_status:up")
          && admin.clusterInfo().contains("cluster_state:ok");
    }
  }

  /** {@link ConcurrentRun#finish()}, returning its failure instead of throwing it. */
  private static AssertionError finishKeepingTheFailure(ConcurrentRun run) throws InterruptedException {
    try {
      run.finish();
      return null;
    } catch (AssertionError e) {
      return e;
    }
  }

  /** True when no live node still lists the victim as a master owning slots, and every live node is ok. */
  private static boolean promotedAndOk(RedisNode victim) {
    for (RedisNode node : CLUSTER.nodes()) {
      if (!node.isAlive()) {
        continue;
      }
      try (Jedis admin = node.admin()) {
        if (!admin.clusterInfo().contains("cluster_state:ok")) {
          return false;
        }
        for (String line : admin.clusterNodes().split("\n", -1)) {
          String[] fields = line.split(" ", -1);
          boolean isVictim = fields.length > 1 && fields[1].startsWith("127.0.0.1:" + victim.port() + "@");
          if (isVictim && fields[2].contains("master") && !fields[2].contains("fail")) {
            return false;
          }
        }
      }
    }
    return true;
  }
}
