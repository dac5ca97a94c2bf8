package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many threads insert into a real database (H2) and record each insert while the guard rebuilds back to
 * back; afterwards every recorded key, and every row of the table, must be {@code mightExist}.
 *
 * <p>So that the race the dual write exists for happens in every rebuild, and not only by luck, the key
 * source is wrapped in a gate: after the real scan has read all its rows, the gate holds the rebuild
 * until some writer has committed and recorded an insert that it <em>started</em> after that scan
 * ended. That key cannot be in the scan's result, and it is recorded before the swap. With the dual
 * write on, nothing may be lost; with it off, keys must be lost, which shows the test can fail.
 */
class ConcurrentRebuildTest {
  private static final int WRITERS = 3;
  private static final int REBUILDS = 8;
  private static final int SEED = 20_000;

  @ParameterizedTest(name = "dual write {0}")
  @ValueSource(booleans = {true, false})
  void noRecordedInsertIsLostAcrossBackToBackRebuilds(boolean dualWrite) throws Exception {
    try (H2Users db = new H2Users()) {
      db.seed("seed", SEED);
      GatedSource source = new GatedSource(db.source());
      Queue<String> recorded = new ConcurrentLinkedQueue<>();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> writerFailure = new AtomicReference<>();
      List<Thread> writers = new ArrayList<>();

      try (MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), source)
          .name("stress").expectedInsertions(4_000_000).fpp(1e-4).dualWriteForTest(dualWrite).build()) {
        assertThat(guard.awaitReady(Duration.ofSeconds(60))).isTrue();
        CyclicBarrier start = new CyclicBarrier(WRITERS + 1);
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          Thread t = new Thread(() -> {
            try (Connection c = db.dataSource.getConnection()) {
              start.await();
              for (long i = 0; !stop.get(); i++) {
                long epoch = source.epoch.get(); // read before the INSERT starts
                String email = "w" + writer + "-" + i + "@example.com";
                if (H2Users.insert(c, email)) { // auto-commit: committed on return
                  guard.recordInsert(email);
                  recorded.add(email);
                  source.recorded(epoch);
                }
              }
            } catch (Throwable e) {
              writerFailure.compareAndSet(null, e);
            }
          }, "writer-" + w);
          t.start();
          writers.add(t);
        }
        start.await();
        for (int r = 0; r < REBUILDS; r++) {
          guard.rebuildNow();
        }
        stop.set(true);
        for (Thread t : writers) {
          t.join(TimeUnit.SECONDS.toMillis(60));
          assertThat(t.isAlive()).isFalse();
        }
        assertThat(writerFailure.get()).isNull();
        // Every rebuild passed a gate (a growth rebuild, should the writers outrun the capacity, too).
        assertThat(source.gatesPassed.get()).isGreaterThanOrEqualTo(REBUILDS);

        long lost = recorded.stream().filter(k -> !guard.mightExist(k)).count();
        long rowsMissing = 0;
        try (Connection c = db.dataSource.getConnection(); Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT email FROM users")) {
          while (rs.next()) {
            if (!guard.mightExist(rs.getString(1))) {
              rowsMissing++;
            }
          }
        }
        System.out.printf("dual write %s: %d inserts recorded during %d rebuilds, %d lost, %d rows missing%n",
            dualWrite, recorded.size(), REBUILDS, lost, rowsMissing);
        assertThat(recorded.size()).isGreaterThanOrEqualTo(REBUILDS);
        if (dualWrite) {
          assertThat(lost).as("recorded inserts missing from the filter").isZero();
          assertThat(rowsMissing).as("table rows missing from the filter").isZero();
        } else {
          // Each rebuild let at least one insert through its window; at p = 1e-4 all of them being false
          // positives of the new filter has probability below 1e-40.
          assertThat(lost).as("without the dual write, inserts recorded during a scan are lost").isPositive();
          assertThat(rowsMissing).isPositive();
        }
      }
    }
  }

  /**
   * A key source whose scans, after the real scan returns, wait for one insert started after that
   * moment to be recorded. Writers read {@link #epoch} before inserting and report it afterwards.
   */
  private static final class GatedSource implements KeySource<String> {
    private final KeySource<String> delegate;
    final AtomicLong epoch = new AtomicLong();
    final AtomicLong gatesPassed = new AtomicLong();
    private volatile CountDownLatch gate;
    private volatile long gateEpoch = Long.MAX_VALUE;
    private boolean started; // build thread only

    GatedSource(KeySource<String> delegate) {
      this.delegate = delegate;
    }

    void recorded(long insertEpoch) {
      CountDownLatch g = gate;
      if (g != null && insertEpoch >= gateEpoch) {
        g.countDown();
      }
    }

    @Override
    public ScanResult scanAll(Consumer<? super String> sink) throws Exception {
      ScanResult result = delegate.scanAll(sink);
      if (!started) {
        started = true; // the first build runs before the writers start: no gate
        return result;
      }
      CountDownLatch g = new CountDownLatch(1);
      gateEpoch = epoch.incrementAndGet(); // before publishing the gate: a writer that sees it sees this
      gate = g;
      if (!g.await(60, TimeUnit.SECONDS)) {
        throw new AssertionError("no insert was recorded within 60 s of the scan");
      }
      gatesPassed.incrementAndGet();
      return result;
    }
  }
}
