package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, point 6: a shared guard that is degraded (an insert it could not record) and then adopts
 * the filter another instance rebuilt must end up healthy, and must never answer "absent" for the key it
 * failed to record. Adopting alone proves nothing about that key (the other instance's scan may predate
 * it), so the adopting build replays the failed keys into the shared filter first; when it cannot (it
 * kept too few keys, or the replay fails) it scans or fails and is retried.
 *
 * <p>The shared store is simulated in this JVM: one {@link LocalFilters} that every instance reaches
 * through its own {@link Connection}, which a test can cut; {@link Store#restartEmpty} replaces it with
 * an empty one, as a Redis restarted without its data. Each instance builds on its own
 * {@link ManualScheduler}, so retries fire only when a test fires them.
 */
class DegradedAdoptionTest {
  /** One more than the failed keys a guard keeps for a replay. */
  private static final int PAST_THE_KEPT_KEYS = 10_001;

  /** The shared store: one set of filters, as Redis holds one for every instance. */
  private static final class Store {
    private volatile LocalFilters<String> filters;
    private volatile GuardSpec<String> spec;

    Connection connect(GuardSpec<String> spec) {
      if (filters == null) {
        this.spec = spec;
        filters = new LocalFilters<>(spec, true);
      }
      return new Connection(this, spec);
    }

    /** The store lost everything: no live filter, no pending one. */
    void restartEmpty() {
      filters = new LocalFilters<>(spec, true);
    }

    BloomFilter<String> liveFilter() {
      return filters.liveForTest().filter;
    }
  }

  /** One instance's way to the store. {@link #down}: every call fails; {@link #addsFail}: only adds do. */
  private static final class Connection implements GuardFilters<String> {
    private final Store store;
    private final GuardSpec<String> spec;
    volatile boolean down;
    volatile boolean addsFail;

    Connection(Store store, GuardSpec<String> spec) {
      this.store = store;
      this.spec = spec;
    }

    private void reach() {
      if (down) {
        throw new IllegalStateException("store unreachable");
      }
    }

    /** What a shared backend does when it finds the store's live filter gone: tells the guard. */
    void reportLost() {
      spec.onLiveLost().run();
    }

    @Override
    public boolean mightContain(String key) {
      reach();
      return store.filters.mightContain(key);
    }

    @Override
    public boolean add(String key) {
      reach();
      if (addsFail) {
        throw new IllegalStateException("adds failing");
      }
      return store.filters.add(key);
    }

    @Override
    public boolean countDelete() {
      reach();
      return store.filters.countDelete();
    }

    @Override
    public Optional<Live> live() {
      reach();
      return store.filters.live();
    }

    @Override
    public Optional<Image<String>> image() {
      reach();
      return store.filters.image();
    }

    @Override
    public Rebuild<String> rebuild() {
      reach();
      return store.filters.rebuild();
    }

    @Override
    public void close() {
      // the store stays, for the other instances
    }
  }

  /** One application instance: its guard, its connection to the store, its build thread. */
  private record Instance(MembershipGuard<String> guard, Connection connection, ManualScheduler scheduler)
      implements AutoCloseable {
    @Override
    public void close() {
      guard.close();
    }
  }

  /**
   * Room for the rows, the failed inserts and their replays (each add counts as a key): no growth
   * rebuild, whose scan would hide whether an adoption scanned.
   */
  private static final long CAPACITY = 50_000;

  private static Instance start(TableSource table, Store store) throws InterruptedException {
    ManualScheduler scheduler = new ManualScheduler();
    AtomicReference<Connection> connection = new AtomicReference<>();
    MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table).scheduler(scheduler)
        .name("shared").expectedInsertions(CAPACITY).fpp(1e-6)
        .backend(spec -> {
          Connection c = store.connect(spec);
          connection.set(c);
          return c;
        })
        .build();
    assertThat(guard.awaitReady(Duration.ofSeconds(30))).as("ready").isTrue();
    return new Instance(guard, connection.get(), scheduler);
  }

  /**
   * {@code key} commits; {@code b}'s connection is down while it records it, so recordInsert throws and
   * the rebuild it asks for fails. Returns that rebuild's retry, not yet fired.
   */
  private static ManualScheduler.Delayed failInsert(Instance b, TableSource table, String key) throws Exception {
    table.insert(key);
    b.connection.down = true;
    assertThatThrownBy(() -> b.guard.recordInsert(key)).isInstanceOf(IllegalStateException.class)
        .hasMessage("store unreachable");
    ManualScheduler.Delayed retry = b.scheduler.awaitDelayed();
    b.connection.down = false;
    assertThat(b.guard.stats().degraded()).isTrue();
    return retry;
  }

  /**
   * The store loses its data; {@code a} rebuilds, and its scan takes its snapshot of the table before
   * {@code b} fails to record {@code key}: {@code a}'s filter lacks the key. Returns b's pending retry.
   */
  private static ManualScheduler.Delayed rebuildOnAWhileBFails(Instance a, Instance b, TableSource table, Store store,
      String key) throws Exception {
    store.restartEmpty();
    TableSource.Pause scan = table.pauseNextScan();
    CompletableFuture<Void> rebuild = CompletableFuture.runAsync(a.guard::rebuildNow);
    scan.awaitPaused();
    ManualScheduler.Delayed retry = failInsert(b, table, key);
    scan.resume();
    rebuild.get(30, TimeUnit.SECONDS);
    assertThat(store.liveFilter().mightContain(key)).as("a's scan predates " + key + " (p = 1e-6)").isFalse();
    return retry;
  }

  @Test
  void adoptingAnotherInstancesRebuildReplaysTheFailedInsertAndEndsTheDegradation() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    Store store = new Store();
    try (Instance a = start(table, store); Instance b = start(table, store)) {
      assertThat(table.scanAllCalls.get()).as("b adopted a's first filter").isEqualTo(1);
      ManualScheduler.Delayed retry = rebuildOnAWhileBFails(a, b, table, store, "late");
      assertThat(b.guard.mightExist("late")).as("degraded: maybe").isTrue();

      b.connection.reportLost(); // b's backend finds the filter it knew gone; b's build adopts a's
      b.scheduler.drain();
      GuardStats s = b.guard.stats();
      assertThat(s.degraded()).as("degraded after adopting: %s", s).isFalse();
      assertThat(s.consecutiveFailures()).isZero();
      assertThat(s.failedInserts()).isEqualTo(1);
      assertThat(table.scanAllCalls.get()).as("b adopted, it did not scan").isEqualTo(2);
      assertThat(store.liveFilter().mightContain("late")).as("replayed into the shared filter").isTrue();
      assertThat(b.guard.mightExist("late")).isTrue();
      assertThat(a.guard.mightExist("late")).as("the replay reached the other instance too").isTrue();
      assertThat(NeverInserted.absentOf(b.guard, 200)).as("never-inserted keys b answers absent").isEqualTo(200);
      assertThat(table.keys()).as("rows b answers absent for").filteredOn(k -> !b.guard.mightExist(k)).isEmpty();

      // The retry of the rebuild that failed during the outage finds nothing to do.
      b.scheduler.fire(retry);
      b.scheduler.drain(); // the retry ran and queued nothing...
      b.scheduler.drain(); // ...or its build ran
      assertThat(table.scanAllCalls.get()).isEqualTo(2);
      assertThat(b.guard.stats().degraded()).isFalse();
    }
  }

  @Test
  void aReplayThatFailsKeepsTheGuardDegradedAndTheRetryReplaysAgain() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    Store store = new Store();
    try (Instance a = start(table, store); Instance b = start(table, store)) {
      ManualScheduler.Delayed retry = rebuildOnAWhileBFails(a, b, table, store, "late");

      b.connection.addsFail = true; // b reaches the store again, but its adds fail
      b.connection.reportLost();
      b.scheduler.drain();
      GuardStats s = b.guard.stats();
      assertThat(s.degraded()).as("the replay failed: still degraded").isTrue();
      assertThat(s.consecutiveFailures()).as("the adopting build failed").isEqualTo(2);
      assertThat(s.lastError()).contains("adds failing");
      assertThat(b.guard.mightExist("late")).as("never absent meanwhile").isTrue();
      assertThat(NeverInserted.absentOf(b.guard, 200)).as("every check is maybe while degraded").isZero();

      b.connection.addsFail = false;
      b.scheduler.fire(retry); // the one retry pending; it repeats the adopting build
      b.scheduler.drain();
      b.scheduler.drain();
      s = b.guard.stats();
      assertThat(s.degraded()).isFalse();
      assertThat(s.consecutiveFailures()).isZero();
      assertThat(table.scanAllCalls.get()).as("b adopted, it did not scan").isEqualTo(2);
      assertThat(b.guard.mightExist("late")).isTrue();
      assertThat(a.guard.mightExist("late")).isTrue();
      assertThat(NeverInserted.absentOf(b.guard, 200)).isEqualTo(200);
    }
  }

  @Test
  void moreFailedInsertsThanTheGuardKeepsMakeTheAdoptingBuildScan() throws Exception {
    TableSource table = TableSource.of("key-", 1_000);
    Store store = new Store();
    try (Instance a = start(table, store); Instance b = start(table, store)) {
      // Hold b's build thread, so that the rebuilds the failed inserts ask for coalesce into one.
      CountDownLatch release = new CountDownLatch(1);
      b.scheduler.execute(() -> Latches.await(release));
      b.connection.down = true;
      List<String> late = new ArrayList<>();
      for (int i = 0; i < PAST_THE_KEPT_KEYS; i++) {
        String key = "late-" + i;
        late.add(key);
        table.insert(key);
        assertThatThrownBy(() -> b.guard.recordInsert(key)).isInstanceOf(IllegalStateException.class);
      }
      release.countDown();
      b.scheduler.awaitDelayed(); // the coalesced rebuild failed while the store was down
      b.connection.down = false;
      store.restartEmpty();
      a.guard.rebuildNow();
      assertThat(table.scanAllCalls.get()).isEqualTo(2);

      b.connection.reportLost();
      b.scheduler.drain();
      GuardStats s = b.guard.stats();
      assertThat(table.scanAllCalls.get()).as("b could not replay every failed key: it scanned").isEqualTo(3);
      assertThat(s.degraded()).isFalse();
      assertThat(s.failedInserts()).isEqualTo(PAST_THE_KEPT_KEYS);
      assertThat(s.consecutiveFailures()).isZero();
      for (String key : late) {
        assertThat(b.guard.mightExist(key)).as(key).isTrue();
      }
      assertThat(NeverInserted.absentOf(b.guard, 200)).isEqualTo(200);
    }
  }
}
