package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real threads adding to one {@link ExpiringBloomFilter} while its clock moves through some 1,700
 * slots, so that adds and queries race every step. Four adders on two cores (so threads are also
 * preempted inside an add or a step) and a reader; threads start together ({@link ConcurrentRun}) and
 * nothing sleeps.
 *
 * <p>The filter: W = 7 s, 8 generations (s = 1 s, maxRetention 8 s), n = 1,750 per window at 1%, on a
 * {@link TestClock}. The adders move the clock themselves: before each add, an adder moves it 4 ms on
 * and keeps that reading as the add's time t (the clock showed t before the add began), so a window
 * holds n adds and a slot 250, the per-slot load the generations are sized for. Nobody waits for a step:
 * while one thread runs a step (or is preempted in it), the others go on moving the clock, so the state
 * falls behind by one slot or several and the adds in flight are late adds, which must help finish the
 * step and redo themselves. Now and then an adder jumps the clock: by 2.5 slots (a step of several
 * slots) or by 9 s, more than a whole rotation (a catch-up that clears every generation while adds race
 * it). The jumps stop before the last 10 slots, so the final generations hold a steady load.
 *
 * <p>The guarantees checked, with zero misses allowed: a key whose add returned before a query began,
 * with a clock reading q taken after the query returned below t + W, is found. The reader checks it
 * over and over during the run, for the newest keys of every adder (their adds published by a
 * volatile count); the main thread checks it at the end for every key. Forgetting, exactly: at the end
 * every key whose add returned (clock read after the return) at least maxRetention before the final
 * clock must be gone but for false positives, whose number is bounded at 99.9% confidence (see {@link
 * #falsePositiveBound}). A late add that kept an older generation alive, as the design before 2026-12-02
 * did, would leave keys found past that bound.
 */
class ExpiringConcurrentStressTest {
  private static final int ADDERS = 4;
  private static final int PER_ADDER = 100_000;
  private static final long ORIGIN = 1_000_000;
  private static final long WINDOW = 7_000;
  private static final long SLOT = 1_000;
  private static final long MAX_RETENTION = 8_000;
  private static final long STEP = 4;
  private static final long PER_WINDOW = WINDOW / STEP;
  /** Adders 0 and 1 jump the clock once every this many adds, in the first 90% of their adds. */
  private static final int JUMP_EVERY = 10_000;
  private static final long SHORT_JUMP = 2_500;
  private static final long CATCH_UP_JUMP = 9_000;

  private static long key(int owner, long index) {
    return ((long) owner << 40) | index;
  }

  private static long slotOf(long t) {
    return Math.floorDiv(t - ORIGIN, SLOT);
  }

  @Test
  @Timeout(60)
  void everyKeyIsFoundInsideItsWindowAndForgottenAfterMaxRetention() throws Exception {
    TestClock clock = new TestClock(ORIGIN);
    ExpiringBloomFilter<Long> f = ExpiringBloomFilter.builder(Funnels.longFunnel())
        .window(Duration.ofMillis(WINDOW)).expectedInsertionsPerWindow(PER_WINDOW).fpp(0.01).clock(clock)
        .generations(8).build();
    assertThat(f.generationSpan()).isEqualTo(Duration.ofMillis(SLOT));
    assertThat(f.maxRetention()).isEqualTo(Duration.ofMillis(MAX_RETENTION));
    long[][] before = new long[ADDERS][PER_ADDER];
    long[][] after = new long[ADDERS][PER_ADDER];
    AtomicIntegerArray done = new AtomicIntegerArray(ADDERS);
    AtomicReference<String> firstMiss = new AtomicReference<>();
    LongAdder readerChecks = new LongAdder();
    LongAdder jumped = new LongAdder();

    try (ConcurrentRun run = new ConcurrentRun()) {
      run.tasks(ADDERS, a -> {
        for (int i = 0; i < PER_ADDER; i++) {
          long by = STEP;
          if (i < PER_ADDER * 9 / 10 && i % JUMP_EVERY == JUMP_EVERY - 1) {
            by = a == 0 ? CATCH_UP_JUMP : a == 1 ? SHORT_JUMP : STEP;
          }
          long t = clock.advance(by);
          jumped.add(by - STEP);
          before[a][i] = t;
          f.add(key(a, i));
          after[a][i] = clock.millis();
          done.set(a, i + 1);
        }
      });
      run.background(() -> {
        while (!run.stopping()) {
          for (int a = 0; a < ADDERS; a++) {
            long scanStart = clock.millis();
            for (int i = done.get(a) - 1; i >= 0 && before[a][i] + WINDOW > scanStart; i--) {
              boolean found = f.mightContain(key(a, i));
              long q = clock.millis();
              readerChecks.increment();
              if (!found && q < before[a][i] + WINDOW) {
                firstMiss.compareAndSet(null, "reader: adder " + a + " key " + i + " added at t=" + before[a][i]
                    + " not found at q=" + q);
              }
            }
          }
        }
      });
      run.start();
      run.finish();
    }

    assertThat(firstMiss.get()).isNull();
    assertThat(readerChecks.sum()).as("reader checks").isGreaterThan(10_000);
    long end = clock.millis();
    long steps = f.stepsTaken();
    assertThat(slotOf(end)).as("slots crossed").isEqualTo(((long) ADDERS * PER_ADDER * STEP + jumped.sum()) / SLOT);
    long mustFind = 0;
    long missing = 0;
    long old = 0;
    long oldFound = 0;
    for (int a = 0; a < ADDERS; a++) {
      for (int i = 0; i < PER_ADDER; i++) {
        boolean found = f.mightContain(key(a, i));
        if (before[a][i] + WINDOW > end) {
          mustFind++;
          missing += found ? 0 : 1;
        } else if (after[a][i] + MAX_RETENTION <= end) {
          old++;
          oldFound += found ? 1 : 0;
        }
      }
    }
    double fpp = f.estimatedFpp();
    long bound = falsePositiveBound(old, fpp);
    System.out.printf("expiring stress: %d adds, %d slots (%d ms of jumps), %d steps, %d reader checks; %d keys"
        + " inside the window at the end, %d missing; %d older than maxRetention, %d found (bound %d, estimated"
        + " fpp %.5f)%n", ADDERS * PER_ADDER, slotOf(end), jumped.sum(), steps, readerChecks.sum(), mustFind, missing,
        old, oldFound, bound, fpp);
    assertThat(steps).as("steps").isGreaterThanOrEqualTo(slotOf(end) / 7);
    assertThat(mustFind).as("keys inside the window at the end").isGreaterThan(PER_WINDOW - 10);
    assertThat(missing).as("of %d keys inside the window at the end, missing", mustFind).isZero();
    assertThat(old).as("keys older than maxRetention").isGreaterThan(390_000);
    // The final bits hold the last 8 slots, each loaded about as sized for: the estimate from the set
    // bits must be near p = 1% (an older generation left uncleared, or adds piled into one, would
    // raise it well past).
    assertThat(fpp).as("estimated fpp of the final filter").isLessThan(0.0125);
    // The generations counted: 7 full slots of 250 adds and the first of the current one (the last add
    // crossed into it), less the adds that returned false as false positives; nothing older.
    long kept = f.generations().stream().mapToLong(ExpiringBloomFilter.Generation::count).sum();
    assertThat(kept).as("adds counted in the final generations").isBetween(6 * 250L, 8 * 250L);
    assertThat(oldFound).as("keys older than maxRetention still reported").isLessThanOrEqualTo(bound);
  }

  /**
   * For N keys none of which is in the final generations, each is reported with probability π given
   * the final bits: the chance that the k probes of a random key all hit set bits of one generation.
   * {@link ExpiringBloomFilter#estimatedFpp()} computes it as 1 − Π_g (1 − f_g^k) from the set-bit
   * fractions f_g; k distinct cells are all set with probability at most f_g^k (drawing without
   * replacement), and π is raised by 5% for treating the generations as independent. The count reported
   * is then Binomial(N, π) at most, and the one-sided 99.9% bound is N·π + 3.09·√(N·π·(1 − π)).
   */
  private static long falsePositiveBound(long n, double fpp) {
    double p = Math.min(1, fpp * 1.05);
    return (long) Math.ceil(n * p + 3.09 * Math.sqrt(n * p * (1 - p)));
  }
}
