package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link BlockedBloomFilterLincheckTest}'s tests, {@link #checkBlocks()} included, on the blocked layout
 * with hash strategy 5 (XXH3-64), the blocked default before strategy 6 and still below p = 0.001: 2 blocks of 512 bits and 3 hash
 * functions, as {@link BlockedBloomFilterLincheckTest#BLOCKED}.
 */
public class Xxh3BlockedBloomFilterLincheckTest extends BlockedBloomFilterLincheckTest {
  static final Domain XXH3_BLOCKED =
      new Domain(new BlockedLayout(2 * BlockedLayout.BLOCK_BITS, 3, HashStrategy.XXH3_64_BLOCKED));

  @Override
  Domain domain() {
    return XXH3_BLOCKED;
  }

  @Override
  Class<? extends FilterUnderTest> filterUnderTest() {
    return Xxh3BlockedFilterUnderTest.class;
  }

  @Override
  Class<? extends AddResultTest> addResultTest() {
    return Xxh3BlockedAddResultTest.class;
  }

  /** {@link FilterUnderTest} on {@link #XXH3_BLOCKED}. */
  public static class Xxh3BlockedFilterUnderTest extends FilterUnderTest {
    public Xxh3BlockedFilterUnderTest() {
      super(XXH3_BLOCKED);
    }
  }

  /** {@link AddResultTest} on {@link #XXH3_BLOCKED}. */
  public static class Xxh3BlockedAddResultTest extends AddResultTest {
    public Xxh3BlockedAddResultTest() {
      super(XXH3_BLOCKED);
    }
  }

  @BeforeAll
  void checkStrategy() {
    assertThat(new Xxh3BlockedFilterUnderTest().filter.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_BLOCKED);
    assertThat(new BlockedFilterUnderTest().filter.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_BLOCKED);
  }
}
