package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarting from a snapshot: a valid one is loaded and caught up from its watermark; one that is
 * corrupt, of another shape or name, or that cannot be caught up is ignored and the filter rebuilt.
 */
class SnapshotRestartTest {
  @TempDir
  Path dir;

  /** Each guard gets its own: closing a guard shuts its scheduler down. */
  private ManualScheduler scheduler;

  private MembershipGuard<String> start(TableSource table, long n, double p, String name) throws Exception {
    scheduler = new ManualScheduler();
    MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table).scheduler(scheduler)
        .name(name).expectedInsertions(n).fpp(p).snapshotStore(new FileSnapshotStore(dir.resolve("g.snapshot")))
        .build();
    assertThat(guard.awaitReady(Duration.ofSeconds(30))).isTrue();
    return guard;
  }

  /** Writes a snapshot of a table of keys 0..999 and closes that guard. */
  private TableSource writeSnapshot(boolean watermark) throws Exception {
    TableSource table = new TableSource(watermark);
    for (int i = 0; i < 1_000; i++) {
      table.insert("key-" + i);
    }
    start(table, 10_000, 1e-6, "users").close();
    assertThat(dir.resolve("g.snapshot")).exists();
    return table;
  }

  private static void assertAllPresent(MembershipGuard<String> guard, int from, int to) {
    for (int i = from; i < to; i++) {
      assertThat(guard.mightExist("key-" + i)).as("key-%d", i).isTrue();
    }
  }

  @Test
  void aValidSnapshotIsLoadedAndCaughtUpFromItsWatermark() throws Exception {
    TableSource table = writeSnapshot(true);
    for (int i = 1_000; i < 1_200; i++) {
      table.insert("key-" + i); // while the service was down
    }
    int fullScans = table.scanAllCalls.get();
    table.midScan = () -> { // an insert recorded during the catch-up must survive it
      table.midScan = () -> { };
      table.insert("during-catch-up");
    };
    try (MembershipGuard<String> guard = start(table, 10_000, 1e-6, "users")) {
      assertThat(table.scanAllCalls.get()).as("no full scan").isEqualTo(fullScans);
      assertThat(table.scanAfterCalls.get()).isEqualTo(1);
      assertAllPresent(guard, 0, 1_200);
      assertThat(guard.mightExist("key-5000")).isFalse();
      assertThat(guard.stats().filterCount()).isBetween(1_200L, 1_201L);
    }
  }

  @Test
  void aCorruptSnapshotIsIgnoredAndTheFilterRebuilt() throws Exception {
    TableSource table = writeSnapshot(true);
    Path file = dir.resolve("g.snapshot");
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(file, bytes);
    assertRebuiltFromScratch(table, 10_000, 1e-6, "users");
  }

  @Test
  void aTruncatedSnapshotIsIgnored() throws Exception {
    TableSource table = writeSnapshot(true);
    Path file = dir.resolve("g.snapshot");
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 1));
    assertRebuiltFromScratch(table, 10_000, 1e-6, "users");
  }

  @Test
  void aSnapshotOfAnotherShapeOrNameIsIgnored() throws Exception {
    TableSource table = writeSnapshot(true);
    assertRebuiltFromScratch(table, 20_000, 1e-6, "users");
    writeSnapshot(true);
    assertRebuiltFromScratch(table, 10_000, 1e-3, "users");
    writeSnapshot(true);
    assertRebuiltFromScratch(table, 10_000, 1e-6, "orders");
  }

  @Test
  void aSnapshotThatCannotBeCaughtUpIsIgnored() throws Exception {
    TableSource table = writeSnapshot(false);
    assertRebuiltFromScratch(table, 10_000, 1e-6, "users");
  }

  @Test
  void aFailingCatchUpPublishesNothingAndRetries() throws Exception {
    TableSource table = writeSnapshot(true);
    table.insert("key-after-snapshot");
    table.failuresToInject.set(1);
    scheduler = new ManualScheduler();
    try (MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table)
        .scheduler(scheduler).name("users").expectedInsertions(10_000).fpp(1e-6)
        .snapshotStore(new FileSnapshotStore(dir.resolve("g.snapshot"))).build()) {
      ManualScheduler.Delayed retry = scheduler.awaitDelayed();
      assertThat(guard.stats().ready()).as("the snapshot alone may lack keys: not published").isFalse();
      assertThat(guard.mightExist("key-after-snapshot")).isTrue();
      assertThat(guard.mightExist("absent")).isTrue();
      scheduler.fire(retry);
      assertThat(guard.awaitReady(Duration.ofSeconds(30))).isTrue();
      assertThat(guard.mightExist("key-after-snapshot")).isTrue();
      assertThat(guard.mightExist("absent")).isFalse();
      assertThat(table.scanAfterCalls.get()).isEqualTo(2);
    }
  }

  @Test
  void restartsAgainstARealDatabaseWithAnIdWatermark() throws Exception {
    try (H2Users db = new H2Users()) {
      db.seed("old", 5_000);
      FileSnapshotStore store = new FileSnapshotStore(dir.resolve("h2.snapshot"));
      MembershipGuard<String> first = MembershipGuard.builder(Funnels.stringFunnel(), db.source())
          .name("users").expectedInsertions(20_000).fpp(1e-6).snapshotStore(store).build();
      assertThat(first.awaitReady(Duration.ofSeconds(30))).isTrue();
      first.close();
      db.seed("new", 3_000);
      try (Connection c = db.dataSource.getConnection()) {
        assertThat(H2Users.insert(c, "old7@example.com")).isFalse();
      }
      try (MembershipGuard<String> second = MembershipGuard.builder(Funnels.stringFunnel(), db.source())
          .name("users").expectedInsertions(20_000).fpp(1e-6).snapshotStore(store).build()) {
        assertThat(second.awaitReady(Duration.ofSeconds(30))).isTrue();
        for (int i = 0; i < 5_000; i++) {
          assertThat(second.mightExist("old" + i + "@example.com")).isTrue();
        }
        for (int i = 0; i < 3_000; i++) {
          assertThat(second.mightExist("new" + i + "@example.com")).isTrue();
        }
        assertThat(second.stats().filterCount()).isEqualTo(8_000);
      }
    }
  }

  private void assertRebuiltFromScratch(TableSource table, long n, double p, String name) throws Exception {
    int fullScans = table.scanAllCalls.get();
    int catchUps = table.scanAfterCalls.get();
    try (MembershipGuard<String> guard = start(table, n, p, name)) {
      assertThat(table.scanAllCalls.get()).as("a full scan").isEqualTo(fullScans + 1);
      assertThat(table.scanAfterCalls.get()).as("no catch-up").isEqualTo(catchUps);
      assertAllPresent(guard, 0, 1_000);
    }
    deleteSnapshotIfAny();
  }

  private void deleteSnapshotIfAny() throws IOException {
    Files.deleteIfExists(dir.resolve("g.snapshot"));
  }
}
