package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The expiring filter's own contract, one thread at a time with a test clock: what it remembers and for
 * how long, how it forgets, its clock rules (standing still, jumping, going backwards), its builder's
 * checks and its statistics. The concurrent guarantees have their own tests (jcstress, Lincheck, stress).
 */
class ExpiringBloomFilterTest {
  /** 70 s: 7 slots of 10 s with the default 8 generations, so maxRetention is 80 s. */
  private static final long W = 70_000;
  private static final long S = 10_000;
  private static final long START = 1_000_000_000_000L;

  private static ExpiringBloomFilter<Long> longs(java.time.InstantSource clock, long n, double p) {
    return ExpiringBloomFilter.builder(Funnels.longFunnel()).window(Duration.ofMillis(W))
        .expectedInsertionsPerWindow(n).fpp(p).clock(clock).build();
  }

  /**
   * Adds at several offsets inside a slot (its first and last millisecond included) are found at every
   * clock time from the add to one millisecond before add + W, sampled densely and at every slot boundary.
   */
  @Test
  void everyAddIsFoundUntilItsWindowEnds() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    long[] offsets = {0, 1, 4_999, S - 1, S, 3 * S + 7_777};
    for (int o = 0; o < offsets.length; o++) {
      long t = START + 5 * S + offsets[o];
      clock.set(t);
      for (long i = 0; i < 200; i++) {
        f.add(key(o, i));
      }
    }
    for (int o = 0; o < offsets.length; o++) {
      long t = START + 5 * S + offsets[o];
      for (long q = t; q < t + W; q += 997) {
        assertFound(f, clock, o, q);
      }
      for (long boundary = START + 6 * S; boundary < t + W; boundary += S) {
        assertFound(f, clock, o, boundary - 1);
        assertFound(f, clock, o, boundary);
      }
      assertFound(f, clock, o, t + W - 1);
    }
  }

  private static void assertFound(ExpiringBloomFilter<Long> f, TestClock clock, int o, long q) {
    long saved = clock.millis();
    clock.set(Math.max(saved, q)); // the clock only moves forward here: no query goes back in time
    if (clock.millis() == q) {
      for (long i = 0; i < 200; i++) {
        assertThat(f.mightContain(key(o, i))).as("batch %d key %d at %d", o, i, q).isTrue();
      }
    }
  }

  private static long key(int batch, long i) {
    return ((long) batch << 32) | i;
  }

  /**
   * From t + maxRetention on, the 2,000 items added at t answer like never-added ones. With the filter
   * holding nothing else, each answers true with probability at most p = 1%; 2,000 of them give a mean of
   * 20 at most, and 45 or more has probability below 1e-6 (Chernoff), so the bound cannot flake.
   */
  @Test
  void forgetsByMaxRetention() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 70_000, 0.01); // 10,000 per slot: the 2,000 adds all return true
    assertThat(f.maxRetention()).isEqualTo(Duration.ofMillis(8 * S));
    long t = clock.advance(3_333);
    for (long i = 0; i < 2_000; i++) {
      assertThat(f.add(i)).isTrue();
    }
    assertThat(f.count()).isEqualTo(2_000);
    clock.set(t + f.maxRetention().toMillis());
    int found = 0;
    for (long i = 0; i < 2_000; i++) {
      found += f.mightContain(i) ? 1 : 0;
    }
    assertThat(found).isLessThan(45);
    assertThat(f.count()).isZero();
    assertThat(f.fillRatio()).isZero();
    assertThat(f.approximateElementCount()).isZero();
  }

  /** The queries drop an expired generation by the clock even before any step has cleared it. */
  @Test
  void aQueryLeavesOutExpiredGenerationsByTheClockAlone() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    for (long i = 0; i < 500; i++) {
      f.add(i);
    }
    ExpiringGenerations gens = generationsOf(f);
    clock.set(START + 8 * S);
    // validAt alone, with no step run: the generation of slot 0 is out.
    assertThat(gens.validAt(gens.stateVolatile(), clock.millis()) & 1).isZero();
    assertThat(ExpiringGenerations.slotIn(gens.stateVolatile())).isZero();
  }

  @Test
  void aClockThatStandsStillKeepsEverythingInOneGeneration() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 70_000, 0.01);
    for (long i = 0; i < 10_000; i++) {
      f.add(i);
    }
    for (long i = 0; i < 10_000; i++) {
      assertThat(f.mightContain(i)).isTrue();
    }
    assertThat(f.generations()).hasSize(1); // the slots before the filter was built are not listed
    assertThat(f.generations().get(0).count()).isEqualTo(f.count());
    assertThat(f.stepsTaken()).isZero();
  }

  /**
   * A clock that goes back: an add made at the earlier time stays until the clock has shown that time
   * plus W (it goes to the newest generation, which lives at least that long); the adds from before the
   * jump back stay too. Nothing is forgotten because the clock went back.
   */
  @Test
  void aClockThatGoesBackwardsCausesNoFalseNegative() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    long late = START + 20 * S + 123;
    clock.set(late);
    for (long i = 0; i < 300; i++) {
      f.add(i);
    }
    long back = late - 3 * W;
    clock.set(back);
    for (long i = 300; i < 600; i++) {
      f.add(i);
    }
    for (long q = back; q < back + W; q += 1_001) {
      clock.set(q);
      for (long i = 0; i < 600; i++) {
        assertThat(f.mightContain(i)).as("key %d at %d", i, q).isTrue();
      }
    }
    for (long q = late; q < late + W; q += 1_001) {
      clock.set(q);
      for (long i = 0; i < 600; i++) {
        assertThat(f.mightContain(i)).as("key %d at %d", i, q).isTrue();
      }
    }
  }

  /**
   * A jump of many windows forgets everything in one step (a catch-up: every generation is past its time,
   * so one pass clears them all and the slot jumps straight to the clock's), and the filter goes on as new.
   */
  @Test
  void aLongJumpForgetsEverythingInAFewSteps() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    for (long i = 0; i < 5_000; i++) {
      f.add(i);
    }
    clock.set(START + 1_000_000 * W);
    int found = 0;
    for (long i = 0; i < 5_000; i++) {
      found += f.mightContain(i) ? 1 : 0;
    }
    assertThat(found).isZero(); // everything cleared or left out: not even a false positive
    assertThat(f.stepsTaken()).isEqualTo(1);
    assertThat(f.add(7L)).isTrue();
    assertThat(f.mightContain(7L)).isTrue();
    assertThat(f.count()).isEqualTo(1);
    clock.advance(W - 1);
    assertThat(f.mightContain(7L)).isTrue();
  }

  /**
   * A late add (its clock reading is past what the current generation covers, and a step is due) finishes
   * the step itself when the thread that claimed it stalls, and does not keep the older items of the
   * current generation alive. Thread A queries after a jump of 70 slots and claims the catch-up; its clock
   * then holds it after its pass and before it publishes. Meanwhile this thread adds x: it must return
   * without A, x must be found for a whole window from the jump, and z, added 70 s before, must be gone.
   * The design before 2026-12-02 returned by keeping the current generation until t + W, and z with it.
   */
  @Test
  void aLateAddFinishesAStalledStepAndKeepsNothingOld() throws Exception {
    HoldingClock clock = new HoldingClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    long z = 1;
    long x = 2;
    assertThat(f.add(z)).isTrue();
    long t = START + 70 * S + S / 2;
    clock.set(t);
    Thread stepper = new Thread(() -> f.mightContain(z), "stepper");
    clock.holdOnCall(stepper, 2); // its first reading is the query's; its second comes after its pass
    stepper.start();
    try {
      assertThat(clock.awaitHeld()).as("the stepper reached its publishing clock reading").isTrue();
      assertThat(ExpiringGenerations.slotIn(generationsOf(f).stateVolatile())).as("state, still unpublished")
          .isZero();
      assertThat(f.add(x)).isTrue(); // returns although the stepper has not published
      assertThat(ExpiringGenerations.slotIn(generationsOf(f).stateVolatile())).isEqualTo(70);
      assertThat(f.mightContain(z)).as("z, 70 s old").isFalse();
      assertThat(f.mightContain(x)).isTrue();
    } finally {
      clock.release();
      stepper.join(10_000);
    }
    assertThat(stepper.isAlive()).isFalse();
    assertThat(f.stepsTaken()).isEqualTo(1);
    clock.set(t + W - 1);
    assertThat(f.mightContain(x)).isTrue();
    assertThat(f.mightContain(z)).isFalse();
    clock.set(t + f.maxRetention().toMillis());
    assertThat(f.mightContain(x)).isFalse();
  }

  /**
   * A test clock that holds one thread at its n-th reading until released, so that a test can stop a step
   * at a chosen point; the other threads read it freely.
   */
  static final class HoldingClock implements java.time.InstantSource {
    private final TestClock clock;
    private final java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
    private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
    private volatile Thread holding;
    private volatile int holdAt;
    private int calls; // read and written by the held thread only

    HoldingClock(long start) {
      this.clock = new TestClock(start);
    }

    void set(long t) {
      clock.set(t);
    }

    void holdOnCall(Thread thread, int n) {
      holdAt = n;
      holding = thread;
    }

    boolean awaitHeld() throws InterruptedException {
      return held.await(10, java.util.concurrent.TimeUnit.SECONDS);
    }

    void release() {
      released.countDown();
    }

    @Override
    public long millis() {
      if (Thread.currentThread() == holding && ++calls == holdAt) {
        held.countDown();
        try {
          if (!released.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException("never released");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      return clock.millis();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }
  }

  /** An add of an item remembered from an earlier slot returns false but renews it for another window. */
  @Test
  void aRepeatedAddRenewsTheItem() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    assertThat(f.add(42L)).isTrue();
    clock.advance(5 * S);
    assertThat(f.add(42L)).isFalse();
    clock.advance(W - 1);
    assertThat(f.mightContain(42L)).isTrue();
    assertThat(f.count()).isZero(); // the first add's generation is gone; the renewal returned false
  }

  @Test
  void generationsReportTheirTimesNewestFirst() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    for (int slot = 0; slot < 10; slot++) {
      clock.set(START + slot * S + 5);
      for (long i = 0; i <= slot; i++) {
        f.add(slot * 1_000L + i);
      }
    }
    List<ExpiringBloomFilter.Generation> gens = f.generations();
    assertThat(gens).hasSize(8);
    for (int j = 0; j < 8; j++) {
      long slot = 9L - j;
      ExpiringBloomFilter.Generation g = gens.get(j);
      assertThat(g.start()).isEqualTo(Instant.ofEpochMilli(START + slot * S));
      assertThat(g.end()).isEqualTo(Instant.ofEpochMilli(START + (slot + 1) * S));
      assertThat(g.forgottenFrom()).isEqualTo(Instant.ofEpochMilli(START + (slot + 8) * S));
      assertThat(g.count()).isEqualTo(slot + 1);
      assertThat(g.current()).isEqualTo(j == 0);
      // At most k bits per add, and one add more: the first add of the next slot, which learns that its
      // slot has begun only after writing, leaves its bits here too before redoing itself there.
      long most = (slot + 1) * (long) f.hashFunctions() + (j == 0 ? 0 : f.hashFunctions());
      assertThat(g.setBits()).isBetween((slot + 1) * 5L, most);
    }
    assertThat(f.count()).isEqualTo(10 + 9 + 8 + 7 + 6 + 5 + 4 + 3);
  }

  @Test
  void builderChecksNameTheSetting() {
    ExpiringBloomFilter.Builder<Long> b = ExpiringBloomFilter.builder(Funnels.longFunnel());
    assertThatThrownBy(() -> ExpiringBloomFilter.builder(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("funnel");
    assertThatThrownBy(() -> b.window(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("window");
    assertThatThrownBy(() -> b.clock(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("clock");
    for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofSeconds(-5), Duration.ofMillis(999),
        Duration.ofNanos(1_000_000_001L), Duration.ofDays(Long.MAX_VALUE / 86_400 / 2)}) {
      assertThatThrownBy(() -> b.window(bad)).as("%s", bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("window").hasMessageContaining("was ");
    }
    // Past the limit, whether or not a long of milliseconds holds the window, the message names the limit.
    assertThat(ExpiringBloomFilter.MAX_WINDOW).isEqualTo(Duration.ofMillis((1L << 55) - 1));
    ExpiringBloomFilter.Builder<Long> longest = ExpiringBloomFilter.builder(Funnels.longFunnel())
        .window(ExpiringBloomFilter.MAX_WINDOW);
    for (Duration longer : new Duration[] {
        ExpiringBloomFilter.MAX_WINDOW.plusMillis(1), Duration.ofDays(106_751_991_167_300L)}) {
      assertThatThrownBy(() -> longest.window(longer)).as("%s", longer).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("window must be at most 36028797018963967 ms, was " + longer);
    }
    assertThatThrownBy(() -> b.expectedInsertionsPerWindow(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedInsertionsPerWindow must be >= 1, was 0");
    assertThatThrownBy(() -> b.fpp(1.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fpp").hasMessageContaining("was 1.0");
    for (int g : new int[] {0, 1, 3, 12, 128, -8}) {
      assertThatThrownBy(() -> b.generations(g)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("generations").hasMessageContaining("was " + g);
    }
    assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class).hasMessageContaining("window");
    b.window(Duration.ofHours(1));
    assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("expectedInsertionsPerWindow");
    ExpiringBloomFilter.Builder<Long> onlyN = ExpiringBloomFilter.builder(Funnels.longFunnel())
        .expectedInsertionsPerWindow(10);
    assertThatThrownBy(onlyN::build).isInstanceOf(IllegalStateException.class).hasMessageContaining("window");
    assertThatThrownBy(() -> ExpiringBloomFilter.builder(Funnels.longFunnel()).window(Duration.ofHours(1))
        .expectedInsertionsPerWindow(Long.MAX_VALUE / 2).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limit");
  }

  @Test
  void retentionIsAtMostOneAndAQuarterWindowsByDefaultAndTighterWithMoreGenerations() {
    ExpiringBloomFilter<Long> day = ExpiringBloomFilter.builder(Funnels.longFunnel()).window(Duration.ofHours(24))
        .expectedInsertionsPerWindow(10_000_000).build();
    assertThat(day.window()).isEqualTo(Duration.ofHours(24));
    assertThat(day.generationCount()).isEqualTo(8);
    assertThat(day.expectedInsertions()).isEqualTo(10_000_000);
    assertThat(day.fpp()).isEqualTo(0.01);
    assertThat(day.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(ratio(day.maxRetention(), day.window())).isLessThanOrEqualTo(1.25).isGreaterThan(1.142);
    assertThat(day.generationSpan().multipliedBy(7)).isGreaterThanOrEqualTo(day.window());
    for (int g = 2; g <= 64; g *= 2) {
      Duration max = ExpiringBloomFilter.builder(Funnels.longFunnel()).window(Duration.ofHours(24))
          .expectedInsertionsPerWindow(1_000).generations(g).maxRetention();
      assertThat(ratio(max, Duration.ofHours(24))).as("G = %d", g).isCloseTo(g / (g - 1.0),
          org.assertj.core.api.Assertions.within(1e-6));
    }
  }

  private static double ratio(Duration a, Duration b) {
    return (double) a.toMillis() / b.toMillis();
  }

  @Test
  void clearForgetsEverythingAndStartsANewFirstSlot() {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 1_000, 0.01);
    f.add(1L);
    clock.advance(3 * S + 17);
    f.clear();
    assertThat(f.mightContain(1L)).isFalse();
    assertThat(f.count()).isZero();
    assertThat(f.generations().get(0).start()).isEqualTo(Instant.ofEpochMilli(START + 3 * S + 17));
  }

  /** Written and read back at a later clock: the generations past their time by then are forgotten. */
  @Test
  void aFileReadLaterForgetsWhatExpiredMeanwhile() throws IOException {
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    for (long i = 0; i < 1_000; i++) {
      f.add(i);
    }
    clock.advance(4 * S);
    for (long i = 1_000; i < 2_000; i++) {
      f.add(i);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    TestClock later = new TestClock(START + 8 * S);
    ExpiringBloomFilter<Long> g = ExpiringBloomFilter.readFrom(new ByteArrayInputStream(out.toByteArray()),
        Funnels.longFunnel(), later);
    int oldFound = 0;
    for (long i = 0; i < 1_000; i++) {
      oldFound += g.mightContain(i) ? 1 : 0;
    }
    assertThat(oldFound).isLessThan(30); // forgotten: at most the 1% rate (Chernoff bound as above, 1e-6)
    for (long i = 1_000; i < 2_000; i++) {
      assertThat(g.mightContain(i)).isTrue();
    }
    assertThat(g.count()).isEqualTo(1_000);
  }

  /**
   * add and mightContain allocate nothing per call, the steps they run included: 400,000 calls while the
   * clock crosses a slot every 1,000 adds. A regression to one object per call would show as megabytes.
   */
  @Test
  void addsAndQueriesAllocateNothingStepsIncluded() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    TestClock clock = new TestClock(START);
    ExpiringBloomFilter<CharSequence> strings = ExpiringBloomFilter.builder(Funnels.stringFunnel())
        .window(Duration.ofMillis(W)).expectedInsertionsPerWindow(7_000).clock(clock).build();
    ExpiringBloomFilter<Long> longs = longs(clock, 7_000, 0.01);
    String[] stringKeys = new String[1024];
    Long[] longKeys = new Long[1024];
    for (int i = 0; i < 1024; i++) {
      stringKeys[i] = "user" + i + "@example.com";
      longKeys[i] = 1_000_000_007L * i;
    }
    long hits = exercise(strings, longs, stringKeys, longKeys, clock);
    // Until C2 has compiled the calls, the per-operation probe cursors are real objects (escape analysis
    // removes them only in compiled code), and a busy JIT queue can take more than one round: the claim is
    // about the compiled steady state, so the least of up to ten measured rounds must be (about) zero.
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 10 && least >= 16 * 1024; round++) {
      long stepsBefore = strings.stepsTaken();
      long before = threads.getCurrentThreadAllocatedBytes();
      hits += exercise(strings, longs, stringKeys, longKeys, clock);
      least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
      assertThat(strings.stepsTaken() - stepsBefore).isGreaterThanOrEqualTo(90);
    }
    assertThat(hits).isPositive();
    assertThat(least).as("bytes allocated by 400,000 calls and their steps, least round")
        .isLessThan(16 * 1024);
  }

  private static long exercise(ExpiringBloomFilter<CharSequence> strings, ExpiringBloomFilter<Long> longs,
      String[] stringKeys, Long[] longKeys, TestClock clock) {
    long hits = 0;
    for (int i = 0; i < 100_000; i++) {
      if (i % 1_000 == 0) {
        clock.advance(S);
      }
      strings.add(stringKeys[i & 1023]);
      longs.add(longKeys[i & 1023]);
      hits += strings.mightContain(stringKeys[(i * 7) & 1023]) ? 1 : 0;
      hits += longs.mightContain(longKeys[(i * 7) & 1023]) ? 1 : 0;
    }
    return hits;
  }

  static <T> ExpiringGenerations generationsOf(ExpiringBloomFilter<T> f) {
    return f.generationsForTests();
  }
}
