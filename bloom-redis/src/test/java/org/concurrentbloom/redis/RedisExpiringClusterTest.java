package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.time.Duration;
import java.util.List;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The expiring filter on a real 3-master Redis Cluster, over both clients: every key of the filter is
 * in one hash slot (the scripts touch generation keys they do not declare, which a cluster allows only
 * within the declared slot), adds are shared between instances, and the generations expire.
 */
@Tag("jdk-independent") // scripts on a cluster; the clients' cluster paths: RedisClusterBloomFilterTest (.ci/run)
class RedisExpiringClusterTest {
  @RegisterExtension
  static final RedisClusterExtension CLUSTER = new RedisClusterExtension();

  @ParameterizedTest
  @EnumSource(Client.class)
  void worksOnAClusterWithAllKeysOnOneMaster(Client client) {
    String name = "exp-cluster:" + client;
    ManualClock clock = ManualClock.farFromNow(CLUSTER.client(Duration.ofSeconds(5)), name);
    RedisExpiringBloomFilter<CharSequence> a = clock.on(RedisExpiringBloomFilter.<CharSequence>builder(
        CLUSTER.adapter(client, Duration.ofSeconds(5)), name, Funnels.stringFunnel()))
        .window(Duration.ofSeconds(70)).expectedInsertionsPerWindow(7_000).build();
    RedisExpiringBloomFilter<CharSequence> b = clock.on(RedisExpiringBloomFilter.<CharSequence>builder(
        CLUSTER.adapter(Client.JEDIS, Duration.ofSeconds(5)), name, Funnels.stringFunnel()))
        .window(Duration.ofSeconds(70)).expectedInsertionsPerWindow(7_000).build();
    List<String> first = keys("first-", 500);
    for (String key : first) {
      a.add(key);
    }
    clock.advance(35_000); // slot 3
    List<String> later = keys("later-", 500);
    for (String key : later) {
      b.add(key);
    }
    for (String key : first) {
      assertThat(b.mightContain(key)).as(key).isTrue();
    }
    for (String key : later) {
      assertThat(a.mightContain(key)).as(key).isTrue();
    }
    RedisNode master = CLUSTER.masterOf(ExpiringKeys.meta(name));
    assertThat(CLUSTER.masterOf(ExpiringKeys.generation(name, 0)).port()).isEqualTo(master.port());
    assertThat(CLUSTER.masterOf(ExpiringKeys.generation(name, 3)).port()).isEqualTo(master.port());
    assertThat(a.count()).isEqualTo(b.count()).isBetween(990L, 1_000L);

    clock.set(a.originMillis() + a.maxRetention().toMillis()); // slot 0 forgotten, slot 3 remembered
    int stillFound = 0;
    for (String key : first) {
      stillFound += a.mightContain(key) ? 1 : 0;
    }
    // Only false positives of one generation holding 500 of its 1,000 items: p_g at full load is
    // 1 − 0.99^(1/8) ≈ 0.00126, far less at half load; 5 of 500 is more than 10 times the expectation.
    assertThat(stillFound).isLessThanOrEqualTo(5);
    for (String key : later) {
      assertThat(b.mightContain(key)).as(key).isTrue();
    }
    a.clear();
    assertThat(b.mightContain("later-1")).isFalse();
  }
}
