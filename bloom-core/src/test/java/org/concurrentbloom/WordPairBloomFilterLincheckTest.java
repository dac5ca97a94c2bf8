package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link BlockedBloomFilterLincheckTest}'s tests, {@link #checkBlocks()} included, on the word-pair
 * layout of hash strategy 6, what {@code blocked()} builds at p = 1%: 2 blocks of 512 bits and 3 hash
 * functions (2 bits in a word of a block's first half, 1 in its second), so adds race through
 * compare-and-exchange on the same words and a merge copies them while readers read.
 */
public class WordPairBloomFilterLincheckTest extends BlockedBloomFilterLincheckTest {
  static final Domain WORD_PAIR = new Domain(new WordPairLayout(2 * BlockedLayout.BLOCK_BITS, 3));

  @Override
  Domain domain() {
    return WORD_PAIR;
  }

  @Override
  Class<? extends FilterUnderTest> filterUnderTest() {
    return WordPairFilterUnderTest.class;
  }

  @Override
  Class<? extends AddResultTest> addResultTest() {
    return WordPairAddResultTest.class;
  }

  /**
   * {@link FilterUnderTest} on {@link #WORD_PAIR}, with the batch paths as well: a batch of one key each
   * (a batch of several is not one atomic operation, so its results could not be checked against a
   * sequential run), which still goes through {@link WordPairLayout#setAll} and
   * {@link WordPairLayout#testAll} and their once-per-batch seal checks, racing clear and merge.
   */
  public static class WordPairFilterUnderTest extends FilterUnderTest {
    public WordPairFilterUnderTest() {
      super(WORD_PAIR);
    }

    @Operation
    public void addAllOfOne(@Param(name = "key") int key) {
      filter.addAll(List.of(domain.keys[key]));
    }

    @Operation
    public boolean mightContainAllOfOne(@Param(name = "key") int key) {
      return filter.mightContainAll(List.of(domain.keys[key]))[0];
    }
  }

  /** {@link AddResultTest} on {@link #WORD_PAIR}. */
  public static class WordPairAddResultTest extends AddResultTest {
    public WordPairAddResultTest() {
      super(WORD_PAIR);
    }
  }

  /**
   * {@link #handWrittenScenarios()}'s shapes through the batch paths: adds of two keys racing on one
   * word; a batch add overlapping a merge, then a batch query; batch queries asking twice for a key whose
   * add overlaps a merge; and a batch add seen before a clear, which must stay cleared. As for the single
   * query, the model checker does not reach the interleaving where a batch trusts a table sealed while it
   * read (a copy without the batch's recheck passes here): bloom-jcstress's
   * BatchQueryRechecksASealedTable is the test of that fault.
   */
  @Test
  void batchOfOneScenarios() {
    int[] pair = domain().keysSharingAWord();
    int notMerged = 2;
    Class<?> target = WordPairFilterUnderTest.class;
    modelCheckingOptions()
        .iterations(0)
        .invocationsPerIteration(CUSTOM_SCENARIO_INVOCATIONS)
        .addCustomScenario(scenario(target,
            List.of(List.of(call("addAllOfOne", pair[0])), List.of(call("addAllOfOne", pair[1]))),
            List.of(call("mightContainAllOfOne", pair[0]), call("mightContainAllOfOne", pair[1]))))
        .addCustomScenario(scenario(target,
            List.of(List.of(call("addAllOfOne", notMerged)), List.of(call("merge"))),
            List.of(call("mightContainAllOfOne", notMerged))))
        .addCustomScenario(scenario(target,
            List.of(List.of(call("add", notMerged)), List.of(call("merge")),
                List.of(call("mightContainAllOfOne", notMerged), call("mightContainAllOfOne", notMerged))),
            List.of()))
        .addCustomScenario(scenario(target,
            List.of(List.of(call("addAllOfOne", notMerged)),
                List.of(call("mightContainAllOfOne", notMerged), call("merge"), call("clear"))),
            List.of(call("mightContainAllOfOne", notMerged))))
        .sequentialSpecification(SetSpec.class)
        .check(target);
  }

  @BeforeAll
  void checkStrategy() {
    assertThat(new WordPairFilterUnderTest().filter.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_WORD_PAIR);
  }
}
