package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.util.List;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Instances on Jedis and on Lettuce share one filter, one shared guard and one snapshot: same scripts,
 * same keys, same bytes.
 */
class CrossClientTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  @Test
  void aFilterCreatedOverJedisIsTheSameFilterOverLettuce() {
    RedisBloomFilter<CharSequence> jedis = RedisBloomFilter.create(SERVER.adapter(Client.JEDIS), "cross:filter",
        Funnels.stringFunnel(), 10_000, 0.01);
    RedisBloomFilter<CharSequence> lettuce = RedisBloomFilter.attach(SERVER.adapter(Client.LETTUCE), "cross:filter",
        Funnels.stringFunnel());
    List<String> fromJedis = keys("j", 2_000);
    List<String> fromLettuce = keys("l", 2_000);
    jedis.addAll(fromJedis);
    lettuce.addAll(fromLettuce);
    assertThat(lettuce.mightContainAll(fromJedis)).containsOnly(true);
    assertThat(jedis.mightContainAll(fromLettuce)).containsOnly(true);
    assertThat(lettuce.count()).isEqualTo(jedis.count()).isEqualTo(4_000);
    assertThat(lettuce.download().bitSize()).isEqualTo(jedis.bitSize());
    assertThat(lettuce.created()).isFalse();
  }

  @Test
  void aSharedGuardServesInstancesOnBothClientsAndTheirSnapshotIsOne() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    RedisSnapshotStore overLettuce = new RedisSnapshotStore(SERVER.adapter(Client.LETTUCE), "cross:guard:snapshot");
    try (MembershipGuard<String> a = Guards.ready(Guards.over(table, "cross:guard").snapshotStore(overLettuce)
            .backend(RedisGuardBackend.of(SERVER.adapter(Client.LETTUCE))));
        MembershipGuard<String> b = Guards.sharedInstance(table, "cross:guard", SERVER.adapter(Client.JEDIS))) {
      assertThat(table.scanAllCalls.get()).as("the Jedis instance adopted the Lettuce one's filter").isEqualTo(1);
      table.insert("via-lettuce");
      a.recordInsert("via-lettuce");
      assertThat(b.mightExist("via-lettuce")).isTrue();
      table.insert("via-jedis");
      b.recordInsert("via-jedis");
      assertThat(a.mightExist("via-jedis")).isTrue();
      b.rebuildNow();
      RedisSnapshotStoreTest.assertAll(a, table);
      RedisSnapshotStoreTest.assertAll(b, table);
      assertThat(a.mightExist("never-inserted")).isFalse();
    }
    RedisSnapshotStore overJedis = new RedisSnapshotStore(SERVER.adapter(Client.JEDIS), "cross:guard:snapshot");
    assertThat(overJedis.read()).as("the snapshot written over Lettuce, read over Jedis").isPresent();
    try (MembershipGuard<String> local = Guards.ready(Guards.over(table, "cross:guard").snapshotStore(overJedis))) {
      assertThat(table.scanAfterCalls.get()).as("restarted from the snapshot").isEqualTo(1);
      RedisSnapshotStoreTest.assertAll(local, table);
    }
  }
}
