package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.RedisSnapshotStoreTest.assertAll;

import java.time.Duration;
import org.concurrentbloom.guard.GuardStats;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A guard whose Redis crashes (SIGKILL), restarts without its data, or freezes (SIGSTOP): checks answer
 * "maybe", never "absent"; an insert that cannot be recorded throws and leaves the guard answering
 * "maybe" until a rebuild after the outage covers it; a snapshot that cannot be saved is counted and
 * the guard serves on. The server keeps no data across a restart (no AOF), as after a total loss.
 * Each case runs over both clients.
 */
@Tag("jdk-independent") // the guard's policy on faults; the clients' fault paths run in FaultTest (.ci/run)
class GuardFaultTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  @AfterEach
  void serverBack() throws Exception {
    if (!SERVER.node().isAlive()) {
      SERVER.node().restart();
    }
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aCrashedRedisMeansMaybeAndAnUnrecordedInsertDegradesTheGuardUntilTheRebuildAfterIt(Client client) throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    try (MembershipGuard<String> guard = Guards.sharedInstance(table, "fault.crash." + client, SERVER.adapter(client, Duration.ofSeconds(1)))) {
      assertThat(guard.mightExist("absent")).isFalse();

      SERVER.node().kill();
      assertThat(guard.mightExist("absent")).as("Redis down: maybe").isTrue();
      guard.recordDelete("key-1"); // not counted, not thrown
      table.insert("during-outage");
      assertThatThrownBy(() -> guard.recordInsert("during-outage")).isInstanceOf(RedisFilterException.class);
      GuardStats s = guard.stats();
      assertThat(s.ready()).isFalse();
      assertThat(s.backendErrors()).isGreaterThanOrEqualTo(3);
      assertThat(s.failedInserts()).isEqualTo(1);
      assertThat(s.degraded()).isTrue();
      assertThat(s.lastBackendError()).contains(RedisFilterException.class.getName());
      // The rebuild the failed insert asked for fails while Redis is down, and is retried with backoff.
      Await.until("a rebuild failed", DEADLINE, () -> guard.stats().rebuildFailures() >= 1);

      SERVER.node().restart(); // empty: the shared state and filters are gone
      Await.until("a rebuild covered the failed insert", DEADLINE, () -> !guard.stats().degraded());
      assertThat(guard.stats().ready()).isTrue();
      assertThat(guard.mightExist("during-outage")).isTrue();
      assertAll(guard, table);
    }
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void redisRestartedWithoutItsDataIsNoticedAndTheFilterRebuilt(Client client) throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    try (MembershipGuard<String> guard = Guards.sharedInstance(table, "fault.lost." + client, SERVER.adapter(client, Duration.ofSeconds(1)))) {
      SERVER.node().kill();
      SERVER.node().restart();
      // The first checks meet the dead connections or the missing state: maybe, and the guard is told.
      Await.until("the lost filter was rebuilt", DEADLINE, () -> {
        guard.mightExist("absent");
        return guard.stats().ready();
      });
      assertThat(table.scanAllCalls.get()).as("rebuilt by a scan").isGreaterThanOrEqualTo(2);
      assertThat(guard.stats().degraded()).isFalse();
      assertAll(guard, table);
    }
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aFrozenRedisTimesOutAsMaybe(Client client) throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    // A short lease: a lock request sent before the freeze may be applied after it, for no one.
    RedisGuardBackend<String> backend = RedisGuardBackend.builder(SERVER.adapter(client, Duration.ofMillis(300)))
        .lockLease(Duration.ofSeconds(1)).build();
    try (MembershipGuard<String> guard = Guards.ready(Guards.over(table, "fault.frozen." + client).backend(backend))) {
      SERVER.node().signal("STOP");
      try {
        assertThat(guard.mightExist("absent")).as("timed out: maybe").isTrue();
        table.insert("while-frozen");
        assertThatThrownBy(() -> guard.recordInsert("while-frozen")).isInstanceOf(RedisFilterException.class)
            .rootCause().isInstanceOfAny(java.net.SocketTimeoutException.class,
                io.lettuce.core.RedisCommandTimeoutException.class);
        assertThat(guard.stats().degraded()).isTrue();
      } finally {
        SERVER.node().signal("CONT");
      }
      Await.until("a rebuild covered the failed insert", DEADLINE, () -> !guard.stats().degraded());
      assertThat(guard.mightExist("while-frozen")).isTrue();
      assertAll(guard, table);
    }
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void redisDownWhileSavingASnapshotIsCountedAndTheGuardServesOn(Client client) throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    RedisSnapshotStore store = new RedisSnapshotStore(SERVER.adapter(client, Duration.ofSeconds(1)), "fault:snapshot:" + client);
    try (MembershipGuard<String> guard = Guards.ready(Guards.over(table, "fault.snapshot." + client).snapshotStore(store))) {
      assertThat(store.read()).as("written after the first build").isPresent();
      SERVER.node().kill();
      table.insert("after-the-crash");
      guard.recordInsert("after-the-crash"); // the filters are local: only the snapshot needs Redis
      guard.rebuildNow();
      GuardStats s = guard.stats();
      assertThat(s.rebuildFailures()).isZero();
      assertThat(s.rebuilds()).isEqualTo(2);
      assertThat(s.snapshotFailures()).isEqualTo(1);
      assertThat(s.lastSnapshotError()).contains("fault:snapshot:" + client);
      assertThat(s.backendErrors()).isZero();
      assertAll(guard, table);
    }
  }
}
