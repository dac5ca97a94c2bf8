package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link BlockedBloomFilterLincheckTest}'s tests, {@link #checkBlocks()} included, on the word-pair
 * layout of hash strategy 6, what {@code blocked()} builds at p = 1%: 2 blocks of 512 bits and 3 hash
 * functions (2 bits in a word of a block's first half, 1 in its second), so adds race through
 * {@code getAndBitwiseOr} on the same words and a merge copies them while readers read.
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

  /** {@link FilterUnderTest} on {@link #WORD_PAIR}. */
  public static class WordPairFilterUnderTest extends FilterUnderTest {
    public WordPairFilterUnderTest() {
      super(WORD_PAIR);
    }
  }

  /** {@link AddResultTest} on {@link #WORD_PAIR}. */
  public static class WordPairAddResultTest extends AddResultTest {
    public WordPairAddResultTest() {
      super(WORD_PAIR);
    }
  }

  @BeforeAll
  void checkStrategy() {
    assertThat(new WordPairFilterUnderTest().filter.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_WORD_PAIR);
  }
}
