package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The SWAR nibble operations against a nibble-by-nibble reference, on random and edge words. */
class CounterWordsTest {
  private static final long[] EDGES = {0, -1, CounterWords.LOW_BITS, 0x7777_7777_7777_7777L,
      0x8888_8888_8888_8888L, 0xF0F0_F0F0_F0F0_F0F0L, 0x0123_4567_89AB_CDEFL, 0xFEDC_BA98_7654_3210L};

  private static int nibble(long v, int j) {
    return (int) (v >>> (4 * j)) & 15;
  }

  /** Random words whose nibbles favour 0, 1, 14 and 15, where the edge cases are. */
  private static long[] words(int count) {
    SplittableRandom random = new SplittableRandom(16);
    long[] words = new long[count];
    int[] favoured = {0, 1, 14, 15};
    for (int i = 0; i < count; i++) {
      long v = 0;
      for (int j = 0; j < 16; j++) {
        int n = random.nextBoolean() ? favoured[random.nextInt(4)] : random.nextInt(16);
        v |= (long) n << (4 * j);
      }
      words[i] = i < EDGES.length ? EDGES[i] : v;
    }
    return words;
  }

  @Test
  void nibbleMasksAndCountsMatchTheReference() {
    for (long v : words(5_000)) {
      long zero = 0;
      long stuck = 0;
      int nonZero = 0;
      for (int j = 0; j < 16; j++) {
        zero |= nibble(v, j) == 0 ? 1L << (4 * j) : 0;
        stuck |= nibble(v, j) == 15 ? 1L << (4 * j) : 0;
        nonZero += nibble(v, j) != 0 ? 1 : 0;
      }
      assertThat(CounterWords.zeroNibbles(v)).as("%016x", v).isEqualTo(zero);
      assertThat(CounterWords.stuckNibbles(v)).as("%016x", v).isEqualTo(stuck);
      assertThat(CounterWords.nonZeroCount(v)).as("%016x", v).isEqualTo(nonZero);
    }
  }

  @Test
  void saturatingAddMatchesTheReference() {
    long[] words = words(2_000);
    SplittableRandom random = new SplittableRandom(15);
    for (long a : words) {
      for (int i = 0; i < 20; i++) {
        long b = words[random.nextInt(words.length)];
        long expected = 0;
        for (int j = 0; j < 16; j++) {
          expected |= (long) Math.min(15, nibble(a, j) + nibble(b, j)) << (4 * j);
        }
        assertThat(CounterWords.saturatingAdd(a, b)).as("%016x + %016x", a, b).isEqualTo(expected);
      }
    }
  }

  @Test
  void bitsAreSetExactlyForNonZeroCounters() {
    long[] words = words(4_000);
    long[] bits = CounterWords.toBits(words, 16L * words.length);
    for (long i = 0; i < 16L * words.length; i++) {
      boolean set = (bits[(int) (i >>> 6)] >>> i & 1) != 0;
      assertThat(set).as("counter %d", i).isEqualTo(nibble(words[(int) (i / 16)], (int) (i % 16)) != 0);
    }
    // A counter count that is not a multiple of 64: the last bit word is built from fewer counter words.
    assertThat(CounterWords.toBits(new long[] {-1L}, 16)).containsExactly(0xFFFFL);
  }

  @Test
  void incrementSkipsStuckCountersAndReportsZeros() {
    long[] w = {0xF1L}; // counter 0 is 1, counter 1 is 15
    assertThat(CounterWords.incrementCas(w, 0, 0x11L)).isFalse(); // neither was 0
    assertThat(w[0]).isEqualTo(0xF2L);
    assertThat(CounterWords.incrementCas(w, 0, 0x110L)).isTrue(); // counter 2 was 0
    assertThat(w[0]).isEqualTo(0x1F2L);
    assertThat(CounterWords.incrementCas(w, 0, 0x10L)).isFalse(); // only a stuck counter: no write
    assertThat(w[0]).isEqualTo(0x1F2L);
  }

  @Test
  void decrementSkipsStuckCountersReportsEmptiedOnesAndRefusesZeros() {
    long[] w = {0x1F2L};
    assertThat(CounterWords.decrementCas(w, 0, 0x11L)).isFalse(); // 2 -> 1, 15 stays
    assertThat(w[0]).isEqualTo(0x1F1L);
    assertThat(CounterWords.decrementCas(w, 0, 0x101L)).isTrue(); // both reach 0
    assertThat(w[0]).isEqualTo(0x0F0L);
    assertThatThrownBy(() -> CounterWords.decrementCas(w, 0, 0x1L)).isInstanceOf(IllegalStateException.class);
    assertThat(w[0]).isEqualTo(0x0F0L);
  }
}
