package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.Random;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * The guard's snapshot in Redis: bytes round-trip and are replaced whole; a guard restarts from it and
 * catches up from its watermark, in local and in shared mode; a damaged blob is ignored and the filter
 * rebuilt. (Redis down while saving: GuardFaultTest.)
 */
class RedisSnapshotStoreTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  private static byte[] read(RedisSnapshotStore store) throws IOException {
    Optional<InputStream> in = store.read();
    assertThat(in).as("a snapshot is stored").isPresent();
    try (InputStream stream = in.get()) {
      return stream.readAllBytes();
    }
  }

  @Test
  void bytesRoundTripAndAFailedWriteLeavesThePreviousSnapshot() throws Exception {
    RedisSnapshotStore store = new RedisSnapshotStore(SERVER.client(), "snapshot:bytes");
    assertThat(store.read()).isEmpty();
    byte[] first = new byte[300_000];
    new Random(42).nextBytes(first);
    store.write(out -> out.write(first));
    assertThat(read(store)).isEqualTo(first);

    assertThatThrownBy(() -> store.write(out -> {
      out.write(new byte[100_000]);
      throw new IOException("the guard failed half way");
    })).hasMessage("the guard failed half way");
    assertThat(read(store)).as("untouched").isEqualTo(first);
    assertThatThrownBy(() -> new RedisSnapshotStore(SERVER.client(), "")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was \"\"");
  }

  @Test
  void aGuardRestartsFromTheRedisSnapshotAndCatchesUpFromItsWatermark() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    RedisSnapshotStore store = new RedisSnapshotStore(SERVER.client(), "snapshot:local");
    Guards.ready(Guards.over(table, "users").snapshotStore(store)).close(); // close writes the snapshot
    for (int i = 1_000; i < 1_200; i++) {
      table.insert("key-" + i); // while the service was down
    }
    try (MembershipGuard<String> restarted = Guards.ready(Guards.over(table, "users").snapshotStore(store))) {
      assertThat(table.scanAllCalls.get()).as("no full scan").isEqualTo(1);
      assertThat(table.scanAfterCalls.get()).isEqualTo(1);
      assertAll(restarted, table);
      assertThat(restarted.stats().filterCount()).isBetween(1_200L, 1_201L);
    }
  }

  @Test
  void aDamagedSnapshotIsIgnoredAndTheFilterRebuilt() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    RedisClient client = SERVER.client();
    RedisSnapshotStore store = new RedisSnapshotStore(client, "snapshot:damaged");
    Guards.ready(Guards.over(table, "users").snapshotStore(store)).close();
    byte[] bytes = read(store);
    bytes[bytes.length / 2] ^= 0x10;
    try (Jedis admin = SERVER.node().admin()) {
      admin.set(store.key().getBytes(java.nio.charset.StandardCharsets.UTF_8), bytes);
    }
    try (MembershipGuard<String> restarted = Guards.ready(Guards.over(table, "users").snapshotStore(store))) {
      assertThat(table.scanAllCalls.get()).as("rebuilt from a full scan").isEqualTo(2);
      assertThat(table.scanAfterCalls.get()).isZero();
      assertAll(restarted, table);
    }
  }

  @Test
  void aSharedGuardStartsFromTheSnapshotWhenRedisHasNoLiveFilter() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    RedisClient client = SERVER.client();
    RedisSnapshotStore store = new RedisSnapshotStore(client, "snapshot:shared");
    // Instance one builds the shared filter; its snapshot is downloaded from Redis after the build.
    Guards.ready(Guards.over(table, "users").snapshotStore(store)
        .backend(RedisGuardBackend.builder(client).keyName("snapshot.first").build())).close();
    for (int i = 1_000; i < 1_100; i++) {
      table.insert("key-" + i);
    }
    // A fresh shared state (another key name, as after Redis lost the filters but kept the snapshot):
    // the snapshot is uploaded as the first generation and caught up.
    try (MembershipGuard<String> restarted = Guards.ready(Guards.over(table, "users").snapshotStore(store)
        .backend(RedisGuardBackend.builder(client).keyName("snapshot.second").build()));
        Jedis admin = SERVER.node().admin()) {
      assertThat(table.scanAllCalls.get()).as("no full scan").isEqualTo(1);
      assertThat(table.scanAfterCalls.get()).isEqualTo(1);
      assertThat(admin.hget("snapshot.second:{snapshot.second}:state", "live")).isEqualTo("1");
      assertAll(restarted, table);
      assertThat(restarted.stats().filterCount()).isBetween(1_100L, 1_101L);
    }
  }

  /** Every row is "maybe"; absent keys are "absent" (p = 1e-6). */
  static void assertAll(MembershipGuard<String> guard, TableSource table) {
    for (String key : table.keys()) {
      assertThat(guard.mightExist(key)).as(key).isTrue();
    }
    for (int i = 0; i < 100; i++) {
      assertThat(guard.mightExist("absent-" + i)).isFalse();
    }
  }
}
