package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.concurrentbloom.BloomFilterLincheckTest.call;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.concurrentbloom.BloomFilterLincheckTest.Call;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Lincheck: {@code add} and {@code mightContain} of an {@link ExpiringBloomFilter}, with operations that
 * move its clock, are linearizable against the same filter and clock run sequentially.
 *
 * <p><b>The filter.</b> W = 7 s and 8 generations, so a slot lasts s = 1 s and maxRetention is 8 s; 7
 * items per window at 10%: generations of 64 cells, 6 probes. Built on a {@link TestClock} at
 * {@link #ORIGIN}, which only the clock operations move: {@code tick()} by 300 ms (within a slot or
 * across a boundary), {@code nextSlot()} by exactly s (across one boundary) and {@code expire()} by
 * maxRetention (a whole rotation: the next step is a catch-up that clears every generation). A clock move
 * runs no step: the next add or query that reads the clock finds the step due and runs it (or finds it
 * claimed by another thread, and helps finish it if it is a late add), so adds and queries race the
 * steps, and several moves in a row leave the state several slots behind.
 *
 * <p><b>Why the sequential filter is an exact specification here.</b> The filter promises that an add
 * whose clock read t is found while the clock is below t + W and is forgotten from t + maxRetention on;
 * in between, the moment it is forgotten depends on the slot boundaries, so the clock moves are chosen to
 * never stop there: a scenario has at most {@value #MAX_OPERATIONS} operations, so the ticks and slots
 * between an add and a later query add up to at most 6 s &lt; W, and any {@code expire()} between them
 * makes the clock at least maxRetention later. Every query of a key then has one correct answer whatever
 * the interleaving: true iff an add of it is ordered before the query with no {@code expire()} between.
 * The {@link #KEY_COUNT} keys have pairwise disjoint cells, the same in every generation, so no key is
 * reported through another's bits, and the sequential filter gives exactly those answers. So the random
 * scenarios check both that no add is lost and that nothing is kept past maxRetention, while steps are due
 * and run.
 *
 * <p><b>What the interleavings reach:</b> an add that read the state before a step and writes into
 * the previous slot's generation (it must redo itself in the new one, after helping to finish the step
 * if its reading is too late for the old one); two adds racing for one step; queries while a generation
 * is being cleared (left out by the phase); an add racing a catch-up that clears the generation it wrote
 * to. add's result is not checked (two overlapping adds of one new key may both return true, as for
 * {@link BloomFilter}). Model checking on random and hand-written scenarios, and stress with real
 * threads; budgets as in BloomFilterLincheckTest's halved ones.
 *
 * <p><b>Known reach.</b> The random model checking found the lost dirty mark of the design before
 * 2026-12-02 (an add that read the state before a step wrote its bits into a generation the step had
 * just cleared and marked clean; no later step cleared them, so the key was reported forever), which
 * {@link #handWrittenScenarios()} scenario 4 replays, and that design's late add keeping its generation's
 * older items past maxRetention (jcstress ExpiringAddRacesLongSteps), which kept {@code expire()} out of
 * the random scenarios until the design changed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("jdk-independent") // Lincheck explores interleavings of the library's bytecode: the same on every JDK (.ci/run)
public class ExpiringBloomFilterLincheckTest {
  static final int KEY_COUNT = 4;
  static final long ORIGIN = 1_000_000;
  static final long WINDOW = 7_000;
  static final long SLOT = 1_000;
  static final long TICK = 300;
  static final long MAX_RETENTION = 8_000;
  /** The longest random scenario: 1 before, 2 threads of 3 (or 3 of 2), 1 after. See the class comment. */
  static final int MAX_OPERATIONS = 8;
  static final int[] KEYS = disjointKeys(KEY_COUNT);

  static ExpiringBloomFilter<Integer> newFilter(TestClock clock) {
    return ExpiringBloomFilter.builder(Funnels.integerFunnel()).window(Duration.ofMillis(WINDOW))
        .expectedInsertionsPerWindow(7).fpp(0.1).clock(clock).generations(8).build();
  }

  @BeforeAll
  void checkShapeAndKeys() {
    ExpiringBloomFilter<Integer> f = newFilter(new TestClock(ORIGIN));
    assertThat(f.generationSpan()).isEqualTo(Duration.ofMillis(SLOT));
    assertThat(f.maxRetention()).isEqualTo(Duration.ofMillis(MAX_RETENTION));
    assertThat(f.bitsPerGeneration()).isEqualTo(64);
    assertThat(f.hashFunctions()).isEqualTo(6);
    // The preconditions of the specification, on the interleaved words: k distinct cells per key,
    // pairwise disjoint, and two keys sharing a word so that their adds race on its CAS.
    BitSet seen = new BitSet();
    boolean shared = false;
    for (int i = 0; i < KEY_COUNT; i++) {
      BitSet bits = cellBits(KEYS[i]);
      assertThat(bits.cardinality()).as("distinct cells of key %d", KEYS[i]).isEqualTo(6);
      assertThat(bits.intersects(seen)).as("key %d overlaps an earlier key", KEYS[i]).isFalse();
      shared |= BloomFilterLincheckTest.wordsOf(bits).intersects(BloomFilterLincheckTest.wordsOf(seen));
      seen.or(bits);
    }
    assertThat(shared).as("two keys with cells in one word").isTrue();
  }

  /** The bits {@code key} sets in the interleaved words of an empty filter (all in generation 0). */
  static BitSet cellBits(int key) {
    TestClock clock = new TestClock(ORIGIN);
    ExpiringBloomFilter<Integer> shape = newFilter(clock);
    ExpiringPlan plan = new ExpiringPlan(shape.expectedInsertions(), shape.fpp(), WINDOW, shape.generationCount());
    ExpiringGenerations gens = ExpiringGenerations.empty(plan, clock);
    new ExpiringBloomFilter<Integer>(Funnels.integerFunnel(), gens, clock).add(key);
    return BitSet.valueOf(gens.bits.words);
  }

  /** The first {@code count} non-negative ints, in order, with 6 distinct cells none shared with an int before. */
  static int[] disjointKeys(int count) {
    int[] chosen = new int[count];
    BitSet taken = new BitSet();
    int found = 0;
    for (int candidate = 0; found < count; candidate++) {
      BitSet bits = cellBits(candidate);
      if (bits.cardinality() == 6 && !bits.intersects(taken)) {
        taken.or(bits);
        chosen[found++] = candidate;
      }
    }
    return chosen;
  }

  /**
   * Lincheck creates one per scenario run: a fresh clock at {@link #ORIGIN} and an empty filter on it.
   * Run sequentially, the same class is the specification.
   */
  @Param(name = "key", gen = IntGen.class, conf = "0:" + (KEY_COUNT - 1))
  public static class FilterUnderTest {
    final TestClock clock = new TestClock(ORIGIN);
    final ExpiringBloomFilter<Integer> filter = newFilter(clock);

    @Operation
    public void add(@Param(name = "key") int key) {
      filter.add(KEYS[key]);
    }

    @Operation
    public boolean mightContain(@Param(name = "key") int key) {
      return filter.mightContain(KEYS[key]);
    }

    @Operation
    public void tick() {
      clock.advance(TICK);
    }

    @Operation
    public void nextSlot() {
      clock.advance(SLOT);
    }

    @Operation
    public void expire() {
      clock.advance(MAX_RETENTION);
    }
  }

  /** The specification: the filter itself, called by one thread in the linearization's order. */
  public static final class SequentialFilter extends FilterUnderTest {}

  @Test
  void modelChecking() {
    BloomFilterLincheckTest.modelCheckingOptions()
        .iterations(4)
        .invocationsPerIteration(250)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(SequentialFilter.class)
        .check(FilterUnderTest.class);
  }

  @Test
  void modelCheckingThreeThreads() {
    BloomFilterLincheckTest.modelCheckingOptions()
        .iterations(2)
        .invocationsPerIteration(200)
        .threads(3)
        .actorsPerThread(2)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(SequentialFilter.class)
        .check(FilterUnderTest.class);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(3)
        .invocationsPerIteration(800)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(SequentialFilter.class)
        .check(FilterUnderTest.class);
  }

  /**
   * Shapes random scenarios reach rarely. Each keeps the clock moves between an add and a later query
   * below W unless an {@code expire()} separates them (see the class comment).
   * <ol>
   *   <li>An overdue step (clock at O + 1.3 s in slot 1, current slot still 0) raced by add(0) and a
   *       query that runs the step; then the clock moves 6.9 s to O + 8.2 s, in slot 8 where slot 0's
   *       generation is over, below the add's t + W: key 0 must be found (the add either redid itself
   *       in slot 1's generation).
   *   <li>The same with two adds racing for the step.
   *   <li>An add racing an {@code expire()} and the catch-up a query runs for it: key 0 is ordered before
   *       the expire (forgotten by both queries) or after it (found by the later one, at least).
   *   <li>An add that read the state before an {@code expire()} and the steps of a query, with one
   *       more slot so that it redoes itself in another generation; a second {@code expire()}
   *       afterwards: key 1 must be gone, also the bits its first try may have left in a generation
   *       the steps had just cleared (the lost dirty mark of the earlier design).
   *   <li>Key 1 added, then the clock moved by maxRetention with no call since: add(0) races the catch-up
   *       that a query runs. Key 1 must be gone afterwards (the earlier design's late add kept slot 0's
   *       generation, key 1 with it, until its own reading + W), and key 0 found.
   * </ol>
   */
  @Test
  void handWrittenScenarios() {
    List<Call> toSlot8 = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      toSlot8.add(call("nextSlot"));
    }
    for (int i = 0; i < 3; i++) {
      toSlot8.add(call("tick"));
    }
    List<Call> post1 = new ArrayList<>(toSlot8);
    post1.add(call("mightContain", 0));
    List<Call> post2 = new ArrayList<>(toSlot8);
    post2.add(call("mightContain", 0));
    post2.add(call("mightContain", 1));
    BloomFilterLincheckTest.modelCheckingOptions()
        .iterations(0)
        .invocationsPerIteration(200)
        .addCustomScenario(scenario(List.of(call("nextSlot"), call("tick")),
            List.of(List.of(call("add", 0)), List.of(call("mightContain", 1))), post1))
        .addCustomScenario(scenario(List.of(call("nextSlot"), call("tick")),
            List.of(List.of(call("add", 0)), List.of(call("add", 1))), post2))
        .addCustomScenario(scenario(List.of(call("add", 2)),
            List.of(List.of(call("add", 0)), List.of(call("expire"), call("mightContain", 0))),
            List.of(call("mightContain", 0))))
        .addCustomScenario(scenario(List.of(call("add", 0)),
            List.of(List.of(call("add", 1)), List.of(call("expire"), call("nextSlot"), call("mightContain", 2))),
            List.of(call("expire"), call("mightContain", 1))))
        .addCustomScenario(scenario(List.of(call("add", 1), call("expire")),
            List.of(List.of(call("add", 0)), List.of(call("mightContain", 2))),
            List.of(call("mightContain", 1), call("mightContain", 0))))
        .sequentialSpecification(SequentialFilter.class)
        .check(FilterUnderTest.class);
  }

  private static ExecutionScenario scenario(List<Call> init, List<List<Call>> threads, List<Call> post) {
    return BloomFilterLincheckTest.scenario(FilterUnderTest.class, init, threads, post);
  }
}
