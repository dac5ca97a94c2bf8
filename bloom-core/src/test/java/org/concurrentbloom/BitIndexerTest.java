package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.concurrentbloom.internal.BitIndexer;
import org.junit.jupiter.api.Test;

/** The public indexer agrees with the bits a standard BloomFilter actually sets and tests. */
class BitIndexerTest {

  /** Adds one item to an empty filter and returns the set of bits it turned on. */
  private static <T> BitSet bitsSetBy(BloomFilter<T> filter, T item) {
    filter.clear();
    filter.add(item);
    return BitSet.valueOf(filter.currentWords());
  }

  private static BitSet asBitSet(long[] indexes, int k) {
    BitSet set = new BitSet();
    for (int i = 0; i < k; i++) {
      set.set(Math.toIntExact(indexes[i]));
    }
    return set;
  }

  @Test
  void indexesAreTheBitsTheFilterSetsForEveryFunnelAndShape() {
    SplittableRandom random = new SplittableRandom(42);
    long[] shapes = {64, 1_000, 4_093, 9_586, 100_000};
    for (long m : shapes) {
      for (int k : new int[] {1, 3, 7, 13}) {
        BloomFilter<CharSequence> strings = BloomFilter.withShape(Funnels.stringFunnel(), m, k);
        BloomFilter<Long> longs = BloomFilter.withShape(Funnels.longFunnel(), m, k);
        BitIndexer<CharSequence> s = BitIndexer.withShape(Funnels.stringFunnel(), m, k);
        BitIndexer<Long> l = BitIndexer.withShape(Funnels.longFunnel(), m, k);
        long[] into = new long[Math.max(2, k)];
        for (int trial = 0; trial < 50; trial++) {
          String key = "key-" + random.nextLong() + (trial % 5 == 0 ? "é" : "");
          s.indexes(key, into);
          assertThat(asBitSet(into, k)).as("m=%d k=%d %s", m, k, key).isEqualTo(bitsSetBy(strings, key));
          long v = random.nextLong();
          l.indexes(v, into);
          assertThat(asBitSet(into, k)).as("m=%d k=%d %d", m, k, v).isEqualTo(bitsSetBy(longs, v));
          for (int i = 0; i < k; i++) {
            assertThat(into[i]).isBetween(0L, m - 1);
          }
        }
      }
    }
  }

  @Test
  void strategyFourIndexesAreTheBitsOfTheDefaultFilterForEveryFunnel() {
    SplittableRandom random = new SplittableRandom(7);
    Funnel<byte[]> custom = (bytes, sink) -> sink.putBytes(bytes).putInt(bytes.length);
    for (long n : new long[] {10, 1_000, 50_000}) {
      BloomFilter<CharSequence> strings = BloomFilter.create(Funnels.stringFunnel(), n, 0.01);
      BloomFilter<Long> longs = BloomFilter.create(Funnels.longFunnel(), n, 0.01);
      BloomFilter<byte[]> other = BloomFilter.create(custom, n, 0.01);
      assertThat(strings.hashStrategy()).isEqualTo(BitIndexer.DEFAULT_STRATEGY);
      BitIndexer<CharSequence> s = BitIndexer.sized(Funnels.stringFunnel(), BitIndexer.DEFAULT_STRATEGY, n, 0.01);
      BitIndexer<Long> l = BitIndexer.sized(Funnels.longFunnel(), BitIndexer.DEFAULT_STRATEGY, n, 0.01);
      BitIndexer<byte[]> c = BitIndexer.sized(custom, BitIndexer.DEFAULT_STRATEGY, n, 0.01);
      assertThat(s.strategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
      int k = s.hashFunctions();
      long[] into = new long[Math.max(2, k)];
      for (int trial = 0; trial < 50; trial++) {
        String key = "key-" + random.nextLong() + (trial % 5 == 0 ? "\u00e9\u4e16" : "");
        s.indexes(key, into);
        assertThat(asBitSet(into, k)).as("n=%d %s", n, key).isEqualTo(bitsSetBy(strings, key));
        long v = random.nextLong();
        l.indexes(v, into);
        assertThat(asBitSet(into, k)).as("n=%d %d", n, v).isEqualTo(bitsSetBy(longs, v));
        byte[] b = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        c.indexes(b, into);
        assertThat(asBitSet(into, k)).as("n=%d bytes of %s", n, key).isEqualTo(bitsSetBy(other, b));
      }
    }
  }

  @Test
  void onlyTheStandardLayoutsStrategiesAreIndexed() {
    assertThat(BitIndexer.withShape(Funnels.longFunnel(), 640, 5).strategy()).isEqualTo(BitIndexer.STRATEGY);
    assertThatThrownBy(() -> BitIndexer.withShape(Funnels.longFunnel(), HashStrategy.XXH3_64_BLOCKED, 640, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not 5 (XXH3_64_BLOCKED)");
  }

  @Test
  void sizedMatchesTheShapeCreateBuilds() {
    for (long n : new long[] {1, 1_000, 123_457, 10_000_000}) {
      for (double p : new double[] {0.5, 0.01, 1e-6}) {
        BitIndexer<Long> indexer = BitIndexer.sized(Funnels.longFunnel(), n, p);
        BloomFilter<Long> filter = BloomFilter.create(Funnels.longFunnel(), n, p);
        assertThat(indexer.bitSize()).isEqualTo(filter.bitSize());
        assertThat(indexer.hashFunctions()).isEqualTo(filter.hashFunctions());
        assertThat(indexer.expectedFpp(n)).isEqualTo(filter.layout().expectedFpp(n));
      }
    }
  }

  @Test
  void hashIsTheInputOfIndexes() {
    BitIndexer<CharSequence> s = BitIndexer.withShape(Funnels.stringFunnel(), 9_586, 7);
    long[] direct = new long[7];
    s.indexes("alice", direct);
    long[] hash = new long[2];
    s.hash("alice", hash);
    long[] viaHash = new long[7];
    s.indexes(hash[0], hash[1], viaHash);
    assertThat(viaHash).isEqualTo(direct);
  }

  @Test
  void estimatesAgreeWithTheFilter() {
    BloomFilter<Integer> filter = BloomFilter.create(Funnels.integerFunnel(), 5_000, 0.01);
    for (int i = 0; i < 5_000; i++) {
      filter.add(i);
    }
    BitIndexer<Integer> indexer = BitIndexer.sized(Funnels.integerFunnel(), 5_000, 0.01);
    long setBits = Arrays.stream(filter.currentWords()).map(Long::bitCount).sum();
    assertThat(indexer.estimateElements(setBits)).isEqualTo(filter.approximateElementCount());
    assertThat(indexer.estimateElements(indexer.bitSize())).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void rejectsBadShapesItemsAndArrays() {
    assertThatThrownBy(() -> BitIndexer.withShape(Funnels.longFunnel(), 0, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
    assertThatThrownBy(() -> BitIndexer.withShape(Funnels.longFunnel(), 64, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
    assertThatThrownBy(() -> BitIndexer.sized(Funnels.longFunnel(), 10, 1.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 1.5");
    BitIndexer<Long> indexer = BitIndexer.withShape(Funnels.longFunnel(), 640, 5);
    assertThatThrownBy(() -> indexer.indexes(null, new long[5])).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> indexer.indexes(1L, new long[4])).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> indexer.hash(1L, new long[1])).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
