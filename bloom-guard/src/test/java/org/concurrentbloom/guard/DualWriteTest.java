package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dual-write window, arranged deterministically: a rebuild's scan is stopped with latches after it
 * took its snapshot of the source, a key is committed and recorded, and the scan resumes. The scan
 * cannot see the key, so only the dual write keeps it; with the dual write off, the key is lost (a
 * false negative), which shows the test can fail.
 */
class DualWriteTest {

  @ParameterizedTest(name = "dual write {0}")
  @ValueSource(booleans = {true, false})
  void anInsertRecordedWhileTheScanRunsIsInTheNewFilter(boolean dualWrite) throws Exception {
    TableSource table = new TableSource(false);
    for (int i = 0; i < 1000; i++) {
      table.insert("old-" + i);
    }
    ManualScheduler scheduler = new ManualScheduler();
    try (MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table)
        .expectedInsertions(10_000).fpp(1e-6).scheduler(scheduler).dualWriteForTest(dualWrite).build()) {
      assertThat(guard.awaitReady(Duration.ofSeconds(30))).isTrue();
      assertThat(guard.mightExist("late")).isFalse();

      CountDownLatch scanning = new CountDownLatch(1);
      CountDownLatch resume = new CountDownLatch(1);
      table.midScan = () -> {
        scanning.countDown();
        Latches.await(resume);
      };
      CompletableFuture<Void> rebuild = CompletableFuture.runAsync(guard::rebuildNow);
      Latches.await(scanning); // the scan has its snapshot: "late" commits after it
      assertThat(table.insert("late")).isTrue();
      guard.recordInsert("late");
      assertThat(guard.mightExist("late")).as("in the live filter at once").isTrue();
      resume.countDown();
      rebuild.get(30, TimeUnit.SECONDS);

      assertThat(table.scanAllCalls).hasValue(2);
      assertThat(guard.mightExist("old-7")).isTrue();
      // p = 1e-6: with the dual write off, "late" is absent from the new filter, not a false positive.
      assertThat(guard.mightExist("late")).as("recorded during the scan, after the swap").isEqualTo(dualWrite);
    }
  }
}
