package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link BloomFilterLincheckTest}'s tests (model checking, stress, the hand-written scenarios and the
 * add-result test) on the blocked layout: the same guarantees, linearizable against a set.
 *
 * <p>The shape is 2 blocks of 512 bits and 3 hash functions. Besides the inherited checks, {@link
 * #checkBlocks()} asserts that the keys use both blocks (today three keys lie in one and two in the
 * other), that the two keys of the hand-written race of adds on one word share a block, and that the
 * merged keys 0 and 1 share a block. So adds of different keys race on the same eight words (one
 * cache line, or two when the block straddles them), and a reader of both merged keys races against
 * the merge's copy of that block's words, one word at a time.
 *
 * <p>This class tests hash strategy 2 (MurmurHash3), the blocked layout of older files; {@link
 * Xxh3BlockedBloomFilterLincheckTest} runs every test, {@link #checkBlocks()} included, on strategy 5.
 */
public class BlockedBloomFilterLincheckTest extends BloomFilterLincheckTest {
  static final Domain BLOCKED = new Domain(new BlockedLayout(2 * BlockedLayout.BLOCK_BITS, 3));

  @Override
  Domain domain() {
    return BLOCKED;
  }

  @Override
  Class<? extends FilterUnderTest> filterUnderTest() {
    return BlockedFilterUnderTest.class;
  }

  @Override
  Class<? extends AddResultTest> addResultTest() {
    return BlockedAddResultTest.class;
  }

  /** {@link FilterUnderTest} on {@link #BLOCKED}. */
  public static class BlockedFilterUnderTest extends FilterUnderTest {
    public BlockedFilterUnderTest() {
      super(BLOCKED);
    }
  }

  /** {@link AddResultTest} on {@link #BLOCKED}. */
  public static class BlockedAddResultTest extends AddResultTest {
    public BlockedAddResultTest() {
      super(BLOCKED);
    }
  }

  @BeforeAll
  void checkBlocks() {
    Domain d = domain();
    BitSet[] blocks = new BitSet[KEY_COUNT];
    BitSet blocksUsed = new BitSet();
    for (int i = 0; i < KEY_COUNT; i++) {
      blocks[i] = blocksOf(d.probeBits(i));
      assertThat(blocks[i].cardinality()).as("blocks of key %d", d.keys[i]).isEqualTo(1);
      blocksUsed.or(blocks[i]);
    }
    assertThat(blocksUsed.cardinality()).as("blocks holding the keys' bits").isEqualTo(2);
    int[] pair = d.keysSharingAWord(); // the hand-written race of two adds on one word
    assertThat(blocks[pair[0]]).as("block of the keys racing on one word").isEqualTo(blocks[pair[1]]);
    assertThat(blocks[0]).as("block of the merged keys 0 and 1").isEqualTo(blocks[1]);
  }

  private static BitSet blocksOf(BitSet bits) {
    BitSet blocks = new BitSet();
    bits.stream().forEach(bit -> blocks.set(bit / BlockedLayout.BLOCK_BITS));
    return blocks;
  }
}
