package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.concurrentbloom.BloomFilterLincheckTest.call;
import static org.concurrentbloom.BloomFilterLincheckTest.scenario;
import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: {@code add}, {@code remove}, {@code mightContain}, {@code clear} and {@code merge} of a
 * {@link CountingBloomFilter} are linearizable against a multiset.
 *
 * <p>As in {@link BloomFilterLincheckTest} (read its class comment), a multiset is a fair specification
 * only for keys whose counters are pairwise disjoint: then no key is reported present, or removed,
 * through other keys' counters. The filter has 256 counters (16 words) and 3 hash functions; the keys
 * are the first {@value BloomFilterLincheckTest#KEY_COUNT} ints disjoint in the standard layout of the
 * same shape, whose bits are the counters' positions. {@link #KEYS} numbers them so that keys 0 and 1,
 * the ones the merge brings, are split by counter-word order, and the constructor asserts that two keys
 * share a counter word, so that their updates race on one CAS.
 *
 * <p>What this adds to the set specification of the standard filter: remove returns true exactly when
 * the multiset holds the key, and takes one copy, so two removes racing for one add cannot both succeed
 * and a remove racing with an add of the same key is ordered wholly before or after it. {@code add}'s
 * result is not checked (two concurrent adds of a new key may both return true, as in the standard
 * filter). Counts stay far below 15 in these short scenarios, so no counter saturates.
 *
 * <p><b>Known reach.</b> Checked by seeding faults: removes that skip the gate (two removes of a key
 * added once then both pass the check and one decrements a zero counter) fail the hand-written
 * scenarios; a merge done in place fails {@link #mergeIsAtomicForReaders}. A remove that acts on half of
 * an add of the same key cannot show here: with disjoint keys no other key holds the counters the add
 * has not reached yet, so the remove fails its check. CountingAddRemoveSameItem in bloom-jcstress
 * covers that race with an overlapping key.
 *
 * <p>Budget: about 20 seconds on two cores.
 */
@Tag("jdk-independent") // Lincheck explores interleavings of the library's bytecode: the same on every JDK (.ci/run)
public class CountingBloomFilterLincheckTest {
  static final Keys KEYS = new Keys(new StandardLayout(256, 3));
  /**
   * Stripes of the filter's gate: 2 of 8 words each, not 16 of one word. Every stripe a merge enters (in
   * both filters) adds switch points to the model checker's search, which dilute the one that matters.
   */
  static final int STRIPES = 2;

  /** The key domain: disjoint counters, merged keys split by word order, two keys sharing a word. */
  static final class Keys {
    final int[] keys;
    final int[] sharingAWord;

    Keys(Layout layout) {
      int count = BloomFilterLincheckTest.KEY_COUNT;
      int[] found = BloomFilterLincheckTest.disjointKeys(layout, count);
      BitSet[] words = new BitSet[count];
      for (int i = 0; i < count; i++) {
        words[i] = counterWords(BloomFilterLincheckTest.probeBits(layout, found[i]));
      }
      int[] split = null;
      int[] sharing = null;
      for (int i = 0; i < count; i++) {
        for (int j = i + 1; j < count; j++) {
          if (split == null && BloomFilterLincheckTest.Domain.isSplitByWordOrder(words[i], words[j])) {
            split = new int[] {i, j};
          }
          if (sharing == null && words[i].intersects(words[j])) {
            sharing = new int[] {i, j};
          }
        }
      }
      assertThat(split).as("two keys split by counter-word order in %s", layout.shape()).isNotNull();
      assertThat(sharing).as("two keys sharing a counter word in %s", layout.shape()).isNotNull();
      keys = new int[count];
      keys[0] = found[split[0]];
      keys[1] = found[split[1]];
      for (int i = 0, next = 2; i < count; i++) {
        if (i != split[0] && i != split[1]) {
          keys[next++] = found[i];
        }
      }
      sharingAWord = new int[] {indexOf(found[sharing[0]]), indexOf(found[sharing[1]])};
    }

    private int indexOf(int key) {
      for (int i = 0; i < keys.length; i++) {
        if (keys[i] == key) {
          return i;
        }
      }
      throw new AssertionError(key);
    }

    private static BitSet counterWords(BitSet counters) {
      BitSet words = new BitSet();
      counters.stream().forEach(c -> words.set(c / CounterWords.PER_WORD));
      return words;
    }
  }

  // ---------------------------------------------------------------- the object under test and its spec

  /** One fresh filter, and a merge source holding keys 0 and 1 once, per scenario run. */
  @Param(name = "key", gen = IntGen.class, conf = "0:" + (BloomFilterLincheckTest.KEY_COUNT - 1))
  public static class FilterUnderTest {
    private final CountingBloomFilter<Integer> filter = newFilter();
    private final CountingBloomFilter<Integer> mergeSource = newFilter();

    public FilterUnderTest() {
      mergeSource.add(KEYS.keys[0]);
      mergeSource.add(KEYS.keys[1]);
    }

    private static CountingBloomFilter<Integer> newFilter() {
      return CountingBloomFilter.withShape(Funnels.integerFunnel(), 256, 3, STRIPES);
    }

    @Operation
    public void add(@Param(name = "key") int key) {
      filter.add(KEYS.keys[key]);
    }

    @Operation
    public boolean remove(@Param(name = "key") int key) {
      return filter.remove(KEYS.keys[key]);
    }

    @Operation
    public boolean mightContain(@Param(name = "key") int key) {
      return filter.mightContain(KEYS.keys[key]);
    }

    @Operation
    public void clear() {
      filter.clear();
    }

    @Operation
    public void merge() {
      filter.merge(mergeSource);
    }
  }

  /** The sequential specification: a multiset of key indices. */
  public static final class MultisetSpec {
    private final Map<Integer, Integer> copies = new HashMap<>();

    public void add(int key) {
      copies.merge(key, 1, Integer::sum);
    }

    public boolean remove(int key) {
      Integer n = copies.get(key);
      if (n == null) {
        return false;
      }
      if (n == 1) {
        copies.remove(key);
      } else {
        copies.put(key, n - 1);
      }
      return true;
    }

    public boolean mightContain(int key) {
      return copies.containsKey(key);
    }

    public void clear() {
      copies.clear();
    }

    public void merge() {
      add(0);
      add(1);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof MultisetSpec other && other.copies.equals(copies);
    }

    @Override
    public int hashCode() {
      return copies.hashCode();
    }
  }

  /** BloomFilterLincheckTest's options, with the per-thread probe scratch also left out of the analysis. */
  private static ModelCheckingOptions options() {
    return BloomFilterLincheckTest.modelCheckingOptions()
        .addGuarantee(forClasses("org.concurrentbloom.CounterProbes").allMethods().ignore());
  }

  // ---------------------------------------------------------------- random scenarios

  @Test
  void modelChecking() {
    options()
        .iterations(10)
        .invocationsPerIteration(250)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(2)
        .actorsAfter(1)
        .sequentialSpecification(MultisetSpec.class)
        .check(FilterUnderTest.class);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(10)
        .invocationsPerIteration(3_000)
        .threads(3)
        .actorsPerThread(3)
        .actorsBefore(2)
        .actorsAfter(2)
        .sequentialSpecification(MultisetSpec.class)
        .check(FilterUnderTest.class);
  }

  // ---------------------------------------------------------------- hand-written scenarios

  /**
   * The races that random scenarios reach rarely: two removes for one add (at most one succeeds); an
   * add racing a remove of the same key, with and without a copy already present; removes of two keys
   * whose counters share a word; an add and a remove of keys sharing a word, then both queried; a reader
   * an add during a merge, then a query and a remove; and a query that saw a key, then a clear, while an
   * add of it runs. {@link #mergeIsAtomicForReaders} has the scenarios of a reader during a merge.
   */
  @Test
  void handWrittenScenarios() {
    int a = KEYS.sharingAWord[0];
    int b = KEYS.sharingAWord[1];
    int other = 2;
    Class<?> target = FilterUnderTest.class;
    options()
        .iterations(0)
        .invocationsPerIteration(300)
        .addCustomScenario(scenario(target, List.of(call("add", other)),
            List.of(List.of(call("remove", other)), List.of(call("remove", other))),
            List.of(call("mightContain", other), call("remove", other))))
        .addCustomScenario(scenario(target,
            List.of(List.of(call("add", other)), List.of(call("remove", other), call("mightContain", other))),
            List.of(call("mightContain", other))))
        .addCustomScenario(scenario(target, List.of(call("add", other)),
            List.of(List.of(call("add", other)), List.of(call("remove", other), call("remove", other))),
            List.of(call("mightContain", other))))
        .addCustomScenario(scenario(target, List.of(call("add", a), call("add", b)),
            List.of(List.of(call("remove", a)), List.of(call("remove", b)),
                List.of(call("mightContain", a), call("mightContain", b))),
            List.of(call("mightContain", a), call("mightContain", b))))
        .addCustomScenario(scenario(target, List.of(call("add", b)),
            List.of(List.of(call("add", a)), List.of(call("remove", b))),
            List.of(call("mightContain", a), call("mightContain", b))))
        .addCustomScenario(scenario(target,
            List.of(List.of(call("add", other)), List.of(call("merge"))),
            List.of(call("mightContain", other), call("remove", other))))
        .addCustomScenario(scenario(target,
            List.of(List.of(call("add", other)), List.of(call("mightContain", other), call("clear"))),
            List.of(call("mightContain", other))))
        .sequentialSpecification(MultisetSpec.class)
        .check(target);
  }

  /**
   * A reader asks for key 0, key 1, then key 0 again while the merge runs (so either key arriving first
   * shows): it must not see one merged and then the other not. The failing interleaving of a merge done
   * in place needs the one switch that falls between the words completing the two keys, among the many
   * switch points of the merge's gate entries and word loop. Checked by seeding that fault: 1500
   * invocations missed it, 3000 find it (and with 16 stripes not even 3000 did).
   */
  @Test
  void mergeIsAtomicForReaders() {
    Class<?> target = FilterUnderTest.class;
    options()
        .iterations(0)
        .invocationsPerIteration(3_000)
        .addCustomScenario(scenario(target,
            List.of(List.of(call("merge")),
                List.of(call("mightContain", 0), call("mightContain", 1), call("mightContain", 0))),
            List.of()))
        .sequentialSpecification(MultisetSpec.class)
        .check(target);
  }
}
