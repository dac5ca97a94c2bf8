package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Lincheck: {@code add}, {@code mightContain}, {@code clear} and {@code merge} of one {@link BloomFilter}
 * are linearizable against a plain set. This class tests the standard layout with hash strategy 1
 * (MurmurHash3, as {@code new StandardLayout(bits, k)} makes); {@link BlockedBloomFilterLincheckTest}
 * runs the same tests on the blocked layout (strategy 2), and {@link Xxh3BloomFilterLincheckTest} and
 * {@link Xxh3BlockedBloomFilterLincheckTest} on both layouts with strategies 4 and 5 (XXH3-64, the
 * defaults of new filters).
 *
 * <p><b>Why a set is a fair specification here.</b> A Bloom filter in general is not linearizable
 * against a deterministic sequential Bloom filter: when two items' probe sets overlap, a reader can
 * combine a half-finished add's bits with another item's bits and answer true for an item nobody
 * added: a false positive, harmless and inherent. So each test class uses a small filter ({@link
 * #STANDARD}: 256 bits and 3 hash functions) and a domain of {@value #KEY_COUNT} integer keys whose
 * probe sets are pairwise disjoint (the first such ints, found by a deterministic search and asserted
 * in {@link #checkKeys()}). No key's bits can then be covered by other keys, a filter that never had
 * key i added or merged answers false for it, and the only correct behaviours are those of a set. The
 * keys' bits are spread over several 64-bit words and words are shared between keys, so concurrent
 * adds of different keys do race on one word.
 *
 * <p><b>Operations.</b> {@code add(i)} and {@code mightContain(i)} for a key index i, {@code clear()},
 * and {@code merge()}, which ORs in a filter built beforehand that holds keys 0 and 1. {@link Domain}
 * numbers the keys so that those two are split by word order in every layout (see {@link
 * Domain#splitByWordOrder}), which lets all layouts share one specification.
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
 * real threads.
 *
 * <p><b>Other layouts.</b> A subclass overrides {@link #domain()}, {@link #filterUnderTest()} and
 * {@link #addResultTest()}, and inherits every test. Lincheck creates the object under test through
 * its no-arg constructor, so each layout has its own subclasses of {@link FilterUnderTest} and {@link
 * AddResultTest} whose constructors pass that layout's domain (a static constant of the test class).
 *
 * <p><b>Budget.</b> The protocol under test (bit CASes, the table swap of clear and merge) does not
 * depend on the hash, and each layout runs twice, once per hash family (this class and the blocked one
 * with MurmurHash3, the Xxh3 subclasses with XXH3), on different keys. So each class runs half of the
 * random budget one family had alone: per layout and family, random model checking 5 iterations,
 * stress 5 and the add-result test 3, the two families together about what one ran before (9, 10 and
 * 5). The hand-written scenarios, which are what catch the seeded faults below, keep their full 200
 * invocations (400 for the clear scenarios) in every class. Doubling the constants below doubles the
 * time.
 *
 * <p><b>Known reach.</b> Checked by seeding faults into a copy of bloom-core: adds that set bits with a
 * plain read-OR-write, adds that do not redo their bits in a merge's successor, and adds that redo
 * them after a clear each fail these tests for both layouts (the second only through the hand-written
 * add-versus-merge scenario for the blocked layout, whose random scenarios missed it). A query that
 * trusts a table sealed by a merge is not caught in either layout, nor on the standard one with 20000
 * invocations of the hand-written scenario aimed at it: its failing interleaving needs four
 * well-placed thread switches among three threads. The jcstress test QueryRechecksASealedTable in
 * bloom-jcstress catches it (its forbidden outcome: a query sees the item, the next one misses it
 * while the add is still running), with its reader thread also playing a merger that stalls between
 * copy and swap, since jcstress schedules no more actors than the machine's two CPUs.
 */
// One instance for all tests, so that checkKeys() need not be static and can ask for the domain.
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("jdk-independent") // Lincheck explores interleavings of the library's bytecode: the same on every JDK (.ci/run)
public class BloomFilterLincheckTest {
  static final int KEY_COUNT = 5;

  /** The standard layout's domain. */
  static final Domain STANDARD = new Domain(new StandardLayout(256, 3));

  // Iterations and invocations of each test, per layout.
  static final int RANDOM_ITERATIONS = 5;
  static final int RANDOM_INVOCATIONS = 250;
  static final int STRESS_ITERATIONS = 5;
  static final int STRESS_INVOCATIONS = 1_500;
  static final int ADD_RESULT_ITERATIONS = 3;
  static final int CUSTOM_SCENARIO_INVOCATIONS = 200;

  /** The layout and keys under test. */
  Domain domain() {
    return STANDARD;
  }

  /** The Lincheck target for {@link #domain()}: {@link FilterUnderTest} or a subclass. */
  Class<? extends FilterUnderTest> filterUnderTest() {
    return FilterUnderTest.class;
  }

  /** The add-result target for {@link #domain()}: {@link AddResultTest} or a subclass. */
  Class<? extends AddResultTest> addResultTest() {
    return AddResultTest.class;
  }

  @BeforeAll
  void checkKeys() {
    // The preconditions the set specification and the hand-written scenarios rest on, checked on the
    // actual bit arrays.
    Domain d = domain();
    BitSet seen = new BitSet();
    BitSet wordsUsed = new BitSet();
    for (int i = 0; i < KEY_COUNT; i++) {
      BitSet bits = d.probeBits(i);
      assertThat(bits.cardinality()).as("distinct probes of key %d in %s", d.keys[i], d)
          .isEqualTo(d.layout.hashFunctions);
      assertThat(bits.intersects(seen)).as("key %d overlaps an earlier key in %s", d.keys[i], d)
          .isFalse();
      seen.or(bits);
      wordsUsed.or(wordsOf(bits));
    }
    assertThat(wordsUsed.cardinality()).as("words holding the keys' bits in %s", d)
        .isGreaterThanOrEqualTo(3);
    assertThat(d.keysSharingAWord()).as("two keys with bits in one word in %s", d).isNotNull();
    assertThat(Domain.isSplitByWordOrder(d.words(0), d.words(1)))
        .as("keys 0 and 1 (the merged ones) split by word order in %s", d).isTrue();
  }

  // ---------------------------------------------------------------- the domain

  /**
   * A layout and the keys the operations use on it: the first {@value #KEY_COUNT} non-negative ints
   * that are pairwise disjoint in their probe bits (deterministic: depends only on the layout's hash
   * strategy and shape), numbered so that keys 0 and 1 are the first pair {@linkplain
   * #splitByWordOrder split by word order}, the others following in the order found.
   */
  static final class Domain {
    private static final int WORDS_PER_BLOCK = BlockedLayout.BLOCK_BITS / 64;

    final Layout layout;
    /** The integer items. Index i is the operations' key i. */
    final int[] keys;

    Domain(Layout layout) {
      this.layout = layout;
      int[] found = disjointKeys(layout, KEY_COUNT);
      int[] split = splitByWordOrder(layout, found);
      keys = new int[KEY_COUNT];
      keys[0] = found[split[0]];
      keys[1] = found[split[1]];
      int next = 2;
      for (int i = 0; i < KEY_COUNT; i++) {
        if (i != split[0] && i != split[1]) {
          keys[next++] = found[i];
        }
      }
    }

    BloomFilter<Integer> newFilter() {
      return BloomFilter.withLayout(Funnels.integerFunnel(), layout);
    }

    /** The bits key index {@code i} sets. */
    BitSet probeBits(int i) {
      return BloomFilterLincheckTest.probeBits(layout, keys[i]);
    }

    /** The words holding the bits of key index {@code i}. */
    BitSet words(int i) {
      return wordsOf(probeBits(i));
    }

    /** Indices of two keys with bits in a common word, or null. */
    int[] keysSharingAWord() {
      for (int i = 0; i < KEY_COUNT; i++) {
        for (int j = i + 1; j < KEY_COUNT; j++) {
          if (words(i).intersects(words(j))) {
            return new int[] {i, j};
          }
        }
      }
      return null;
    }

    /**
     * Positions (in {@code keys}) of the first pair whose lowest words differ and whose highest words
     * differ, so that a merge done word by word, in either direction, would have a moment where one key
     * is complete and the other is not. In a blocked layout the pair must also share a block, so that a
     * reader of both races against the merge's copy of one block's words (strategy 2's first split
     * pair shares one anyway; strategy 5's does not).
     */
    static int[] splitByWordOrder(Layout layout, int[] keys) {
      for (int i = 0; i < keys.length; i++) {
        for (int j = i + 1; j < keys.length; j++) {
          BitSet wordsI = wordsOf(BloomFilterLincheckTest.probeBits(layout, keys[i]));
          BitSet wordsJ = wordsOf(BloomFilterLincheckTest.probeBits(layout, keys[j]));
          boolean oneBlock = !(layout instanceof BlockedLayout || layout instanceof WordPairLayout)
              || wordsI.nextSetBit(0) / WORDS_PER_BLOCK == wordsJ.nextSetBit(0) / WORDS_PER_BLOCK;
          if (isSplitByWordOrder(wordsI, wordsJ) && oneBlock) {
            return new int[] {i, j};
          }
        }
      }
      throw new AssertionError(
          "no two keys (sharing a block, if blocked) differ in both their lowest and highest words in "
          + layout.shape());
    }

    static boolean isSplitByWordOrder(BitSet wordsA, BitSet wordsB) {
      return wordsA.nextSetBit(0) != wordsB.nextSetBit(0) && wordsA.length() != wordsB.length();
    }

    @Override
    public String toString() {
      return layout.shape();
    }
  }

  // ---------------------------------------------------------------- the object under test and its spec

  /**
   * Lincheck creates one instance per scenario run: a fresh empty filter and merge source. This class
   * (through its no-arg constructor) tests {@link #STANDARD}; subclasses pass other domains.
   */
  @Param(name = "key", gen = IntGen.class, conf = "0:" + (KEY_COUNT - 1))
  public static class FilterUnderTest {
    final Domain domain;
    final BloomFilter<Integer> filter;
    private final BloomFilter<Integer> mergeSource;

    public FilterUnderTest() {
      this(STANDARD);
    }

    FilterUnderTest(Domain domain) {
      this.domain = domain;
      filter = domain.newFilter();
      mergeSource = domain.newFilter();
      mergeSource.add(domain.keys[0]);
      mergeSource.add(domain.keys[1]);
    }

    @Operation
    public void add(@Param(name = "key") int key) {
      filter.add(domain.keys[key]);
    }

    @Operation
    public boolean mightContain(@Param(name = "key") int key) {
      return filter.mightContain(domain.keys[key]);
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

  /** The sequential specification: a set of key indices. The merge brings keys 0 and 1. */
  public static final class SetSpec {
    final Set<Integer> keys = new HashSet<>();

    public void add(int key) {
      keys.add(key);
    }

    public boolean mightContain(int key) {
      return keys.contains(key);
    }

    /** WordPairBloomFilterLincheckTest's batch of one key. */
    public void addAllOfOne(int key) {
      add(key);
    }

    /** WordPairBloomFilterLincheckTest's batch query of one key. */
    public boolean mightContainAllOfOne(int key) {
      return mightContain(key);
    }

    public void clear() {
      keys.clear();
    }

    public void merge() {
      keys.add(0);
      keys.add(1);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SetSpec other && other.keys.equals(keys);
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
        .iterations(RANDOM_ITERATIONS)
        .invocationsPerIteration(RANDOM_INVOCATIONS)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(SetSpec.class)
        .check(filterUnderTest());
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(STRESS_ITERATIONS)
        .invocationsPerIteration(STRESS_INVOCATIONS)
        .threads(3)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(2)
        .sequentialSpecification(SetSpec.class)
        .check(filterUnderTest());
  }

  // ---------------------------------------------------------------- hand-written scenarios

  /**
   * An add that overlaps a clear is ordered wholly before it (and cleared) or wholly after it (and
   * kept), never both. Thread 2 sees key 2 and then clears, directly or after a merge, while thread 1's
   * add of key 2 overlaps both. Since the query saw the add, the add precedes the clear, and the query
   * after the parallel part must answer false.
   */
  @Test
  void addSeenBeforeClearIsNotKeptAfterIt() {
    // Not a key the merge brings: then the add alone puts it into the merge's successor, by redoing
    // its bits there, the case where the redo must not outlive the clear.
    int x = 2;
    modelCheckingOptions()
        .iterations(0)
        .invocationsPerIteration(2 * CUSTOM_SCENARIO_INVOCATIONS)
        .addCustomScenario(scenario(
            List.of(List.of(call("add", x)), List.of(call("mightContain", x), call("clear"))),
            List.of(call("mightContain", x))))
        .addCustomScenario(scenario(
            List.of(List.of(call("add", x)),
                List.of(call("mightContain", x), call("merge"), call("clear"))),
            List.of(call("mightContain", x))))
        .sequentialSpecification(SetSpec.class)
        .check(filterUnderTest());
  }

  /**
   * Shapes that random two-thread scenarios reach rarely, or whose failing interleaving their
   * invocation budget may miss: adds of two keys racing on one word; a reader asking for both merged
   * keys, in both orders, while the merge runs (a merge done word by word in place would show one key
   * merged and the other not yet); an add overlapping a merge, then a query (an add whose bits went
   * into the old table after the merge copied it must redo them in the new one, or it is lost); and
   * a reader asking twice for a key whose add overlaps a merge (a query must not trust a sealed table,
   * whose bits the add may not yet have redone in the successor).
   */
  @Test
  void handWrittenScenarios() {
    int[] pair = domain().keysSharingAWord();
    int notMerged = 2;
    modelCheckingOptions()
        .iterations(0)
        .invocationsPerIteration(CUSTOM_SCENARIO_INVOCATIONS)
        .addCustomScenario(scenario(
            List.of(List.of(call("add", pair[0])), List.of(call("add", pair[1]))),
            List.of(call("mightContain", pair[0]), call("mightContain", pair[1]))))
        .addCustomScenario(scenario(
            List.of(List.of(call("merge")), List.of(call("mightContain", 0), call("mightContain", 1))),
            List.of()))
        .addCustomScenario(scenario(
            List.of(List.of(call("merge")), List.of(call("mightContain", 1), call("mightContain", 0))),
            List.of()))
        .addCustomScenario(scenario(
            List.of(List.of(call("add", notMerged)), List.of(call("merge"))),
            List.of(call("mightContain", notMerged))))
        .addCustomScenario(scenario(
            List.of(List.of(call("add", notMerged)), List.of(call("merge")),
                List.of(call("mightContain", notMerged), call("mightContain", notMerged))),
            List.of()))
        .sequentialSpecification(SetSpec.class)
        .check(filterUnderTest());
  }

  /** One operation with its arguments, looked up by name in the Lincheck target of the scenario. */
  record Call(String name, Object... args) {}

  static Call call(String name, Object... args) {
    return new Call(name, args);
  }

  private static ExecutionScenario scenario(List<List<Call>> threads, List<Call> post) {
    return scenario(FilterUnderTest.class, threads, post);
  }

  static ExecutionScenario scenario(Class<?> target, List<List<Call>> threads, List<Call> post) {
    return scenario(target, List.of(), threads, post);
  }

  /** A scenario of {@code target}'s operations: {@code init}, the threads' calls in parallel, {@code post}. */
  static ExecutionScenario scenario(Class<?> target, List<Call> init, List<List<Call>> threads, List<Call> post) {
    return CustomScenarioDSLKt.scenario(s -> {
      if (!init.isEmpty()) {
        s.initial(t -> addCalls(target, t, init));
      }
      s.parallel(p -> {
        for (List<Call> thread : threads) {
          p.thread(t -> addCalls(target, t, thread));
        }
        return Unit.INSTANCE;
      });
      if (!post.isEmpty()) {
        s.post(t -> addCalls(target, t, post));
      }
      return Unit.INSTANCE;
    });
  }

  private static Unit addCalls(Class<?> target, DSLThreadScenario thread, List<Call> calls) {
    for (Call c : calls) {
      thread.actor(operation(target, c.name(), c.args().length), c.args());
    }
    return Unit.INSTANCE;
  }

  /** The operation's method as declared in {@code target}; subclasses inherit it. */
  private static KFunction<?> operation(Class<?> target, String name, int arity) {
    for (var method : target.getMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == arity) {
        return Objects.requireNonNull(ReflectJvmMapping.getKotlinFunction(method));
      }
    }
    throw new AssertionError("no operation " + name + "/" + arity + " in " + target.getSimpleName());
  }

  // ---------------------------------------------------------------- add's result

  /**
   * add's return value, with adds confined to one thread (so no two adds of one key overlap) while
   * queries, clears and merges run in the other. Specification: add returns true iff the key was
   * absent. The no-arg constructor tests {@link #STANDARD}; subclasses pass other domains.
   */
  @Param(name = "key", gen = IntGen.class, conf = "0:" + (KEY_COUNT - 1))
  public static class AddResultTest {
    private final FilterUnderTest target;

    public AddResultTest() {
      this(STANDARD);
    }

    AddResultTest(Domain domain) {
      target = new FilterUnderTest(domain);
    }

    @Operation(nonParallelGroup = "adders")
    public boolean add(@Param(name = "key") int key) {
      return target.filter.add(target.domain.keys[key]);
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
      return o instanceof AddResultSpec other && other.set.equals(set);
    }

    @Override
    public int hashCode() {
      return set.hashCode();
    }
  }

  @Test
  void addResultModelChecking() {
    modelCheckingOptions()
        .iterations(ADD_RESULT_ITERATIONS)
        .invocationsPerIteration(RANDOM_INVOCATIONS)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(AddResultSpec.class)
        .check(addResultTest());
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
        || className.startsWith("org.concurrentbloom.Xxh3Keys")
        || className.startsWith("com.dynatrace.hash4j.");
  }

  /**
   * The first {@code count} non-negative ints, in order, that each have k distinct probes in
   * {@code layout} and share none with an int chosen before.
   */
  static int[] disjointKeys(Layout layout, int count) {
    int[] chosen = new int[count];
    BitSet taken = new BitSet();
    int found = 0;
    for (int candidate = 0; found < count; candidate++) {
      if (candidate > 100_000) {
        throw new AssertionError(
            "no " + count + " disjoint keys among the first 100000 ints in " + layout.shape());
      }
      BitSet probes = probeBits(layout, candidate);
      if (probes.cardinality() == layout.hashFunctions && !probes.intersects(taken)) {
        taken.or(probes);
        chosen[found++] = candidate;
      }
    }
    return chosen;
  }

  /** The bits {@code key} sets in an empty filter of {@code layout}, read from its bit array. */
  static BitSet probeBits(Layout layout, int key) {
    BloomFilter<Integer> empty = BloomFilter.withLayout(Funnels.integerFunnel(), layout);
    empty.add(key);
    BitSet bits = BitSet.valueOf(empty.currentWords());
    // Cross-check the raw read against the public view of the same bits.
    assertThat(Math.round(empty.fillRatio() * empty.bitSize())).isEqualTo(bits.cardinality());
    return bits;
  }

  static BitSet wordsOf(BitSet bits) {
    BitSet words = new BitSet();
    bits.stream().forEach(bit -> words.set(bit >>> 6));
    return words;
  }
}
