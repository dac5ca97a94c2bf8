package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;

/**
 * A backend that fails (as a shared store that is down does) never makes the guard answer "absent":
 * failed checks answer "maybe", a failed insert throws and degrades the guard to "maybe" for every key
 * until a rebuild that began after the failure is published, and only such a rebuild ends it. The
 * backend here is the local one behind a switch that makes every call throw.
 */
class BackendFailureTest {
  private final ManualScheduler scheduler = new ManualScheduler();

  /** The local filters; while {@link #down} is set, every call throws as an unreachable store would. */
  private static final class SwitchedFilters<K> implements GuardFilters<K> {
    private final LocalFilters<K> local;
    volatile boolean down;

    SwitchedFilters(GuardSpec<K> spec) {
      this.local = new LocalFilters<>(spec, true);
    }

    private void check() {
      if (down) {
        throw new IllegalStateException("backend down");
      }
    }

    @Override
    public boolean mightContain(K key) {
      check();
      return local.mightContain(key);
    }

    @Override
    public boolean add(K key) {
      check();
      return local.add(key);
    }

    @Override
    public boolean countDelete() {
      check();
      return local.countDelete();
    }

    @Override
    public Optional<Live> live() {
      check();
      return local.live();
    }

    @Override
    public Optional<Image<K>> image() {
      check();
      return local.image();
    }

    @Override
    public Rebuild<K> rebuild() {
      check();
      return local.rebuild();
    }

    @Override
    public void close() {
      local.close();
    }
  }

  private SwitchedFilters<String> filters;

  private MembershipGuard<String> guardOver(TableSource table) throws InterruptedException {
    MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table).scheduler(scheduler)
        .expectedInsertions(10_000).fpp(1e-6)
        .backend(spec -> filters = new SwitchedFilters<>(spec))
        .build();
    assertThat(guard.awaitReady(Duration.ofSeconds(30))).isTrue();
    return guard;
  }

  private static TableSource tableWith(int keys) {
    TableSource table = new TableSource(false);
    for (int i = 0; i < keys; i++) {
      table.insert("key-" + i);
    }
    return table;
  }

  @Test
  void failedChecksAreMaybeAndAFailedInsertDegradesTheGuardUntilARebuildCoversIt() throws Exception {
    TableSource table = tableWith(1_000);
    try (MembershipGuard<String> guard = guardOver(table)) {
      assertThat(guard.mightExist("absent")).isFalse();

      filters.down = true;
      assertThat(guard.mightExist("absent")).as("a failed check is maybe").isTrue();
      guard.recordDelete("key-1"); // not counted, not thrown: it only delays a rebuild
      table.insert("unrecorded");
      assertThatThrownBy(() -> guard.recordInsert("unrecorded")).isInstanceOf(IllegalStateException.class)
          .hasMessage("backend down");
      GuardStats s = guard.stats();
      assertThat(s.backendErrors()).isEqualTo(3);
      assertThat(s.failedInserts()).isEqualTo(1);
      assertThat(s.degraded()).isTrue();
      assertThat(s.lastBackendError()).isEqualTo("java.lang.IllegalStateException: backend down");

      // The rebuild the failed insert asked for fails too while the backend is down, and is retried.
      ManualScheduler.Delayed retry = scheduler.awaitDelayed();
      filters.down = false;
      assertThat(guard.mightExist("absent")).as("degraded: maybe even with the backend back").isTrue();
      assertThat(guard.mightExist("unrecorded")).isTrue();
      assertThat(guard.stats().degraded()).isTrue();

      int scans = table.scanAllCalls.get();
      scheduler.fire(retry);
      scheduler.drain(); // the retry ran and queued its build...
      scheduler.drain(); // ...which ran
      assertThat(table.scanAllCalls.get()).as("the retry scans: its scan began after the failure").isEqualTo(scans + 1);
      s = guard.stats();
      assertThat(s.degraded()).isFalse();
      assertThat(s.failedInserts()).isEqualTo(1);
      assertThat(guard.mightExist("unrecorded")).as("in the rebuilt filter").isTrue();
      assertThat(guard.mightExist("absent")).isFalse();
    }
  }

  @Test
  void aRebuildThatBeganBeforeTheFailureDoesNotEndTheDegradation() throws Exception {
    TableSource table = tableWith(1_000);
    try (MembershipGuard<String> guard = guardOver(table)) {
      CountDownLatch[] scanning = {new CountDownLatch(1), new CountDownLatch(1)};
      CountDownLatch[] resume = {new CountDownLatch(1), new CountDownLatch(1)};
      AtomicInteger scans = new AtomicInteger();
      table.midScan = () -> { // holds the next two scans, each after it took its snapshot
        int n = scans.getAndIncrement();
        if (n < 2) {
          scanning[n].countDown();
          Latches.await(resume[n]);
        }
      };
      CompletableFuture<Void> rebuild = CompletableFuture.runAsync(guard::rebuildNow);
      Latches.await(scanning[0]); // "late" commits after this scan's snapshot
      table.insert("late");
      filters.down = true;
      assertThatThrownBy(() -> guard.recordInsert("late")).isInstanceOf(IllegalStateException.class);
      filters.down = false;
      resume[0].countDown();
      rebuild.get(30, TimeUnit.SECONDS);

      // The rebuild the failed insert asked for is scanning; the one before it published a filter
      // without "late", and must not have ended the degradation.
      Latches.await(scanning[1]);
      assertThat(filters.local.liveForTest().filter.mightContain("late")).as("p = 1e-6: no false positive")
          .isFalse();
      assertThat(guard.stats().degraded()).isTrue();
      assertThat(guard.mightExist("late")).isTrue();
      resume[1].countDown();
      scheduler.drain();
      assertThat(guard.stats().degraded()).isFalse();
      assertThat(guard.stats().rebuilds()).isEqualTo(3);
      assertThat(guard.mightExist("late")).isTrue();
      assertThat(guard.mightExist("absent")).isFalse();
    }
  }
}
