package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.BitSet;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** What the counting filter adds to the shared contract: counters, removal, saturation, merge, snapshots. */
class CountingBloomFilterTest {

  private static CountingBloomFilter<CharSequence> strings(long n, double p) {
    return CountingBloomFilter.create(Funnels.stringFunnel(), n, p);
  }

  /**
   * The distinct counters {@code item} uses in {@code filter}'s shape and hash strategy, found by adding it
   * alone (to an emptied copy, which keeps both).
   */
  static <T> BitSet countersOf(CountingBloomFilter<T> shapeOf, Funnel<? super T> funnel, T item) {
    CountingBloomFilter<T> alone = shapeOf.copy();
    alone.clear();
    alone.add(item);
    return nonZero(alone);
  }

  static BitSet nonZero(CountingBloomFilter<?> f) {
    BitSet set = new BitSet();
    for (long i = 0; i < f.counterCount(); i++) {
      if (CounterWords.getAcquire(f.currentWords(), i) != 0) {
        set.set((int) i);
      }
    }
    return set;
  }

  private static int counter(CountingBloomFilter<?> f, int i) {
    return CounterWords.getAcquire(f.currentWords(), i);
  }

  // ---------------------------------------------------------------- shape

  @Test
  void sizedLikeTheStandardFilterWithFourBitsPerCounter() {
    for (long n : new long[] {1, 1_000, 123_457}) {
      for (double p : new double[] {0.1, 0.01, 1e-6}) {
        BloomFilter<CharSequence> standard = BloomFilter.create(Funnels.stringFunnel(), n, p);
        CountingBloomFilter<CharSequence> counting = strings(n, p);
        assertThat(counting.counterCount()).isEqualTo(standard.bitSize());
        assertThat(counting.hashFunctions()).isEqualTo(standard.hashFunctions());
        assertThat(counting.bitSize()).isEqualTo(4 * standard.bitSize());
        assertThat(counting.currentWords()).hasSize(4 * standard.currentWords().length);
      }
    }
    // 5e9 items at 1% need 4.8e10 counters: a standard filter of that many bits fits, the counters do not.
    assertThatThrownBy(() -> strings(5_000_000_000L, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions=5000000000")
        .hasMessageContaining("limit of " + CounterWords.MAX_COUNTERS + " counters");
  }

  @Test
  void builderBuildsWhatCreateBuildsAndAnswersAlike() {
    for (long n : new long[] {1, 1_000, 123_457}) {
      for (double p : new double[] {0.1, 0.01, 1e-6}) {
        CountingBloomFilter.Builder<CharSequence> b =
            CountingBloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(n).fpp(p);
        CountingBloomFilter<CharSequence> built = b.build();
        CountingBloomFilter<CharSequence> created = strings(n, p);
        assertThat(b.counterCount()).as("counterCount before build").isEqualTo(built.counterCount());
        assertThat(built.counterCount()).isEqualTo(created.counterCount());
        assertThat(built.hashFunctions()).isEqualTo(created.hashFunctions());
        assertThat(built.expectedInsertions()).isEqualTo(n);
        assertThat(built.fpp()).isEqualTo(p);
        assertThat(built.toString()).isEqualTo(created.toString());
        for (int i = 0; i < 200; i++) {
          assertThat(built.add("k" + i)).isEqualTo(created.add("k" + i));
        }
        assertThat(built.currentWords()).isEqualTo(created.currentWords());
        for (int i = 0; i < 2_000; i++) {
          assertThat(built.mightContain("q" + i)).isEqualTo(created.mightContain("q" + i));
        }
      }
    }
  }

  @Test
  void builderDefaultsToOnePercent() {
    CountingBloomFilter<CharSequence> f =
        CountingBloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10_000).build();
    assertThat(f.fpp()).isEqualTo(0.01);
    assertThat(f.counterCount()).isEqualTo(strings(10_000, 0.01).counterCount());
  }

  @Test
  void builderRejectsBadValuesAsCreateDoesNamingThem() {
    CountingBloomFilter.Builder<CharSequence> unset = CountingBloomFilter.builder(Funnels.stringFunnel());
    assertThatThrownBy(unset::build).isInstanceOf(IllegalStateException.class)
        .hasMessage("expectedInsertions(n) must be set before build()");
    assertThatThrownBy(unset::counterCount).isInstanceOf(IllegalStateException.class)
        .hasMessage("expectedInsertions(n) must be set before build()");
    assertThatThrownBy(() -> unset.expectedInsertions(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedInsertions must be >= 1, was 0");
    assertThatThrownBy(() -> strings(0, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedInsertions must be >= 1, was 0");
    for (double bad : new double[] {0, 1, -0.5, Double.NaN}) {
      assertThatThrownBy(() -> unset.fpp(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("fpp must be in the open interval (0, 1), was " + bad);
      assertThatThrownBy(() -> strings(10, bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("fpp must be in the open interval (0, 1), was " + bad);
    }
    assertThatThrownBy(() -> CountingBloomFilter.builder(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("funnel");
    // Too large: counterCount refuses as build does, before anything is allocated.
    CountingBloomFilter.Builder<CharSequence> huge = CountingBloomFilter.builder(Funnels.stringFunnel())
        .expectedInsertions(5_000_000_000L);
    for (var call : List.<ThrowingCallable>of(huge::counterCount, huge::build,
        () -> strings(5_000_000_000L, 0.01))) {
      assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("expectedInsertions=5000000000").hasMessageContaining("at fpp=0.01")
          .hasMessageContaining("limit of " + CounterWords.MAX_COUNTERS + " counters");
    }
    // Below one counter: the degenerate-size rule, as create and BloomFilter.create apply it.
    CountingBloomFilter.Builder<CharSequence> tiny =
        CountingBloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(1).fpp(0.9);
    assertThatThrownBy(tiny::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions=1 at fpp=0.9").hasMessageContaining("less than one bit");
    assertThatThrownBy(() -> strings(1, 0.9)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(catchMessage(tiny::counterCount));
  }

  private static String catchMessage(ThrowingCallable call) {
    return catchThrowable(call).getMessage();
  }

  // ---------------------------------------------------------------- add and remove

  @Test
  void removeAfterDoubleAddTakesOneCopyAtATime() {
    CountingBloomFilter<CharSequence> f = strings(1_000, 0.01);
    assertThat(f.add("x")).isTrue();
    assertThat(f.add("x")).isFalse();
    assertThat(f.count()).isEqualTo(1);
    assertThat(f.remove("x")).isTrue();
    assertThat(f.mightContain("x")).as("one copy left").isTrue();
    assertThat(f.count()).as("the item is still present").isEqualTo(1);
    assertThat(f.remove("x")).isTrue();
    assertThat(f.mightContain("x")).isFalse();
    assertThat(f.count()).isZero();
    assertThat(f.remove("x")).isFalse();
    assertThat(f.currentWords()).containsOnly(0L);
    assertThat(f.add("x")).isTrue();
  }

  @Test
  void removeOfAnAbsentItemChangesNothing() {
    CountingBloomFilter<CharSequence> f = strings(200, 0.01);
    for (int i = 0; i < 200; i++) {
      f.add("present" + i);
    }
    long[] before = f.currentWords().clone();
    long count = f.count();
    int refused = 0;
    for (int i = 0; i < 2_000; i++) {
      String absent = "absent" + i;
      if (!f.mightContain(absent)) {
        assertThat(f.remove(absent)).as(absent).isFalse();
        refused++;
      }
    }
    assertThat(refused).isGreaterThan(1_900); // all but the false positives, about 1%
    assertThat(f.currentWords()).isEqualTo(before);
    assertThat(f.count()).isEqualTo(count);
  }

  /** An item whose counters are partly set by other items: the remove must not touch those either. */
  @Test
  void removeOfAPartlyCoveredItemChangesNothing() {
    CountingBloomFilter<CharSequence> f = CountingBloomFilter.withShape(Funnels.stringFunnel(), 64, 3);
    BitSet target = countersOf(f, Funnels.stringFunnel(), "target");
    int covering = 0;
    for (int i = 0; covering < 2 && i < 10_000; i++) {
      String other = "other" + i;
      BitSet theirs = countersOf(f, Funnels.stringFunnel(), other);
      BitSet shared = (BitSet) theirs.clone();
      shared.and(target);
      if (!shared.isEmpty()) {
        BitSet after = nonZero(f);
        after.or(theirs);
        BitSet missing = (BitSet) target.clone();
        missing.andNot(after);
        if (!missing.isEmpty()) { // keep at least one of target's counters at 0
          f.add(other);
          covering++;
        }
      }
    }
    assertThat(covering).isEqualTo(2);
    long[] before = f.currentWords().clone();
    assertThat(f.remove("target")).isFalse();
    assertThat(f.currentWords()).isEqualTo(before);
  }

  /** When all k probes land on one counter the item uses one counter, incremented and decremented once. */
  @Test
  void repeatedProbesCountOnce() {
    CountingBloomFilter<CharSequence> f = CountingBloomFilter.withShape(Funnels.stringFunnel(), 1, 5);
    assertThat(f.add("a")).isTrue();
    assertThat(counter(f, 0)).isEqualTo(1);
    assertThat(f.add("b")).isFalse(); // a false positive: its only counter is set
    assertThat(counter(f, 0)).isEqualTo(2);
    assertThat(f.remove("a")).isTrue();
    assertThat(f.mightContain("b")).isTrue();
    assertThat(f.remove("b")).isTrue();
    assertThat(counter(f, 0)).isZero();
    assertThat(f.remove("b")).isFalse();
  }

  // ---------------------------------------------------------------- saturation

  @Test
  void countersStickAtFifteen() {
    CountingBloomFilter<CharSequence> f = strings(1_000, 0.01);
    BitSet mine = countersOf(f, Funnels.stringFunnel(), "hot");
    for (int i = 0; i < 14; i++) {
      f.add("hot");
    }
    assertThat(f.stuckCounters()).isZero();
    mine.stream().forEach(c -> assertThat(counter(f, c)).isEqualTo(14));
    f.add("hot");
    assertThat(f.stuckCounters()).isEqualTo(mine.cardinality());
    for (int i = 0; i < 10; i++) {
      f.add("hot");
    }
    mine.stream().forEach(c -> assertThat(counter(f, c)).as("never past 15").isEqualTo(15));
    // 25 adds, but the counters cannot tell how many: every remove succeeds and none takes them down.
    for (int i = 0; i < 40; i++) {
      assertThat(f.remove("hot")).isTrue();
    }
    mine.stream().forEach(c -> assertThat(counter(f, c)).as("never decremented").isEqualTo(15));
    assertThat(f.mightContain("hot")).isTrue();
    assertThat(f.stuckCounters()).isEqualTo(mine.cardinality());
  }

  /** Removing an item that has a stuck counter decrements its other counters and leaves the stuck one. */
  @Test
  void removeOfAnItemWithAStuckCounterTakesDownOnlyTheOthers() {
    CountingBloomFilter<CharSequence> f = CountingBloomFilter.withShape(Funnels.stringFunnel(), 256, 3);
    BitSet hot = countersOf(f, Funnels.stringFunnel(), "hot");
    String neighbour = null;
    for (int i = 0; neighbour == null; i++) {
      BitSet theirs = countersOf(f, Funnels.stringFunnel(), "n" + i);
      BitSet shared = (BitSet) theirs.clone();
      shared.and(hot);
      if (shared.cardinality() == 1 && theirs.cardinality() == 3) {
        neighbour = "n" + i;
      }
    }
    for (int i = 0; i < 15; i++) {
      f.add("hot");
    }
    BitSet theirs = countersOf(f, Funnels.stringFunnel(), neighbour);
    f.add(neighbour);
    assertThat(f.remove(neighbour)).isTrue();
    theirs.stream().forEach(c -> assertThat(counter(f, c)).isEqualTo(hot.get(c) ? 15 : 0));
    assertThat(f.mightContain(neighbour)).isFalse();
    assertThat(f.mightContain("hot")).isTrue();
  }

  @Test
  void mergeSaturatesAndSticks() {
    CountingBloomFilter<CharSequence> a = strings(1_000, 0.01);
    CountingBloomFilter<CharSequence> b = strings(1_000, 0.01);
    for (int i = 0; i < 7; i++) {
      a.add("seven");
      b.add("seven");
      a.add("eight");
      b.add("eight");
    }
    a.add("eight");
    b.add("unrelated");
    a.merge(b);
    BitSet seven = countersOf(a, Funnels.stringFunnel(), "seven");
    BitSet eight = countersOf(a, Funnels.stringFunnel(), "eight");
    seven.stream().filter(c -> !eight.get(c)).forEach(c -> assertThat(counter(a, c)).isEqualTo(14));
    eight.stream().filter(c -> !seven.get(c)).forEach(c -> assertThat(counter(a, c)).as("8 + 7").isEqualTo(15));
    assertThat(a.stuckCounters()).isGreaterThanOrEqualTo(1);
    for (int i = 0; i < 14; i++) {
      assertThat(a.remove("seven")).isTrue();
    }
    assertThat(a.mightContain("seven")).as("14 copies, 14 removes").isFalse();
    for (int i = 0; i < 30; i++) {
      assertThat(a.remove("eight")).isTrue();
    }
    assertThat(a.mightContain("eight")).as("stuck counters keep it").isTrue();
    assertThat(a.mightContain("unrelated")).isTrue();
  }

  // ---------------------------------------------------------------- merge, copy, clear

  @Test
  void mergeAddsCountersAndCounts() {
    CountingBloomFilter<CharSequence> a = strings(1_000, 0.01);
    CountingBloomFilter<CharSequence> b = strings(1_000, 0.01);
    for (int i = 0; i < 300; i++) {
      a.add("a" + i);
      b.add("b" + i);
      b.add("shared" + i);
      a.add("shared" + i);
    }
    long[] before = b.currentWords().clone();
    a.merge(b);
    assertThat(b.currentWords()).as("the source is unchanged").isEqualTo(before);
    assertThat(a.count()).isEqualTo(1_200);
    for (int i = 0; i < 300; i++) {
      assertThat(a.mightContain("a" + i) && a.mightContain("b" + i)).isTrue();
    }
    // The shared items are there twice: removing one copy of each keeps them all.
    for (int i = 0; i < 300; i++) {
      assertThat(a.remove("shared" + i)).isTrue();
    }
    for (int i = 0; i < 300; i++) {
      assertThat(a.mightContain("shared" + i)).isTrue();
    }
    long[] doubled = a.currentWords().clone();
    a.merge(a);
    for (int w = 0; w < doubled.length; w++) {
      assertThat(a.currentWords()[w]).isEqualTo(CounterWords.saturatingAdd(doubled[w], doubled[w]));
    }
  }

  @Test
  void mergeOfIncompatibleFiltersNamesBothShapesAndChangesNothing() {
    CountingBloomFilter<CharSequence> a = strings(1_000, 0.01);
    CountingBloomFilter<CharSequence> b = strings(2_000, 0.01);
    a.add("kept");
    long[] before = a.currentWords().clone();
    assertThat(a.isCompatible(b)).isFalse();
    assertThatThrownBy(() -> a.merge(b)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("counters=" + a.counterCount())
        .hasMessageContaining("counters=" + b.counterCount());
    assertThat(a.currentWords()).isEqualTo(before);
    CountingBloomFilter<CharSequence> otherK = CountingBloomFilter.withShape(Funnels.stringFunnel(),
        a.counterCount(), a.hashFunctions() + 1);
    assertThat(a.isCompatible(otherK)).isFalse();
    assertThatThrownBy(() -> a.merge(otherK)).hasMessageContaining("hashFunctions=" + (a.hashFunctions() + 1));
  }

  @Test
  void copyIsIndependent() {
    CountingBloomFilter<CharSequence> original = strings(1_000, 0.01);
    original.add("shared");
    original.add("removed later");
    CountingBloomFilter<CharSequence> copy = original.copy();
    copy.add("only in copy");
    original.remove("removed later");
    assertThat(copy.mightContain("removed later")).isTrue();
    assertThat(original.mightContain("only in copy")).isFalse();
    assertThat(copy.count()).isEqualTo(3);
    assertThat(original.count()).isEqualTo(1);
  }

  @Test
  void clearEmptiesEveryCounter() {
    CountingBloomFilter<CharSequence> f = strings(100, 0.01);
    for (int i = 0; i < 20; i++) {
      f.add("x");
    }
    f.clear();
    assertThat(f.currentWords()).containsOnly(0L);
    assertThat(f.stuckCounters()).isZero();
    assertThat(f.remove("x")).isFalse();
  }

  // ---------------------------------------------------------------- the standard snapshot

  /**
   * toBloomFilter is the standard filter of the items present: after adding 4000 keys and removing half,
   * its bits equal those of a standard filter of the same n and p that was given only the other half.
   */
  @Test
  void toBloomFilterIsTheStandardFilterOfTheItemsPresent() {
    for (HashStrategy strategy : FilterType.COUNTING.strategies()) {
      toBloomFilterIsTheStandardFilterOfTheItemsPresent(strategy);
    }
  }

  private static void toBloomFilterIsTheStandardFilterOfTheItemsPresent(HashStrategy strategy) {
    CountingBloomFilter<CharSequence> counting = CountingBloomFilter.builder(Funnels.stringFunnel())
        .expectedInsertions(5_000).fpp(0.01).hashStrategy(strategy).build();
    // A snapshot has the counting filter's strategy: 4 by default, 1 for files written before it.
    BloomFilter<CharSequence> standard = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(5_000)
        .fpp(0.01).hashStrategy(strategy).build();
    for (int i = 0; i < 4_000; i++) {
      String key = "key" + i;
      counting.add(key);
      if (i % 2 == 0) {
        standard.add(key);
      }
    }
    for (int i = 1; i < 4_000; i += 2) {
      assertThat(counting.remove("key" + i)).isTrue();
    }
    assertThat(counting.stuckCounters()).as("no saturation, so counters are exact").isZero();
    BloomFilter<CharSequence> snapshot = counting.toBloomFilter();
    assertThat(snapshot.filterType()).isEqualTo(FilterType.STANDARD);
    assertThat(snapshot.hashStrategy()).isEqualTo(strategy);
    assertThat(snapshot.bitSize()).isEqualTo(standard.bitSize());
    assertThat(snapshot.hashFunctions()).isEqualTo(standard.hashFunctions());
    assertThat(snapshot.expectedInsertions()).isEqualTo(5_000);
    assertThat(snapshot.fpp()).isEqualTo(0.01);
    assertThat(snapshot.currentWords()).isEqualTo(standard.currentWords());
    assertThat(snapshot.count()).isEqualTo(counting.count());
    assertThat(snapshot.fillRatio()).isEqualTo(counting.fillRatio());
    for (int i = 0; i < 20_000; i++) {
      String probe = "key" + i;
      assertThat(snapshot.mightContain(probe)).as(probe).isEqualTo(counting.mightContain(probe));
    }
    // A snapshot, not a view.
    counting.add("later");
    assertThat(snapshot.mightContain("later")).isEqualTo(standard.mightContain("later"));
  }

  @Test
  void statisticsFollowAddsAndRemoves() {
    CountingBloomFilter<Integer> f = CountingBloomFilter.create(Funnels.integerFunnel(), 10_000, 0.01);
    int added = 0;
    for (int i = 0; i < 10_000; i++) {
      added += f.add(i) ? 1 : 0;
    }
    double fullFill = f.fillRatio();
    long fullEstimate = f.approximateElementCount();
    int emptied = 0;
    for (int i = 0; i < 10_000; i += 2) {
      assertThat(f.remove(i)).isTrue();
      emptied += f.mightContain(i) ? 0 : 1;
    }
    // A remove counts when it makes its item absent; a few leave it covered by others (a false positive).
    assertThat(f.count()).isEqualTo(added - emptied);
    assertThat((double) f.count()).isCloseTo(5_000, org.assertj.core.api.Assertions.within(50.0));
    assertThat(f.fillRatio()).isLessThan(fullFill);
    assertThat((double) f.approximateElementCount()).isCloseTo(fullEstimate / 2.0,
        org.assertj.core.api.Assertions.within(fullEstimate * 0.05));
    assertThat(f.estimatedFpp()).isLessThan(0.01 / 5);
    assertThat(f.toString()).contains("counters=" + f.counterCount()).contains("count=" + f.count());
  }
}
