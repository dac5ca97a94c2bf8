package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.concurrentbloom.guard.Latches;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two application instances record inserts (a writer thread each, own Redis client) while instance A
 * rebuilds back to back; afterwards, and after every rebuild, each recorded key must be
 * {@code mightExist} on both instances.
 *
 * <p>So that the cross-instance race the dual write exists for happens in every rebuild, and not only
 * by luck, each scan meets a gate once it has taken its snapshot of the table: A's rebuild is held until
 * instance B has recorded an insert that it started after that moment. That key is in neither the scan
 * nor, without the dual write, the new generation. With the dual write on, nothing may be lost; with
 * it off (a test hook of both backends), keys must be lost, which shows the test can fail. Writers
 * insert on permits handed out per rebuild, so the test's size does not depend on the machine's speed.
 */
@Tag("jdk-independent") // the dual-write protocol across rebuilds: JDK-free (.ci/run)
class SharedGuardStressTest {
  private static final int REBUILDS = 8;
  private static final int PERMITS_PER_REBUILD = 200;
  private static final int PERMITS_PER_GATE = 20;

  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  @ParameterizedTest(name = "dual write {0}")
  @ValueSource(booleans = {true, false})
  void noRecordedInsertIsLostOnEitherInstanceAcrossBackToBackRebuilds(boolean dualWrite) throws Exception {
    String name = "stress." + dualWrite;
    TableSource table = TableSource.of("seed-", 5_000);
    Writer[] writers = new Writer[2];
    try (MembershipGuard<String> a = Guards.ready(Guards.over(table, name)
            .backend(RedisGuardBackend.builder(SERVER.client()).dualWriteForTest(dualWrite).build()));
        MembershipGuard<String> b = Guards.ready(Guards.over(table, name)
            .backend(RedisGuardBackend.builder(SERVER.client()).dualWriteForTest(dualWrite).build()))) {
      writers[0] = new Writer("a", a, table);
      writers[1] = new Writer("b", b, table);
      Gate gate = new Gate(writers);
      table.midScan = gate::hold; // only A scans: B adopted A's first filter
      for (Writer w : writers) {
        w.start();
      }
      long lostInWindows = 0;
      for (int r = 0; r < REBUILDS; r++) {
        int[] from = {writers[0].recorded.size(), writers[1].recorded.size()};
        for (Writer w : writers) {
          w.permits.release(PERMITS_PER_REBUILD);
        }
        a.rebuildNow();
        for (int w = 0; w < 2; w++) { // the keys recorded around this rebuild, checked on both instances
          List<String> all = new ArrayList<>(writers[w].recorded);
          List<String> window = all.subList(from[w], all.size());
          lostInWindows += missing(a, window) + missing(b, window);
        }
      }
      for (Writer w : writers) {
        w.finish();
      }
      assertThat(gate.passed.get()).as("every rebuild passed a gate").isEqualTo(REBUILDS);

      List<String> recorded = new ArrayList<>(writers[0].recorded);
      recorded.addAll(writers[1].recorded);
      long lost = missing(a, recorded) + missing(b, recorded);
      List<String> rows = table.keys();
      long rowsMissing = missing(a, rows) + missing(b, rows);
      System.out.printf("shared guard, dual write %s: %d inserts recorded on 2 instances during %d rebuilds;"
          + " %d lost in the rebuild windows, %d lost at the end, %d rows missing%n",
          dualWrite, recorded.size(), REBUILDS, lostInWindows, lost, rowsMissing);
      assertThat(a.stats().backendErrors() + b.stats().backendErrors()).isZero();
      if (dualWrite) {
        assertThat(lostInWindows).as("recorded inserts missing right after a rebuild").isZero();
        assertThat(lost).as("recorded inserts missing at the end").isZero();
        assertThat(rowsMissing).as("table rows missing").isZero();
      } else {
        // Every window held one of B's inserts the scan could not see; at p = 1e-6 all of them being
        // false positives of the new generation has probability below 1e-40.
        assertThat(lostInWindows).as("without the dual write, inserts recorded during a scan are lost")
            .isGreaterThanOrEqualTo(REBUILDS);
        assertThat(lost).as("the last window's losses stay lost").isPositive();
      }
    } finally {
      for (Writer w : writers) {
        if (w != null) {
          w.finish();
        }
      }
    }
  }

  private static long missing(MembershipGuard<String> guard, List<String> keys) {
    return keys.stream().filter(k -> !guard.mightExist(k)).count();
  }

  /**
   * An application instance's writer: inserts a new key into the table and records it on its guard, one
   * per permit. {@link #epoch}, read before each insert, tells the gate which inserts began after a scan.
   */
  private static final class Writer extends Thread {
    final Semaphore permits = new Semaphore(0);
    final ConcurrentLinkedQueue<String> recorded = new ConcurrentLinkedQueue<>();
    final AtomicLong epoch = new AtomicLong();
    volatile Gate gate;
    private final MembershipGuard<String> guard;
    private final TableSource table;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    Writer(String instance, MembershipGuard<String> guard, TableSource table) {
      super("writer-" + instance);
      this.guard = guard;
      this.table = table;
    }

    @Override
    public void run() {
      try {
        for (long i = 0; ; i++) {
          permits.acquire();
          if (stopped.get()) {
            return;
          }
          long startedIn = epoch.get(); // before the insert starts
          String key = getName() + "-" + i;
          table.insert(key); // committed on return
          guard.recordInsert(key);
          recorded.add(key);
          Gate g = gate;
          if (g != null) {
            g.recorded(this, startedIn);
          }
        }
      } catch (Throwable e) {
        failure.set(e);
      }
    }

    void finish() throws InterruptedException {
      stopped.set(true);
      permits.release(1);
      join(TimeUnit.SECONDS.toMillis(30));
      assertThat(isAlive()).isFalse();
      assertThat(failure.get()).isNull();
    }
  }

  /**
   * Holds each scan, after it took its snapshot, until writer B recorded an insert it started after that
   * moment.
   * Opening a gate hands both writers a few more permits, so inserts run while the rebuild waits.
   */
  private static final class Gate {
    private final Writer[] writers;
    final AtomicLong passed = new AtomicLong();
    private volatile CountDownLatch open;
    private volatile long openEpoch = Long.MAX_VALUE;

    Gate(Writer[] writers) {
      this.writers = writers;
      for (Writer w : writers) {
        w.gate = this;
      }
    }

    void hold() {
      CountDownLatch latch = new CountDownLatch(1);
      openEpoch = writers[1].epoch.incrementAndGet(); // before publishing the latch: B sees both or neither
      open = latch;
      for (Writer w : writers) {
        w.permits.release(PERMITS_PER_GATE);
      }
      Latches.await(latch);
      passed.incrementAndGet();
    }

    void recorded(Writer writer, long startedIn) {
      CountDownLatch latch = open;
      if (writer == writers[1] && latch != null && startedIn >= openEpoch) {
        latch.countDown();
      }
    }
  }
}
