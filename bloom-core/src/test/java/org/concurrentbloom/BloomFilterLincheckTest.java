package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.CustomScenarioDSLKt;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: {@code add}, {@code mightContain}, {@code clear} and {@code merge} of one {@link BloomFilter}
 * are linearizable against a plain set.
 *
 * <p><b>Why a set is a fair specification here.</b> A Bloom filter in general is not linearizable
 * against a deterministic sequential Bloom filter: when two items' probe sets overlap, a reader can
 * combine a half-finished add's bits with another item's bits and answer true for an item nobody
 * added: a false positive, harmless and inherent. So the test uses a filter of {@value #BITS} bits and
 * {@value #HASH_FUNCTIONS} hash functions and a domain of {@value #KEY_COUNT} integer keys whose probe
 * sets are pairwise disjoint (the first such ints, found by a deterministic search and asserted in
 * {@link #checkKeys()}). No key's bits can then be covered by other keys, a filter that never had key
 * i added or merged answers false for it, and the only correct behaviours are those of a set. The
 * keys' bits are spread over several 64-bit words and words are shared between keys, so concurrent
 * adds of different keys do race on one word.
 *
 * <p><b>Operations.</b> {@code add(i)} and {@code mightContain(i)} for a key index i, {@code clear()},
 * and {@code merge()}, which ORs in a filter built beforehand that holds the keys {@link #MERGED}.
 *
 * <p><b>add's result is not checked</b> in the main tests ({@code add} is {@code void} there): two
 * concurrent adds of the same new key may both return true, each having set one of the key's bits
 * first. BloomFilter's class comment documents that, and no sequential set allows it. {@link
 * AddResultTest} checks the result where adds never overlap each other (a Lincheck
 * {@code nonParallelGroup}) but do overlap queries, clears and merges.
 *
 * <p><b>Strategies.</b> Model checking, where Lincheck chooses the interleaving at every shared-memory
 * access (the {@code VarHandle} CASes of {@code AtomicWords}, the seal and the table swap), on random
 * scenarios and on hand-written ones for shapes random generation rarely produces; and stress, with
 * real threads. The sizes keep the class at 30 to 50 s on two cores.
 */
public class BloomFilterLincheckTest {
  static final int BITS = 256;
  static final int HASH_FUNCTIONS = 3;
  static final int KEY_COUNT = 5;
  /** The integer items, pairwise disjoint in their probe bits. Index i is the operations' key i. */
  static final int[] KEYS = disjointKeys(BITS, HASH_FUNCTIONS, KEY_COUNT);

  /**
   * Indices (into {@link #KEYS}) of the two keys the merged-in filter holds: the first pair whose
   * lowest words differ and whose highest words differ, so that a merge done word by word, in either
   * direction, would have a moment where one key is complete and the other is not.
   */
  static final int[] MERGED = keysSplitByWordOrder();

  /** A key index that {@link #MERGED} does not hold. */
  static final int NOT_MERGED = MERGED[0] == 0 ? (MERGED[1] == 1 ? 2 : 1) : 0;

  @BeforeAll
  static void checkKeys() {
    // The preconditions the set specification rests on, checked on the actual bit arrays.
    BitSet seen = new BitSet();
    BitSet wordsUsed = new BitSet();
    for (int key : KEYS) {
      BitSet bits = probeBits(key);
      assertThat(bits.cardinality()).as("distinct probes of key %d", key).isEqualTo(HASH_FUNCTIONS);
      assertThat(bits.intersects(seen)).as("key %d overlaps an earlier key", key).isFalse();
      seen.or(bits);
      wordsUsed.or(wordsOf(bits));
    }
    assertThat(wordsUsed.cardinality()).as("words holding the keys' bits").isGreaterThanOrEqualTo(3);
    assertThat(keysSharingAWord()).as("two keys with bits in one word").isNotNull();
  }

  // ---------------------------------------------------------------- the object under test and its spec

  /** Lincheck creates one instance per scenario run: a fresh empty filter and merge source. */
  @Param(name = "key", gen = IntGen.class, conf = "0:" + (KEY_COUNT - 1))
  public static class FilterUnderTest {
    final BloomFilter<Integer> filter = newFilter();
    private final BloomFilter<Integer> mergeSource = newFilter();

    public FilterUnderTest() {
      for (int i : MERGED) {
        mergeSource.add(KEYS[i]);
      }
    }

    @Operation
    public void add(@Param(name = "key") int key) {
      filter.add(KEYS[key]);
    }

    @Operation
    public boolean mightContain(@Param(name = "key") int key) {
      return filter.mightContain(KEYS[key]);
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

  /** The sequential specification: a set of key indices. */
  public static final class SetSpec {
    final Set<Integer> keys = new HashSet<>();

    public void add(int key) {
      keys.add(key);
    }

    public boolean mightContain(int key) {
      return keys.contains(key);
    }

    public void clear() {
      keys.clear();
    }

    public void merge() {
      for (int i : MERGED) {
        keys.add(i);
      }
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SetSpec && ((SetSpec) o).keys.equals(keys);
    }

    @Override
    public int hashCode() {
      return keys.hashCode();
    }
  }

  // ---------------------------------------------------------------- random scenarios

  @Test
  void modelChecking() {
    modelCheckingOptions()
        .iterations(25)
        .invocationsPerIteration(250)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(SetSpec.class)
        .check(FilterUnderTest.class);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(25)
        .invocationsPerIteration(1_500)
        .threads(3)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(2)
        .sequentialSpecification(SetSpec.class)
        .check(FilterUnderTest.class);
  }

  // ---------------------------------------------------------------- hand-written scenarios

  /**
   * An add that overlaps a clear is ordered wholly before it (and cleared) or wholly after it (and
   * kept), never both. Thread 2 sees key 0 and then clears, directly or after a merge, while thread 1's
   * add of key 0 overlaps both. Since the query saw the add, the add precedes the clear, and the query
   * after the parallel part must answer false.
   */
  @Test
  void addSeenBeforeClearIsNotKeptAfterIt() {
    modelCheckingOptions()
        .iterations(0)
        .invocationsPerIteration(500)
        .addCustomScenario(scenario(
            List.of(List.of(call("add", 0)), List.of(call("mightContain", 0), call("clear"))),
            List.of(call("mightContain", 0))))
        .addCustomScenario(scenario(
            List.of(List.of(call("add", 0)),
                List.of(call("mightContain", 0), call("merge"), call("clear"))),
            List.of(call("mightContain", 0))))
        .sequentialSpecification(SetSpec.class)
        .check(FilterUnderTest.class);
  }

  /**
   * Shapes that random two-thread scenarios reach rarely: adds of two keys racing on one word; a
   * reader asking for both merged keys, in both orders, while the merge runs (a merge done word by
   * word in place would show one key merged and the other not yet); and a reader asking twice for a
   * key whose add overlaps a merge (a query must not trust a sealed table, whose bits the add may
   * not yet have redone in the successor).
   */
  @Test
  void handWrittenScenarios() {
    int[] pair = keysSharingAWord();
    int a = MERGED[0];
    int b = MERGED[1];
    int notMerged = NOT_MERGED;
    modelCheckingOptions()
        .iterations(0)
        .invocationsPerIteration(400)
        .addCustomScenario(scenario(
            List.of(List.of(call("add", pair[0])), List.of(call("add", pair[1]))),
            List.of(call("mightContain", pair[0]), call("mightContain", pair[1]))))
        .addCustomScenario(scenario(
            List.of(List.of(call("merge")), List.of(call("mightContain", a), call("mightContain", b))),
            List.of()))
        .addCustomScenario(scenario(
            List.of(List.of(call("merge")), List.of(call("mightContain", b), call("mightContain", a))),
            List.of()))
        .addCustomScenario(scenario(
            List.of(List.of(call("add", notMerged)), List.of(call("merge")),
                List.of(call("mightContain", notMerged), call("mightContain", notMerged))),
            List.of()))
        .sequentialSpecification(SetSpec.class)
        .check(FilterUnderTest.class);
  }

  /** One operation of {@link FilterUnderTest} with its arguments. */
  private record Call(String name, Object... args) {}

  private static Call call(String name, Object... args) {
    return new Call(name, args);
  }

  private static ExecutionScenario scenario(List<List<Call>> threads, List<Call> post) {
    return CustomScenarioDSLKt.scenario(s -> {
      s.parallel(p -> {
        for (List<Call> thread : threads) {
          p.thread(t -> addCalls(t, thread));
        }
        return Unit.INSTANCE;
      });
      if (!post.isEmpty()) {
        s.post(t -> addCalls(t, post));
      }
      return Unit.INSTANCE;
    });
  }

  private static Unit addCalls(DSLThreadScenario thread, List<Call> calls) {
    for (Call c : calls) {
      thread.actor(operation(c.name(), c.args().length), c.args());
    }
    return Unit.INSTANCE;
  }

  private static KFunction<?> operation(String name, int arity) {
    for (var method : FilterUnderTest.class.getMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == arity) {
        return Objects.requireNonNull(ReflectJvmMapping.getKotlinFunction(method));
      }
    }
    throw new AssertionError("no operation " + name + "/" + arity);
  }

  // ---------------------------------------------------------------- add's result

  /**
   * add's return value, with adds confined to one thread (so no two adds of one key overlap) while
   * queries, clears and merges run in the other. Specification: add returns true iff the key was
   * absent.
   */
  @Param(name = "key", gen = IntGen.class, conf = "0:" + (KEY_COUNT - 1))
  public static class AddResultTest {
    private final FilterUnderTest target = new FilterUnderTest();

    @Operation(nonParallelGroup = "adders")
    public boolean add(@Param(name = "key") int key) {
      return target.filter.add(KEYS[key]);
    }

    @Operation
    public boolean mightContain(@Param(name = "key") int key) {
      return target.mightContain(key);
    }

    @Operation
    public void clear() {
      target.clear();
    }

    @Operation
    public void merge() {
      target.merge();
    }
  }

  /** {@link SetSpec} whose add reports whether the key was new. */
  public static final class AddResultSpec {
    private final SetSpec set = new SetSpec();

    public boolean add(int key) {
      return set.keys.add(key);
    }

    public boolean mightContain(int key) {
      return set.mightContain(key);
    }

    public void clear() {
      set.clear();
    }

    public void merge() {
      set.merge();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof AddResultSpec && ((AddResultSpec) o).set.equals(set);
    }

    @Override
    public int hashCode() {
      return set.hashCode();
    }
  }

  @Test
  void addResultModelChecking() {
    modelCheckingOptions()
        .iterations(12)
        .invocationsPerIteration(250)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(AddResultSpec.class)
        .check(AddResultTest.class);
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Model checking with hashing left out of the analysis. The model checker cannot follow the
   * byte-array-view VarHandles that hashing uses to assemble and read an item's bytes ("Unsupported
   * VarHandle type: VarHandleByteArrayAsInts"), and hashing touches only the calling thread's own
   * buffer, so there is nothing to interleave there. Classes are named by string so that a change of
   * hash implementation cannot break this file's compilation.
   */
  static ModelCheckingOptions modelCheckingOptions() {
    return new ModelCheckingOptions()
        .addGuarantee(forClasses(BloomFilterLincheckTest::isHashingClass).allMethods().ignore());
  }

  private static boolean isHashingClass(String className) {
    return className.equals("org.concurrentbloom.HashingSink")
        || className.startsWith("org.concurrentbloom.Murmur3")
        || className.startsWith("com.dynatrace.hash4j.");
  }

  static BloomFilter<Integer> newFilter() {
    return BloomFilter.withShape(Funnels.integerFunnel(), BITS, HASH_FUNCTIONS);
  }

  /**
   * The first {@code count} non-negative ints, in order, that each have {@code k} distinct probes and
   * share none with an int chosen before. Deterministic: depends only on the hash strategy.
   */
  static int[] disjointKeys(long bits, int k, int count) {
    int[] chosen = new int[count];
    BitSet taken = new BitSet();
    int found = 0;
    for (int candidate = 0; found < count; candidate++) {
      if (candidate > 100_000) {
        throw new AssertionError("no " + count + " disjoint keys among the first 100000 ints");
      }
      BitSet probes = probeBits(BloomFilter.withShape(Funnels.integerFunnel(), bits, k), candidate);
      if (probes.cardinality() == k && !probes.intersects(taken)) {
        taken.or(probes);
        chosen[found++] = candidate;
      }
    }
    return chosen;
  }

  /** Indices of two keys with bits in a common word, or null. */
  static int[] keysSharingAWord() {
    List<BitSet> words = new ArrayList<>();
    for (int key : KEYS) {
      words.add(wordsOf(probeBits(key)));
    }
    for (int i = 0; i < KEY_COUNT; i++) {
      for (int j = i + 1; j < KEY_COUNT; j++) {
        if (words.get(i).intersects(words.get(j))) {
          return new int[] {i, j};
        }
      }
    }
    return null;
  }

  /** See {@link #MERGED}. */
  static int[] keysSplitByWordOrder() {
    for (int i = 0; i < KEY_COUNT; i++) {
      for (int j = i + 1; j < KEY_COUNT; j++) {
        BitSet wi = wordsOf(probeBits(KEYS[i]));
        BitSet wj = wordsOf(probeBits(KEYS[j]));
        if (wi.nextSetBit(0) != wj.nextSetBit(0) && wi.length() != wj.length()) {
          return new int[] {i, j};
        }
      }
    }
    throw new AssertionError("no two keys differ in both their lowest and highest words");
  }

  static BitSet probeBits(int key) {
    return probeBits(newFilter(), key);
  }

  /** The bits {@code key} sets in the empty filter {@code empty}, read from its bit array. */
  static BitSet probeBits(BloomFilter<Integer> empty, int key) {
    empty.add(key);
    BitSet bits = BitSet.valueOf(words(empty));
    // Cross-check the reflective read against the public view of the same bits.
    assertThat(Math.round(empty.fillRatio() * empty.bitSize())).isEqualTo(bits.cardinality());
    return bits;
  }

  private static BitSet wordsOf(BitSet bits) {
    BitSet words = new BitSet();
    bits.stream().forEach(bit -> words.set(bit >>> 6));
    return words;
  }

  /**
   * The current bit array of {@code filter}. Reflection rather than a field reference, so that a
   * refactoring of BloomFilter's internals fails here with a clear message instead of breaking the
   * compilation of the whole test tree.
   */
  static long[] words(BloomFilter<?> filter) {
    try {
      Field tableField = BloomFilter.class.getDeclaredField("table");
      tableField.setAccessible(true);
      Object table = tableField.get(filter);
      Field wordsField = table.getClass().getDeclaredField("words");
      wordsField.setAccessible(true);
      return (long[]) wordsField.get(table);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("cannot read the filter's bit array (BloomFilter.table.words)", e);
    }
  }
}
