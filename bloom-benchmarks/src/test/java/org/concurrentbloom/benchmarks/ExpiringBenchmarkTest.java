package org.concurrentbloom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The states of {@link ExpiringBenchmark} are what it says: a full window of G loaded generations at the
 * target rate for both libraries, with the same bits per item; an expiry step that forgets the oldest slot
 * and keeps the others; adds of keys the filter does not hold; ours allocation-free.
 */
class ExpiringBenchmarkTest {
  /** 10,000 keys per slot. */
  private static final int N = 70_000;
  private static final int G = ExpiringWindow.GENERATIONS;

  @ParameterizedTest
  @EnumSource(ExpiringImpl.class)
  void fullWindowFindsEveryKeyAndStaysWithinTheTarget(ExpiringImpl impl) {
    ExpiringBenchmark.AnyFilled state = new ExpiringBenchmark.AnyFilled();
    state.impl = impl;
    state.n = N;
    state.keys = KeyType.STRING;
    state.fillAndPrepare();
    assertThat(state.perSlot).isEqualTo(10_000);
    assertThat(state.filter.depth()).isEqualTo(G);
    for (long i = 0; i < state.windowKeys(); i++) {
      assertThat(state.filter.mightContain(KeyType.STRING.key(i))).isTrue();
    }
    int falsePositives = 0;
    for (long i = state.windowKeys(); i < state.windowKeys() + 100_000; i++) {
      if (state.filter.mightContain(KeyType.STRING.key(i))) {
        falsePositives++;
      }
    }
    // The target 1% of 100,000 plus 3 standard errors (95), and some.
    assertThat(falsePositives).as("%s false positives in 100,000", impl).isBetween(500, 1_095);
    assertThat(state.queries).hasSize(QueryKeys.COUNT);
  }

  @Test
  void bothLibrariesSpendTheSameBitsPerWindowItem() {
    for (int n : new int[] {N, 1_000_000, 10_000_000}) {
      double ours = (double) ExpiringImpl.OURS_EXPIRING.create(n, BenchmarkDefaults.FPP).bitSize() / n;
      CommonsLayered commons = (CommonsLayered) ExpiringImpl.COMMONS_LAYERED.create(n, BenchmarkDefaults.FPP);
      assertThat((double) commons.bitSize() / n).as("n = %d", n).isCloseTo(ours, org.assertj.core.data.Percentage
          .withPercentage(0.5));
      OursExpiring o = (OursExpiring) ExpiringImpl.OURS_EXPIRING.create(n, BenchmarkDefaults.FPP);
      assertThat(commons.shape().getNumberOfHashFunctions()).isEqualTo(o.filter().hashFunctions());
    }
  }

  @ParameterizedTest
  @EnumSource(value = ExpiringImpl.class, names = {"OURS_EXPIRING", "COMMONS_LAYERED"})
  void aStepForgetsTheOldestSlotOfAFullWindowAndKeepsTheRest(ExpiringImpl impl) {
    ExpiringBenchmark.Stepping state = new ExpiringBenchmark.Stepping();
    state.impl = impl;
    state.n = N;
    state.keys = KeyType.STRING;
    state.fillAndPrepare();
    for (int step = 0; step < 3; step++) { // each step drops slot `step`, whose keys are cycle[step·10,000 ..]
      state.refill();
      assertThat(state.inSlot).isEqualTo(state.perSlot);
      state.step();
      assertThat(state.filter.depth()).isEqualTo(G);
      int oldFound = 0;
      for (int i = step * state.perSlot; i < (step + 1) * state.perSlot; i++) {
        if (state.filter.mightContain(state.cycle[i])) {
          oldFound++;
        }
      }
      // Forgotten but for false positives (and the one key the step re-added: cycle[step·10,000]).
      assertThat(oldFound).as("%s: keys of the dropped slot still found", impl).isLessThan(200);
      for (int i = (step + 1) * state.perSlot; i < state.windowKeys(); i++) {
        assertThat(state.filter.mightContain(state.cycle[i])).isTrue();
      }
    }
  }

  @Test
  void addsStepBetweenInvocationsAndAddOnlyKeysTheFilterDoesNotHold() {
    ExpiringBenchmark.AnyAdding state = new ExpiringBenchmark.AnyAdding();
    state.impl = ExpiringImpl.OURS_EXPIRING;
    state.n = 7 * 3 * ExpiringBenchmark.ADDS_PER_CALL; // slots of 3 invocations' keys
    state.keys = KeyType.STRING;
    state.fillAndPrepare();
    long absent = 0;
    int invocations = 40; // past the end of the key array, so the keys come round
    for (int i = 0; i < invocations; i++) {
      state.stepIfDue();
      absent += state.addBlock(ExpiringBenchmark.ADDS_PER_CALL);
      assertThat(state.inSlot.get()).isLessThanOrEqualTo(state.perSlot);
      assertThat(state.filter.depth()).isEqualTo(G);
    }
    // A slot of 3 invocations' keys has room for one past the step's key: the next would leave no room for 2.
    assertThat(state.steps).isEqualTo(invocations);
    long added = (long) invocations * ExpiringBenchmark.ADDS_PER_CALL;
    assertThat(absent).as("adds reported new").isGreaterThan(added - added / 50);
  }

  @Test
  void sharedStatesRefuseCommons() {
    ExpiringBenchmark.SharedAdding state = new ExpiringBenchmark.SharedAdding();
    state.impl = ExpiringImpl.COMMONS_LAYERED;
    assertThatThrownBy(state::impl).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("thread-safe");
  }

  /** As bloom-core's AllocationFreeHashingTest: a regression to one object per call would show as megabytes. */
  @Test
  void oursAddAndLookupDoNotAllocate() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    OursExpiring filter = (OursExpiring) ExpiringImpl.OURS_EXPIRING.create(N, BenchmarkDefaults.FPP);
    Object[] keys = QueryKeys.fresh(KeyType.STRING, 1024);
    long hits = exercise(filter, keys); // warm-up: code gets compiled
    hits += exercise(filter, keys);
    long before = threads.getCurrentThreadAllocatedBytes();
    hits += exercise(filter, keys);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(hits).isPositive();
    assertThat(allocated).as("bytes allocated by 400,000 calls").isLessThan(16 * 1024);
  }

  private static long exercise(OursExpiring filter, Object[] keys) {
    long hits = 0;
    for (int i = 0; i < 200_000; i++) {
      filter.add(keys[i & 1023]);
      if (filter.mightContain(keys[(i * 7) & 1023])) {
        hits++;
      }
    }
    return hits;
  }
}
