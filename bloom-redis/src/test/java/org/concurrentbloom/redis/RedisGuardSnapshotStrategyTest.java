package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.SnapshotStore;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * Guard snapshots across hash strategies on a real redis-server. Redis scripts set the bits of strategy
 * 1, so a Redis-backed guard must not adopt the strategy-4 filter an in-memory guard writes: it ignores
 * that snapshot and scans the source. A Redis-backed guard's own snapshot (strategy 1) is still adopted.
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
  void anInMemoryGuardsStrategyFourSnapshotIsIgnoredAndTheRedisGuardScansTheSource() throws Exception {
    TableSource table = TableSource.of("key-", 5_000);
    RedisSnapshotStore store = new RedisSnapshotStore(SERVER.client(), "strategy:snapshot:local");
    Guards.ready(Guards.over(table, "users").snapshotStore(store)).close(); // in memory: close writes the snapshot
    assertThat(snapshotStrategy(store)).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(table.scanAllCalls.get()).isEqualTo(1);
    for (int i = 5_000; i < 5_300; i++) {
      table.insert("key-" + i); // after the snapshot: a catch-up would scan only these
    }

    try (MembershipGuard<String> guard = Guards.ready(redisBacked(table, store, "strategy.ignored"))) {
      assertThat(table.scanAllCalls.get()).as("a full scan instead of the snapshot").isEqualTo(2);
      assertThat(table.scanAfterCalls.get()).as("no catch-up of the refused snapshot").isZero();
      assertNoFalseNegatives(guard, table);
      for (int i = 0; i < 100; i++) {
        assertThat(guard.mightExist("absent-" + i)).isFalse();
      }
      assertThat(guard.stats().filterCount()).isEqualTo(5_300);
    }
    assertThat(snapshotStrategy(store)).as("the Redis guard's own snapshot replaced it")
        .isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
  }

  @Test
  void aRedisGuardsStrategyOneSnapshotIsAdoptedByARedisGuard() throws Exception {
    TableSource table = TableSource.of("key-", 3_000);
    RedisSnapshotStore store = new RedisSnapshotStore(SERVER.client(), "strategy:snapshot:shared");
    Guards.ready(redisBacked(table, store, "strategy.first")).close();
    assertThat(snapshotStrategy(store)).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    for (int i = 3_000; i < 3_200; i++) {
      table.insert("key-" + i);
    }
    // Another key name: no live filter in Redis, so the guard starts from the snapshot.
    try (MembershipGuard<String> guard = Guards.ready(redisBacked(table, store, "strategy.second"))) {
      assertThat(table.scanAllCalls.get()).as("adopted: no second full scan").isEqualTo(1);
      assertThat(table.scanAfterCalls.get()).as("caught up from its watermark").isEqualTo(1);
      assertNoFalseNegatives(guard, table);
      assertThat(guard.stats().filterCount()).isBetween(3_200L, 3_201L);
    }
  }
}
