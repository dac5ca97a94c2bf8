package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link BloomFilterLincheckTest}'s tests on the standard layout with hash strategy 4 (XXH3-64, h2 from
 * a SplitMix64 finalizer), the default of new standard filters: 256 bits and 3 hash functions, as
 * {@link BloomFilterLincheckTest#STANDARD}. The keys are found by the same search, so they differ from
 * strategy 1's, and {@link #checkKeys()} asserts the same preconditions on them.
 */
public class Xxh3BloomFilterLincheckTest extends BloomFilterLincheckTest {
  static final Domain XXH3_STANDARD = new Domain(new StandardLayout(256, 3, HashStrategy.XXH3_64_ENHANCED_DOUBLE));

  @Override
  Domain domain() {
    return XXH3_STANDARD;
  }

  @Override
  Class<? extends FilterUnderTest> filterUnderTest() {
    return Xxh3FilterUnderTest.class;
  }

  @Override
  Class<? extends AddResultTest> addResultTest() {
    return Xxh3AddResultTest.class;
  }

  /** {@link FilterUnderTest} on {@link #XXH3_STANDARD}. */
  public static class Xxh3FilterUnderTest extends FilterUnderTest {
    public Xxh3FilterUnderTest() {
      super(XXH3_STANDARD);
    }
  }

  /** {@link AddResultTest} on {@link #XXH3_STANDARD}. */
  public static class Xxh3AddResultTest extends AddResultTest {
    public Xxh3AddResultTest() {
      super(XXH3_STANDARD);
    }
  }

  @BeforeAll
  void checkStrategy() {
    assertThat(new Xxh3FilterUnderTest().filter.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(new FilterUnderTest().filter.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
  }
}
