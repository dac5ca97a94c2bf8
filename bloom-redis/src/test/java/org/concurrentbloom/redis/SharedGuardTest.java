package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.concurrentbloom.ConcurrentRun;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.guard.GuardFilters;
import org.concurrentbloom.guard.GuardSpec;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * Two application instances (each its own guard and Redis client, in their own threads) sharing one
 * guard in Redis: they see each other's inserts at once, start from the filter the first one built, and
 * switch together when either rebuilds; rebuilds run one at a time, and one abandoned by a crashed
 * instance is cleaned up by the next. Threads meet at barriers and latches; no sleeps.
 */
class SharedGuardTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  @Test
  void twoInstancesSeeEachOthersInsertsAsSoonAsTheyAreRecorded() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    try (MembershipGuard<String> a = Guards.sharedInstance(table, "shared.visible", SERVER.client());
        MembershipGuard<String> b = Guards.sharedInstance(table, "shared.visible", SERVER.client())) {
      assertThat(table.scanAllCalls.get()).as("the second instance adopts the first one's filter").isEqualTo(1);
      assertThat(b.mightExist("key-7")).isTrue();
      assertThat(b.mightExist("absent")).isFalse();

      int rounds = 200;
      CyclicBarrier recorded = new CyclicBarrier(2);
      CyclicBarrier checked = new CyclicBarrier(2);
      ConcurrentRun.together(List.of(() -> visibility(a, "a-", "b-", rounds, recorded, checked, table),
          () -> visibility(b, "b-", "a-", rounds, recorded, checked, table)));
      assertThat(a.stats().backendErrors()).isZero();
      assertThat(b.stats().filterCount()).isEqualTo(a.stats().filterCount()).isEqualTo(1_000 + 2L * rounds);
    }
  }

  /** Each round: insert and record an own key, wait for the other instance to do the same, check its key. */
  private static void visibility(MembershipGuard<String> mine, String own, String other, int rounds,
      CyclicBarrier recorded, CyclicBarrier checked, TableSource table) {
    try {
      for (int r = 0; r < rounds; r++) {
        table.insert(own + r);
        mine.recordInsert(own + r);
        recorded.await(30, TimeUnit.SECONDS); // the other instance's recordInsert of round r has returned
        assertThat(mine.mightExist(other + r)).as("%s sees %s%d", own, other, r).isTrue();
        checked.await(30, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aRebuildOnOneInstanceSwitchesEveryInstanceAndDeletesTheOldGeneration() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    try (MembershipGuard<String> a = Guards.sharedInstance(table, "shared.switch", SERVER.client());
        MembershipGuard<String> b = Guards.sharedInstance(table, "shared.switch", SERVER.client());
        Jedis admin = SERVER.node().admin()) {
      assertThat(admin.hget("shared.switch:{shared.switch}:state", "live")).isEqualTo("1");
      for (int i = 0; i < 50; i++) {
        table.delete("key-" + i);
        a.recordDelete("key-" + i);
      }
      assertThat(b.stats().deletesSinceRebuild()).as("counted in the shared filter").isEqualTo(50);
      assertThat(a.mightExist("key-0")).as("a Bloom filter cannot forget").isTrue();

      b.rebuildNow();

      for (int i = 0; i < 50; i++) { // p = 1e-6: answering from generation 1 would say maybe to all of them
        assertThat(a.mightExist("key-" + i)).as("instance A answers from B's new generation").isFalse();
      }
      assertThat(a.mightExist("key-50")).isTrue();
      assertThat(a.stats().deletesSinceRebuild()).isZero();
      assertThat(admin.hget("shared.switch:{shared.switch}:state", "live")).isEqualTo("2");
      assertThat(admin.hexists("shared.switch:{shared.switch}:state", "pending")).isFalse();
      assertThat(admin.exists("shared.switch:{shared.switch}:g1:bits", "shared.switch:{shared.switch}:g1:meta")).as("old generation").isZero();
      assertThat(admin.exists("shared.switch:{shared.switch}:g2:bits", "shared.switch:{shared.switch}:g2:meta")).isEqualTo(2);
    }
  }

  @Test
  void rebuildsOfTwoInstancesRunOneAtATime() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    try (MembershipGuard<String> a = Guards.sharedInstance(table, "shared.lock", SERVER.client());
        MembershipGuard<String> b = Guards.sharedInstance(table, "shared.lock", SERVER.client());
        Jedis admin = SERVER.node().admin()) {
      TableSource.Pause pause = table.pauseNextScan();
      CompletableFuture<Void> first = CompletableFuture.runAsync(a::rebuildNow);
      pause.awaitPaused(); // A holds the lock and is scanning
      long sets = setCalls(admin);
      CompletableFuture<Void> second = CompletableFuture.runAsync(b::rebuildNow);
      // B's build thread tries SET NX on the lock, finds it taken, and polls: two failed tries prove it waits.
      Await.until("B tried the lock twice", Duration.ofSeconds(10), () -> setCalls(admin) >= sets + 2);
      assertThat(second).isNotDone();
      pause.resume();
      first.get(30, TimeUnit.SECONDS);
      second.get(30, TimeUnit.SECONDS);
      assertThat(table.maxConcurrentScans.get()).as("scans never overlapped").isEqualTo(1);
      assertThat(table.scanAllCalls.get()).isEqualTo(3);
      assertThat(admin.hget("shared.lock:{shared.lock}:state", "live")).isEqualTo("3");
      assertThat(admin.exists("shared.lock:{shared.lock}:lock")).as("released").isFalse();
    }
  }

  @Test
  void aRebuildAbandonedByACrashedInstanceIsCleanedUpByTheNext() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    try (MembershipGuard<String> a = Guards.sharedInstance(table, "shared.crash", SERVER.client());
        Jedis admin = SERVER.node().admin()) {
      // Another instance starts a rebuild and dies mid-scan: its lock (a short lease) and its pending
      // generation stay behind.
      GuardSpec<String> spec = new GuardSpec<>("shared.crash", Funnels.stringFunnel(), 20_000, 1e-6, FilterType.STANDARD,
          Long.MAX_VALUE, 0.1, () -> { });
      GuardFilters<String> crashed = RedisGuardBackend.builder(SERVER.client()).lockLease(Duration.ofMillis(300))
          .<String>build().open(spec);
      crashed.rebuild().begin(20_000).add("only-in-the-abandoned-generation");
      assertThat(admin.hget("shared.crash:{shared.crash}:state", "pending")).isEqualTo("2");

      table.insert("recorded-meanwhile");
      a.recordInsert("recorded-meanwhile"); // goes to the live and the abandoned pending generation
      assertThat(a.mightExist("recorded-meanwhile")).isTrue();

      a.rebuildNow(); // waits out the dead instance's lease, replaces and deletes its generation

      assertThat(admin.hget("shared.crash:{shared.crash}:state", "live")).isEqualTo("3");
      assertThat(admin.hexists("shared.crash:{shared.crash}:state", "pending")).isFalse();
      assertThat(admin.exists("shared.crash:{shared.crash}:g2:bits", "shared.crash:{shared.crash}:g2:meta")).as("abandoned generation").isZero();
      assertThat(admin.exists("shared.crash:{shared.crash}:g1:bits", "shared.crash:{shared.crash}:g1:meta")).as("replaced generation").isZero();
      assertThat(a.mightExist("recorded-meanwhile")).isTrue();
      assertThat(a.mightExist("only-in-the-abandoned-generation")).isFalse();
    }
  }

  /** How many SET commands the server has run (the lock is taken with SET NX PX). */
  private static long setCalls(Jedis admin) {
    for (String line : admin.info("commandstats").split("\r?\n", -1)) {
      if (line.startsWith("cmdstat_set:")) {
        return Long.parseLong(line.replaceAll("^cmdstat_set:calls=(\\d+),.*$", "$1"));
      }
    }
    return 0;
  }
}
