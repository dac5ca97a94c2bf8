package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MembershipGuardTest {
  private final ManualScheduler scheduler = new ManualScheduler();

  private MembershipGuard.Builder<String> guardOver(TableSource table) {
    return MembershipGuard.builder(Funnels.stringFunnel(), table).scheduler(scheduler);
  }

  private static TableSource tableWith(int keys) {
    TableSource table = new TableSource(true);
    for (int i = 0; i < keys; i++) {
      table.insert("key-" + i);
    }
    return table;
  }

  private static void ready(MembershipGuard<?> guard) throws InterruptedException {
    assertThat(guard.awaitReady(Duration.ofSeconds(30))).as("ready").isTrue();
  }

  @Test
  void answersAbsentOnlyForKeysNotInTheSourceAtAboutTheTargetRate() throws Exception {
    TableSource table = tableWith(10_000);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(10_000).fpp(0.01).build()) {
      ready(guard);
      for (int i = 0; i < 10_000; i++) {
        assertThat(guard.mightExist("key-" + i)).isTrue();
      }
      int probes = 100_000;
      int maybe = 0;
      for (int i = 0; i < probes; i++) {
        if (guard.mightExist("absent-" + i)) {
          maybe++;
        }
      }
      // p = 1%, n = 100,000: SE = 0.031%; 1.1 p + 3 SE = 1.19% (the bloom-core bound), >99.8% confidence.
      assertThat((double) maybe / probes).isBetween(0.0, 0.0119);
      GuardStats s = guard.stats();
      assertThat(s.checks()).isEqualTo(10_000 + probes);
      assertThat(s.positives()).isEqualTo(10_000 + maybe);
      assertThat(s.definiteNegatives()).isEqualTo(probes - maybe);
      assertThat(s.ready()).isTrue();
      assertThat(s.filterCapacity()).isEqualTo(10_000);
      assertThat(s.filterCount()).isBetween(9_900L, 10_000L);
      assertThat(s.rebuilds()).isEqualTo(1);
      assertThat(s.lastRebuildAt()).isNotNull();
      assertThat(s.lastRebuildDuration()).isPositive();
      assertThat(s.lastError()).isNull();
    }
  }

  @Test
  void checkAsksTheSourceOnlyOnMaybeAndCountsConfirmedFalsePositives() throws Exception {
    TableSource table = tableWith(1_000);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(1_000).fpp(0.05).build()) {
      ready(guard);
      AtomicInteger lookups = new AtomicInteger();
      MembershipGuard.Lookup<String, RuntimeException> db = key -> {
        lookups.incrementAndGet();
        return table.contains(key);
      };
      int present = 0;
      for (int i = 0; i < 1_000; i++) {
        if (guard.check("key-" + i, db)) {
          present++;
        }
      }
      int absentAnsweredTrue = 0;
      for (int i = 0; i < 20_000; i++) {
        if (guard.check("other-" + i, db)) {
          absentAnsweredTrue++;
        }
      }
      GuardStats s = guard.stats();
      assertThat(present).isEqualTo(1_000);
      assertThat(absentAnsweredTrue).isZero();
      assertThat(s.lookups()).isEqualTo(lookups.get()).isEqualTo(s.positives());
      assertThat(s.falsePositives()).isEqualTo(lookups.get() - 1_000L).isPositive();
      assertThat(s.observedFpr()).isEqualTo((double) s.falsePositives() / 20_000);
      assertThat(s.observedFpr()).isBetween(0.03, 0.07); // p = 5%, SE = 0.15%
      assertThat(s.savedFraction()).isEqualTo((double) s.definiteNegatives() / 21_000);
    }
  }

  @Test
  void sourceDownAtStartMeansEveryCheckIsMaybeAndRetriesBackOffToTheCap() throws Exception {
    TableSource table = tableWith(100);
    table.failuresToInject.set(3);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(1_000)
        .retryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(3)).build()) {
      List<Duration> delays = new ArrayList<>();
      for (int attempt = 1; attempt <= 3; attempt++) {
        ManualScheduler.Delayed retry = scheduler.awaitDelayed();
        delays.add(retry.delay());
        GuardStats s = guard.stats();
        assertThat(s.ready()).isFalse();
        assertThat(s.consecutiveFailures()).isEqualTo(attempt);
        assertThat(s.lastError()).contains("injected source failure");
        assertThat(guard.mightExist("never-inserted")).as("no filter: every check goes to the source").isTrue();
        scheduler.fire(retry);
      }
      assertThat(delays).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));
      ready(guard);
      GuardStats s = guard.stats();
      assertThat(s.consecutiveFailures()).isZero();
      assertThat(s.rebuildFailures()).isEqualTo(3);
      assertThat(s.lastError()).contains("injected source failure");
      assertThat(guard.mightExist("key-5")).isTrue();
      assertThat(guard.mightExist("never-inserted")).isFalse();
    }
  }

  @Test
  void aFailedRebuildKeepsTheOldFilterAndNeverPublishesAPartialOne() throws Exception {
    TableSource table = tableWith(1_000);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(10_000).fpp(1e-6).build()) {
      ready(guard);
      Generation<String> before = guard.liveForTest();
      table.failuresToInject.set(1);
      table.midScan = () -> {
        if (table.insert("during-failed-scan")) {
          guard.recordInsert("during-failed-scan");
        }
      };
      assertThatThrownBy(guard::rebuildNow).isInstanceOf(RebuildException.class)
          .hasMessageContaining("injected source failure");
      assertThat(guard.liveForTest()).as("the old filter stays live").isSameAs(before);
      for (int i = 0; i < 1_000; i++) {
        assertThat(guard.mightExist("key-" + i)).isTrue();
      }
      assertThat(guard.mightExist("during-failed-scan")).isTrue();
      GuardStats s = guard.stats();
      assertThat(s.ready()).isTrue();
      assertThat(s.rebuildFailures()).isEqualTo(1);
      assertThat(s.lastError()).contains("injected source failure");
      assertThat(scheduler.awaitDelayed().delay()).isEqualTo(Duration.ofSeconds(1));
      table.midScan = () -> { };
      guard.rebuildNow();
      assertThat(guard.liveForTest()).isNotSameAs(before);
      assertThat(guard.mightExist("during-failed-scan")).isTrue();
      assertThat(guard.stats().consecutiveFailures()).isZero();
    }
  }

  @Test
  void deletesPastTheCountThresholdTriggerARebuildThatForgetsThem() throws Exception {
    TableSource table = tableWith(1_000);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(1_000).fpp(1e-6)
        .rebuildAfterDeletes(10).rebuildAfterDeleteFraction(100).build()) {
      ready(guard);
      for (int i = 0; i < 9; i++) {
        table.delete("key-" + i);
        guard.recordDelete("key-" + i);
      }
      scheduler.drain();
      assertThat(guard.stats().rebuilds()).isEqualTo(1);
      assertThat(guard.stats().deletesSinceRebuild()).isEqualTo(9);
      assertThat(guard.mightExist("key-0")).as("a Bloom filter cannot forget: stale until rebuilt").isTrue();
      table.delete("key-9");
      guard.recordDelete("key-9");
      scheduler.drain(); // the rebuild was queued by recordDelete, before this marker
      GuardStats s = guard.stats();
      assertThat(s.rebuilds()).isEqualTo(2);
      assertThat(s.deletesSinceRebuild()).isZero();
      for (int i = 0; i < 10; i++) {
        assertThat(guard.mightExist("key-" + i)).isFalse();
      }
      assertThat(guard.mightExist("key-10")).isTrue();
    }
  }

  @Test
  void deletesPastTheFractionThresholdTriggerARebuild() throws Exception {
    TableSource table = tableWith(100);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(100)
        .rebuildAfterDeleteFraction(0.25).build()) {
      ready(guard);
      for (int i = 0; i < 24; i++) {
        guard.recordDelete("key-" + i);
      }
      scheduler.drain();
      assertThat(guard.stats().rebuilds()).isEqualTo(1);
      guard.recordDelete("key-24");
      scheduler.drain();
      assertThat(guard.stats().rebuilds()).isEqualTo(2);
    }
  }

  @Test
  void aTableThatOutgrowsTheFilterGetsOneSizedUpByTheGrowthFactor() throws Exception {
    TableSource table = tableWith(100);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(200).fpp(1e-6).build()) {
      ready(guard);
      for (int i = 100; i < 250; i++) {
        table.insert("key-" + i);
        guard.recordInsert("key-" + i);
      }
      scheduler.drain();
      GuardStats s = guard.stats();
      assertThat(s.rebuilds()).isEqualTo(2);
      assertThat(s.filterCapacity()).isGreaterThanOrEqualTo(2 * 201L);
      for (int i = 0; i < 250; i++) {
        assertThat(guard.mightExist("key-" + i)).isTrue();
      }
    }
  }

  @Test
  void aTableAlreadyLargerThanConfiguredIsResizedRightAfterTheFirstBuild() throws Exception {
    TableSource table = tableWith(1_000);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(100).growthFactor(3).build()) {
      ready(guard);
      scheduler.drain();
      assertThat(guard.stats().rebuilds()).isEqualTo(2);
      assertThat(guard.stats().filterCapacity()).isGreaterThanOrEqualTo(2_900);
    }
  }

  @Test
  void scheduledRebuildsRunAfterTheInterval() throws Exception {
    TableSource table = tableWith(10);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(100)
        .rebuildEvery(Duration.ofHours(1)).build()) {
      ready(guard);
      ManualScheduler.Delayed next = scheduler.awaitDelayed();
      assertThat(next.delay()).isEqualTo(Duration.ofHours(1));
      table.insert("unrecorded"); // written by some other process, never recordInsert-ed
      scheduler.fire(next);
      assertThat(scheduler.awaitDelayed().delay()).isEqualTo(Duration.ofHours(1));
      scheduler.drain();
      assertThat(guard.stats().rebuilds()).isEqualTo(2);
      assertThat(guard.mightExist("unrecorded")).isTrue();
    }
  }

  @Test
  void requestsDuringABuildCoalesceIntoOneMoreBuild() throws Exception {
    TableSource table = tableWith(100);
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(1_000).build()) {
      ready(guard);
      TableSource.Pause pause = table.pauseNextScan();
      CompletableFuture<Void> first = CompletableFuture.runAsync(guard::rebuildNow);
      pause.awaitPaused();
      // Five requests, all made while the first build is held mid-scan (rebuildNow waits on the same
      // futures): they must coalesce into one more build.
      List<CompletableFuture<Void>> joiners = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        joiners.add(guard.requestRebuild());
      }
      assertThat(joiners).allSatisfy(f -> assertThat(f).isSameAs(joiners.get(0)));
      pause.resume();
      first.get(30, TimeUnit.SECONDS);
      joiners.get(0).get(30, TimeUnit.SECONDS);
      scheduler.drain();
      // the start, the held build, and one for all five requests made while it ran
      assertThat(table.scanAllCalls.get()).isEqualTo(3);
      assertThat(guard.stats().rebuilds()).isEqualTo(3);
    }
  }

  @Test
  void rebuildNowFromTheBuildThreadIsRefusedInsteadOfDeadlocking() throws Exception {
    TableSource table = tableWith(10);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    try (MembershipGuard<String> guard = guardOver(table).expectedInsertions(100).build()) {
      ready(guard);
      table.midScan = () -> {
        table.midScan = () -> { };
        try {
          guard.rebuildNow();
        } catch (Throwable e) {
          thrown.set(e);
        }
      };
      guard.rebuildNow();
      assertThat(thrown.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("wait for itself");
    }
  }

  @Test
  void closeWritesASnapshotAndThenEveryCheckIsMaybe(@TempDir Path dir) throws Exception {
    TableSource table = tableWith(100);
    FileSnapshotStore store = new FileSnapshotStore(dir.resolve("guard.snapshot"));
    MembershipGuard<String> guard = guardOver(table).expectedInsertions(1_000).fpp(1e-6).snapshotStore(store).build();
    ready(guard);
    assertThat(guard.mightExist("absent")).isFalse();
    Files.delete(store.file()); // written after the first build; close must write it again
    guard.close();
    guard.close(); // idempotent
    assertThat(Files.exists(store.file())).isTrue();
    assertThat(guard.mightExist("absent")).isTrue();
    assertThat(guard.stats().ready()).isFalse();
    guard.recordInsert("ignored");
    assertThatThrownBy(guard::rebuildNow).isInstanceOf(RebuildException.class).hasMessageContaining("closed");
  }

  @Test
  void builderRejectsBadValuesNamingThem() {
    TableSource table = tableWith(1);
    MembershipGuard.Builder<String> b = guardOver(table);
    assertThatThrownBy(() -> b.expectedInsertions(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> b.fpp(1.5)).hasMessageContaining("was 1.5");
    assertThatThrownBy(() -> b.growthFactor(1.0)).hasMessageContaining("was 1.0");
    assertThatThrownBy(() -> b.rebuildAfterDeletes(0)).hasMessageContaining("was 0");
    assertThatThrownBy(() -> b.rebuildAfterDeleteFraction(Double.NaN)).hasMessageContaining("was NaN");
    assertThatThrownBy(() -> b.rebuildEvery(Duration.ZERO)).hasMessageContaining("was PT0S");
    assertThatThrownBy(() -> b.retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("was PT1S");
    assertThatThrownBy(() -> b.name(" ")).hasMessageContaining("was \" \"");
    assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class).hasMessageContaining("expectedInsertions");
    assertThatThrownBy(() -> guardOver(table).expectedInsertions(1).build().check("k", null))
        .isInstanceOf(NullPointerException.class);
  }
}
