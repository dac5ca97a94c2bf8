package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.guard.GuardStats;
import org.concurrentbloom.guard.KeySource;
import org.concurrentbloom.guard.Latches;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.NeverInserted;
import org.concurrentbloom.guard.ScanResult;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 22, point 6, on a real redis-server: two instances A and B share a guard; Redis dies, B's
 * {@code recordInsert} throws (B is degraded), Redis comes back empty, A notices and rebuilds, and B,
 * which noticed the loss too, adopts A's filter instead of scanning. B must then be healthy again
 * (not degraded, checks filtered) and still answer "maybe" for the key it failed to record.
 *
 * <p>B's own retries wait {@link #B_RETRY}, far longer than the test, so that only adopting A's filter
 * can heal B within {@link #HEALTHY_WITHIN}: a retry would scan, which is the other way out and not the
 * one under test. Every wait is a latch or a poll with a deadline; each case takes a few seconds.
 */
@Tag("jdk-independent") // the guard's recovery protocol: JDK-free (.ci/run)
class GuardRecoveryTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final Duration HEALTHY_WITHIN = Duration.ofSeconds(10);
  private static final Duration B_RETRY = Duration.ofMinutes(2);
  /** The logger the guard reports to (through System.Logger); held, since java.util.logging holds it weakly. */
  private static final Logger GUARD_LOG = Logger.getLogger(MembershipGuard.class.getName());

  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  private final LossReports losses = new LossReports();

  /** Counts the guard's "the shared live filter is gone" warnings, per guard name. */
  private static final class LossReports extends Handler {
    private volatile String guard = "";
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public void publish(LogRecord r) {
      if (Level.WARNING.equals(r.getLevel()) && r.getMessage() != null
          && r.getMessage().startsWith("guard " + guard + ": the shared live filter is gone")) {
        count.incrementAndGet();
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  @BeforeEach
  void captureLossReports() {
    GUARD_LOG.addHandler(losses);
  }

  @AfterEach
  void serverBack() throws Exception {
    GUARD_LOG.removeHandler(losses);
    if (!SERVER.node().isAlive()) {
      SERVER.node().restart();
    }
  }

  /** B's view of the shared table: the same rows, with B's own scans counted. */
  private static final class CountedSource implements KeySource<String> {
    private final TableSource table;
    final AtomicInteger scans = new AtomicInteger();

    CountedSource(TableSource table) {
      this.table = table;
    }

    @Override
    public ScanResult scanAll(Consumer<? super String> sink) {
      scans.incrementAndGet();
      return table.scanAll(sink);
    }

    @Override
    public boolean supportsWatermark() {
      return table.supportsWatermark();
    }

    @Override
    public ScanResult scanAfter(long watermark, Consumer<? super String> sink) {
      scans.incrementAndGet();
      return table.scanAfter(watermark, sink);
    }
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void anInstanceThatAdoptsAnotherInstancesRebuildAfterAnOutageIsHealthyAgain(Client client) throws Exception {
    String keys = "recovery." + client;
    TableSource table = TableSource.of("key-", 1_000);
    CountedSource bSource = new CountedSource(table);
    losses.guard = keys + ".b";
    try (MembershipGuard<String> a = Guards.ready(Guards.over(table, keys + ".a")
            .backend(RedisGuardBackend.builder(SERVER.adapter(client, Duration.ofSeconds(1))).keyName(keys).build()));
        MembershipGuard<String> b = Guards.ready(MembershipGuard.builder(Funnels.stringFunnel(), bSource)
            .name(keys + ".b").expectedInsertions(20_000).fpp(1e-6).retryBackoff(B_RETRY, B_RETRY)
            .backend(RedisGuardBackend.builder(SERVER.adapter(client, Duration.ofSeconds(1))).keyName(keys).build()))) {
      assertThat(bSource.scans.get()).as("B adopted A's first filter").isZero();
      assertThat(a.mightExist("absent")).as("A checks against the shared filter").isFalse();

      // Redis dies; B cannot record an insert that committed, and the rebuild it asks for fails.
      SERVER.node().kill();
      table.insert("failed-key");
      assertThatThrownBy(() -> b.recordInsert("failed-key")).isInstanceOf(RedisFilterException.class);
      Await.until("B's rebuild failed", DEADLINE, () -> b.stats().rebuildFailures() >= 1);
      assertThat(b.stats().degraded()).isTrue();
      assertThat(b.mightExist("failed-key")).isTrue();

      // Redis is back, empty. A notices on a check and rebuilds; its scan is held once it has begun.
      SERVER.node().restart();
      CountDownLatch scanning = new CountDownLatch(1);
      CountDownLatch resume = new CountDownLatch(1);
      table.midScan = () -> {
        table.midScan = () -> { };
        scanning.countDown();
        Latches.await(resume);
      };
      Await.until("A noticed the loss and is rebuilding", DEADLINE, () -> {
        a.mightExist("probe");
        return scanning.getCount() == 0;
      });
      // B notices too (reading its stats, as a metrics scrape does); its build waits for A's lock.
      Await.until("B noticed the loss", DEADLINE, () -> {
        b.stats();
        return losses.count.get() > 0;
      });
      assertThat(b.mightExist("failed-key")).as("never absent meanwhile").isTrue();
      resume.countDown();
      Await.until("A's filter is live", DEADLINE, () -> a.stats().ready());

      GuardStats s = awaitHealthy(b);
      assertThat(s.degraded()).as("B degraded %s after A's rebuild: %s", HEALTHY_WITHIN, s).isFalse();
      assertThat(s.consecutiveFailures()).isZero();
      assertThat(s.failedInserts()).isEqualTo(1);
      assertThat(s.ready()).isTrue();
      assertThat(bSource.scans.get()).as("B adopted A's rebuild, it did not scan").isZero();
      assertThat(missing(a, table)).as("rows A answers absent for").isEmpty();
      assertThat(missing(b, table)).as("rows B answers absent for").isEmpty();
      // p = 1e-6: each of the 200 is a false positive with odds of one in a million, so all but a stray
      // few must be filtered; a degraded B filters none.
      assertThat(NeverInserted.absentOf(b, 200)).as("never-inserted keys B answers absent").isGreaterThanOrEqualTo(198);
      assertThat(NeverInserted.absentOf(a, 200)).as("never-inserted keys A answers absent").isGreaterThanOrEqualTo(198);
    }
  }

  /** Polls {@code guard}'s stats until it is no longer degraded or {@link #HEALTHY_WITHIN} passed; the last stats. */
  private static GuardStats awaitHealthy(MembershipGuard<String> guard) {
    long deadline = System.nanoTime() + HEALTHY_WITHIN.toNanos();
    GuardStats s = guard.stats();
    while (s.degraded() && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
      s = guard.stats();
    }
    return s;
  }

  /** The rows of {@code table} that {@code guard} answers "absent" for: must be none. */
  private static List<String> missing(MembershipGuard<String> guard, TableSource table) {
    List<String> missing = new ArrayList<>();
    for (String key : table.keys()) {
      if (!guard.mightExist(key)) {
        missing.add(key);
      }
    }
    return missing;
  }
}
