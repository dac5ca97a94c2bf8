package org.concurrentbloom.redis;

import java.nio.ByteBuffer;

/**
 * Converts between the core's words and a Redis bit string (docs/FORMAT.md, "Bits in Redis").
 *
 * <p>The core puts filter bit i at bit (i mod 64), least significant first, of word i / 64. Redis's
 * SETBIT/GETBIT put offset i in byte i / 8 at bit 7 - (i mod 8), most significant first. Both count bytes
 * in increasing order, so word w is the 8 bytes 8w..8w+7 of the string, and within them the bit order is
 * exactly reversed: the Redis bytes of word w are the big-endian bytes of {@code Long.reverse(w)}. The
 * string has ceil(m / 8) bytes; the last word may be cut short, and a short string reads as zeros.
 * Stateless; any thread.
 */
final class RedisBits {
  private RedisBits() {}

  /** The Redis string for the first {@code bits} bits of {@code words}: ceil(bits / 8) bytes. */
  static byte[] toRedis(long[] words, long bits) {
    int bytes = byteLength(bits);
    ByteBuffer out = ByteBuffer.allocate(bytes);
    int whole = bytes >>> 3;
    for (int w = 0; w < whole; w++) {
      out.putLong(Long.reverse(words[w]));
    }
    if (out.hasRemaining()) {
      long last = Long.reverse(words[whole]);
      for (int b = 0; out.hasRemaining(); b++) {
        out.put((byte) (last >>> (56 - 8 * b)));
      }
    }
    return out.array();
  }

  /**
   * The ceil(bits / 64) words for a Redis string. A string shorter than ceil(bits / 8) bytes reads as if
   * padded with zeros (Redis does the same for GETBIT past the end).
   *
   * @throws IllegalArgumentException if the string is longer than ceil(bits / 8) bytes
   */
  static long[] toWords(byte[] redis, long bits) {
    int bytes = byteLength(bits);
    if (redis.length > bytes) {
      throw new IllegalArgumentException("the bit string has " + redis.length + " bytes, more than the "
          + bytes + " that m=" + bits + " bits take");
    }
    long[] words = new long[(int) ((bits + 63) >>> 6)];
    ByteBuffer in = ByteBuffer.wrap(redis);
    int w = 0;
    for (; in.remaining() >= 8; w++) {
      words[w] = Long.reverse(in.getLong());
    }
    if (in.hasRemaining()) {
      long last = 0;
      for (int b = 0; in.hasRemaining(); b++) {
        last |= (in.get() & 0xFFL) << (56 - 8 * b);
      }
      words[w] = Long.reverse(last);
    }
    return words;
  }

  /** ceil(bits / 8): the length of the Redis string for m bits. */
  static int byteLength(long bits) {
    return Math.toIntExact((bits + 7) >>> 3);
  }
}
