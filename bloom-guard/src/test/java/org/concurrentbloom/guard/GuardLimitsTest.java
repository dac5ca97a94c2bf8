package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edges of a guard's life: sizes no filter can have, an OutOfMemoryError in a build, a scan that
 * finds far more rows than were recorded, and a close() that cannot wait for its build.
 */
class GuardLimitsTest {
  @TempDir
  Path dir;

  @Test
  void buildRefusesASizePastTheLargestArrayNamingSizeAndLimit() {
    MembershipGuard.Builder<String> b = MembershipGuard.builder(Funnels.stringFunnel(), new TableSource(true))
        .expectedInsertions(Long.MAX_VALUE).fpp(1e-9);
    assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions=" + Long.MAX_VALUE).hasMessageContaining("fpp=1.0E-9")
        .hasMessageContaining("bits").hasMessageContaining("limit");
  }

  @Test
  void buildRefusesASizeThatFitsAnArrayButNotTheHeap() {
    long heap = Runtime.getRuntime().maxMemory();
    // AssertJ's assumeThat would load ByteBuddy, whose Unsafe use prints a warning on JDK 25.
    assumeTrue(heap < FilterBudget.MAX_BITS / 8, "a heap below the array limit");
    // One filter of three quarters of the heap: a long[] can hold it, two of them (a rebuild) cannot.
    long n = (long) (heap * 0.75 * 8 / 9.585);
    MembershipGuard.Builder<String> b = MembershipGuard.builder(Funnels.stringFunnel(), new TableSource(true))
        .expectedInsertions(n).fpp(0.01);
    assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions=" + n).hasMessageContaining("Runtime.maxMemory() = " + heap);
    assertThatThrownBy(() -> MembershipGuard.builder(Funnels.stringFunnel(), new TableSource(true))
        .expectedInsertions(n).fpp(0.01).blocked().build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Runtime.maxMemory()");
  }

  @Test
  void anOutOfMemoryErrorInABuildIsNotRetried() throws Exception {
    ManualScheduler scheduler = new ManualScheduler();
    KeySource<String> starving = new KeySource<>() {
      @Override
      public ScanResult scanAll(Consumer<? super String> sink) {
        throw new OutOfMemoryError("simulated: Java heap space");
      }
    };
    try (MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), starving)
        .scheduler(scheduler).expectedInsertions(1_000).build()) {
      scheduler.drain();
      assertThat(guard.stats().rebuildFailures()).isEqualTo(1);
      assertThat(guard.stats().lastError()).contains("OutOfMemoryError");
      assertThat(scheduler.delayedCount()).as("no retry scheduled").isZero();
      assertThatThrownBy(guard::rebuildNow).as("an explicit request still tries")
          .isInstanceOf(RebuildException.class).hasCauseInstanceOf(OutOfMemoryError.class);
      scheduler.drain();
      assertThat(scheduler.delayedCount()).isZero();
      assertThat(guard.stats().rebuildFailures()).isEqualTo(2);
    }
  }

  @Test
  void rebuildNowAfterABulkImportReturnsWithAFilterSizedForWhatTheScanSaw() throws Exception {
    TableSource table = TableSource.of("k", 10_000);
    try (MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table)
        .expectedInsertions(10_000).fpp(0.01).build()) {
      assertThat(guard.awaitReady(Duration.ofSeconds(30))).isTrue();
      for (int i = 10_000; i < 40_000; i++) {
        table.insert("k" + i); // a bulk import: no recordInsert
      }
      guard.rebuildNow();
      Generation<String> live = guard.liveForTest();
      assertThat(guard.stats().filterCount()).isEqualTo(40_000);
      assertThat(guard.stats().filterCapacity()).isGreaterThanOrEqualTo(40_000);
      BloomFilter<String> filter = live.filter;
      assertThat(filter.expectedInsertions()).isGreaterThanOrEqualTo(40_000);
      for (int i = 0; i < 40_000; i++) {
        assertThat(guard.mightExist("k" + i)).isTrue();
      }
      int falsePositives = 0;
      for (int i = 0; i < 100_000; i++) {
        if (guard.mightExist("absent-" + i)) {
          falsePositives++;
        }
      }
      assertThat(falsePositives / 100_000.0).as("observed fpp").isLessThan(0.015);
    }
  }

  @Test
  void aCloseThatCannotWaitForItsBuildSaysSoInTheLogAndTheStats() throws Exception {
    TableSource table = TableSource.of("k", 100);
    CountDownLatch scanning = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    table.midScan = () -> {
      scanning.countDown();
      awaitIgnoringInterrupts(release); // a source that does not answer interrupts, like a stuck socket
    };
    List<String> warnings = new CopyOnWriteArrayList<>();
    Logger jul = Logger.getLogger(MembershipGuard.class.getName());
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        warnings.add(r.getLevel() + " " + r.getMessage());
      }

      @Override
      public void flush() { }

      @Override
      public void close() { }
    };
    jul.addHandler(capture);
    MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table).name("stuck")
        .expectedInsertions(1_000).snapshotStore(new FileSnapshotStore(dir.resolve("stuck.snapshot")))
        .closeTimeout(Duration.ofMillis(50)).build();
    try {
      assertThat(scanning.await(30, TimeUnit.SECONDS)).isTrue();
      guard.close();
      GuardStats stats = guard.stats();
      assertThat(stats.snapshotFailures()).isEqualTo(1);
      assertThat(stats.lastSnapshotError()).contains("closeTimeout PT0.05S").contains("not written");
      assertThat(warnings).anyMatch(w -> w.startsWith("WARNING") && w.contains("guard stuck")
          && w.contains("final snapshot was not written"));
    } finally {
      jul.removeHandler(capture);
      release.countDown();
    }
  }

  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        if (!latch.await(30, TimeUnit.SECONDS)) {
          throw new AssertionError("latch not released within 30 s");
        }
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
