package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.OptionalLong;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.SnapshotStore;
import org.concurrentbloom.guard.Snapshots;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * Guard snapshots across hash strategies on a real redis-server. Redis generations keep the strategy
 * of their filter (4, the default, for a new one; 1 for one from an older snapshot), so a Redis-backed
 * guard adopts the snapshot an in-memory guard writes (strategy 4) and one written before strategy 4
 * (strategy 1) alike, and catches up from the watermark instead of scanning the source. Before, Redis
 * kept strategy 1 only, and a default snapshot cost a full scan.
 */
class RedisGuardSnapshotStrategyTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  /** The envelope's fixed bytes before the name (SnapshotCodec): the name's length is their last two. */
  private static final int ENVELOPE_FIXED_BYTES = 50;
  private static final int CRC_BYTES = 4;

  /** The hash strategy of the filter in the stored snapshot, read past the envelope with the core reader. */
  private static HashStrategy snapshotStrategy(SnapshotStore store) throws IOException {
    Optional<InputStream> stored = store.read();
    assertThat(stored).as("a snapshot is stored").isPresent();
    try (DataInputStream in = new DataInputStream(stored.get())) {
      byte[] fixed = new byte[ENVELOPE_FIXED_BYTES];
      in.readFully(fixed);
      int nameLength = ((fixed[ENVELOPE_FIXED_BYTES - 2] & 0xFF) << 8) | (fixed[ENVELOPE_FIXED_BYTES - 1] & 0xFF);
      in.readFully(new byte[nameLength + CRC_BYTES]);
      return BloomFilter.readFrom(in, Funnels.stringFunnel()).hashStrategy();
    }
  }

  private static MembershipGuard.Builder<String> redisBacked(TableSource table, SnapshotStore store, String keyName) {
    RedisClient client = SERVER.client();
    return Guards.over(table, "users").snapshotStore(store)
        .backend(RedisGuardBackend.builder(client).keyName(keyName).build());
  }

  private static void assertNoFalseNegatives(MembershipGuard<String> guard, TableSource table) {
    for (String key : table.keys()) {
      assertThat(guard.mightExist(key)).as(key).isTrue();
    }
  }

  @Test
  void anInMemoryGuardsDefaultSnapshotIsAdoptedByARedisGuardWithoutAScan() throws Exception {
    TableSource table = TableSource.of("key-", 5_000);
    RedisSnapshotStore store = new RedisSnapshotStore(SERVER.client(), "strategy:snapshot:local");
    Guards.ready(Guards.over(table, "users").snapshotStore(store)).close(); // in memory: close writes the snapshot
    assertThat(snapshotStrategy(store)).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(table.scanAllCalls.get()).isEqualTo(1);
    for (int i = 5_000; i < 5_300; i++) {
      table.insert("key-" + i); // after the snapshot: the catch-up scans only these
    }

    try (MembershipGuard<String> guard = Guards.ready(redisBacked(table, store, "strategy.local"))) {
      assertThat(table.scanAllCalls.get()).as("no second full scan: the snapshot was adopted").isEqualTo(1);
      assertThat(table.scanAfterCalls.get()).as("caught up from its watermark").isEqualTo(1);
      assertNoFalseNegatives(guard, table);
      for (int i = 0; i < 100; i++) {
        assertThat(guard.mightExist("absent-" + i)).isFalse();
      }
      assertThat(guard.stats().filterCount()).isBetween(5_300L, 5_301L);
    }
    assertThat(snapshotStrategy(store)).as("the Redis guard's own snapshot keeps the default strategy")
        .isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
  }

  @Test
  void aSnapshotOfStrategyOneStillLoadsAndAnswersInRedis() throws Exception {
    TableSource table = TableSource.of("key-", 3_000);
    RedisSnapshotStore store = new RedisSnapshotStore(SERVER.client(), "strategy:snapshot:old");
    // What an older version wrote: a strategy-1 filter of the table, watermark at row 3,000.
    BloomFilter<CharSequence> old = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(20_000).fpp(1e-6)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    for (String key : table.keys()) {
      old.add(key);
    }
    Snapshots.store(store, "users", 20_000, 1e-6, OptionalLong.of(table.keys().size()), old);
    for (int i = 3_000; i < 3_200; i++) {
      table.insert("key-" + i);
    }
    try (MembershipGuard<String> guard = Guards.ready(redisBacked(table, store, "strategy.old"))) {
      assertThat(table.scanAllCalls.get()).as("adopted: no full scan").isZero();
      assertThat(table.scanAfterCalls.get()).as("caught up from its watermark").isEqualTo(1);
      assertNoFalseNegatives(guard, table);
      for (int i = 0; i < 100; i++) {
        assertThat(guard.mightExist("absent-" + i)).isFalse();
      }
      // An insert recorded now lands in the strategy-1 generation at strategy 1's offsets.
      table.insert("late");
      guard.recordInsert("late");
      assertThat(guard.mightExist("late")).isTrue();
    }
  }
}
