package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3 x64 128-bit (Austin Appleby, public domain algorithm, SMHasher), seed 0, written for
 * this library from the published algorithm. The two halves are returned the way the reference code
 * stores them: {@code h1} is the first 8 output bytes read little-endian, {@code h2} the next 8 (the
 * same convention as Guava's {@code Hashing.murmur3_128()}, which the tests cross-check).
 *
 * <p>Why our own and not a library's: it writes its result into two fields instead of returning an
 * object, so hashing allocates nothing even where the JIT does not inline the hash (a library's
 * 128-bit result object cost 32 bytes per operation here), and it is the hash Guava's filters use.
 */
final class Murmur3 {
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3() {}

  /**
   * Hashes {@code data[0, length)}; the result is left in {@code out.h1} and {@code out.h2}. The array
   * must extend at least 16 bytes past the last whole 16-byte block ({@code data.length >=
   * (length & ~15) + 16}): the tail is read as two whole words and the bytes past {@code length} are
   * masked off, which costs two loads instead of a byte loop of up to 15 steps.
   */
  static void hash128(byte[] data, int length, HashingSink out) {
    long h1 = 0;
    long h2 = 0;
    int blocks = length >>> 4;
    for (int b = 0; b < blocks; b++) {
      long k1 = (long) LONG_LE.get(data, b << 4);
      long k2 = (long) LONG_LE.get(data, (b << 4) + 8);
      h1 ^= mixK1(k1);
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(k2);
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = blocks << 4;
    int rest = length & 15;
    if (rest > 0) {
      long k1 = (long) LONG_LE.get(data, tail);
      long k2 = 0;
      if (rest > 8) {
        k2 = (long) LONG_LE.get(data, tail + 8) & (-1L >>> ((16 - rest) << 3));
      } else {
        k1 &= -1L >>> ((8 - rest) << 3);
      }
      // mixK2(0) is 0, so a tail of at most 8 bytes leaves h2 as the reference code does.
      h2 ^= mixK2(k2);
      h1 ^= mixK1(k1);
    }
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    out.h1 = h1;
    out.h2 = h2;
  }

  /*
   * An 8-byte input (a long, little-endian) is one partial block whose k1 is the value itself. Unrolling
   * the finalisation: with a = (mixK1(v) ^ 8) + 8, f1 = fmix64(a) and f2 = fmix64(a + 8), the hash is
   * h1 = f1 + f2 and h2 = f1 + 2 f2, computed without a buffer. (Called together, the JIT shares the
   * common work of the two.)
   */

  /** h1 of the hash of {@code value}'s 8 little-endian bytes. */
  static long longH1(long value) {
    return longF1(value) + longF2(value);
  }

  /** h2 of the hash of {@code value}'s 8 little-endian bytes. */
  static long longH2(long value) {
    return longF1(value) + 2 * longF2(value);
  }

  private static long longF1(long value) {
    return fmix64((mixK1(value) ^ 8) + 8);
  }

  private static long longF2(long value) {
    return fmix64((mixK1(value) ^ 8) + 16);
  }

  private static long mixK1(long k1) {
    return Long.rotateLeft(k1 * C1, 31) * C2;
  }

  private static long mixK2(long k2) {
    return Long.rotateLeft(k2 * C2, 33) * C1;
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
