package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The word/Redis-string conversion of docs/FORMAT.md, on known bytes and random round trips. */
class RedisBitsTest {

  private static long[] wordsWithBits(long bits, long... set) {
    long[] words = new long[(int) ((bits + 63) >>> 6)];
    for (long i : set) {
      words[(int) (i >>> 6)] |= 1L << i;
    }
    return words;
  }

  @Test
  void knownBytes() {
    // Filter bit 0 is Redis offset 0: the most significant bit of byte 0.
    assertThat(RedisBits.toRedis(wordsWithBits(64, 0), 64)).containsExactly(0x80, 0, 0, 0, 0, 0, 0, 0);
    // Bit 9 is byte 1, bit 7 - 1: 0x40. Bit 63 is the least significant bit of byte 7.
    assertThat(RedisBits.toRedis(wordsWithBits(64, 9, 63), 64)).containsExactly(0, 0x40, 0, 0, 0, 0, 0, 0x01);
    // Bit 64 starts the second word and byte 8.
    assertThat(RedisBits.toRedis(wordsWithBits(128, 64, 71), 128))
        .containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0x81, 0, 0, 0, 0, 0, 0, 0);
    // The worked example of docs/FORMAT.md ("Bits in Redis"): word 0 of its example file.
    assertThat(RedisBits.toRedis(new long[] {0x80b0380800000004L}, 64))
        .containsExactly(0x20, 0, 0, 0, 0x10, 0x1c, 0x0d, 0x01);
    // m = 12: two bytes, the last one half used.
    assertThat(RedisBits.toRedis(wordsWithBits(12, 0, 11), 12)).containsExactly(0x80, 0x10);
    assertThat(RedisBits.toWords(new byte[] {(byte) 0x80, 0x10}, 12)).containsExactly(1L | 1L << 11);
  }

  @Test
  void randomRoundTripsForEveryTailLength() {
    SplittableRandom random = new SplittableRandom(7);
    for (long bits = 1; bits <= 300; bits++) {
      long[] words = new long[(int) ((bits + 63) >>> 6)];
      for (int w = 0; w < words.length; w++) {
        words[w] = random.nextLong();
      }
      int tail = (int) (bits & 63);
      if (tail != 0) {
        words[words.length - 1] &= (1L << tail) - 1;
      }
      byte[] redis = RedisBits.toRedis(words, bits);
      assertThat(redis).hasSize((int) ((bits + 7) / 8));
      for (long i = 0; i < bits; i++) {
        boolean core = (words[(int) (i >>> 6)] >>> i & 1) != 0;
        boolean redisBit = (redis[(int) (i >>> 3)] >>> (7 - (i & 7)) & 1) != 0;
        assertThat(redisBit).as("m=%d bit %d", bits, i).isEqualTo(core);
      }
      assertThat(RedisBits.toWords(redis, bits)).isEqualTo(words);
    }
  }

  @Test
  void shortStringsReadAsZerosAndLongOnesAreRejected() {
    assertThat(RedisBits.toWords(new byte[] {(byte) 0xFF}, 128)).containsExactly(0xFFL, 0L);
    assertThat(RedisBits.toWords(new byte[0], 64)).containsExactly(0L);
    assertThatThrownBy(() -> RedisBits.toWords(new byte[9], 64)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("9 bytes");
  }
}
