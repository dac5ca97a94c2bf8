package org.concurrentbloom;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

/**
 * The hash of strategies 4 and 5 (docs/HASHING.md): h1 = XXH3-64 with seed 0 of the item's key bytes,
 * and h2 = a SplitMix64 finalizer of h1. The key bytes are the funnel's bytes, except that a string is
 * fed as its UTF-16 code units, 2 bytes little-endian each, rather than as UTF-8: that is what lets a
 * String be hashed without being encoded first (hash4j reads its chars directly), and it is the whole
 * speed-up for String keys (docs/PROFILE.md, section 2). A long key's bytes are its 8 little-endian bytes.
 *
 * <p>XXH3 is Yann Collet's (xxHash, https://github.com/Cyan4973/xxHash, XXH3_64bits); the
 * implementation is hash4j's, which allocates nothing for these calls. The finalizer is the one of
 * SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators", OOPSLA 2014) with
 * Stafford's "Mix13" constants: a bijection of 64 bits in which every input bit affects every output bit,
 * so h2 behaves as a second independent 64-bit hash for the probe derivations, which use h1 and h2 as two.
 * Deriving h2 costs ~1 ns, where a 128-bit XXH3 cost twice as much and allocated per call.
 *
 * <p>Stateless; any thread may call it.
 */
final class Xxh3Keys {
  private static final Hasher64 XXH3 = Hashing.xxh3_64();
  private static final long GAMMA = 0x9E3779B97F4A7C15L;

  private Xxh3Keys() {}

  /**
   * h1 of {@code item}: the string and long funnels hash the item directly, any other funnel's bytes are
   * collected first ({@link HashingSink#xxh3Of}). Small, so that it inlines into each caller.
   */
  static <T> long of(T item, Funnel<? super T> funnel) {
    return of(item, funnel, null);
  }

  /**
   * {@link #of(Object, Funnel)}, collecting another funnel's bytes in {@code held}, a sink the caller
   * holds already (a batch), or in the thread's sink if null. The one dispatch of strategies 4 and 5.
   */
  static <T> long of(T item, Funnel<? super T> funnel, HashingSink held) {
    if (funnel == Funnels.stringFunnel()) {
      return chars((CharSequence) item);
    }
    if (funnel == Funnels.longFunnel()) {
      return ofLong((Long) item);
    }
    return held != null ? held.xxh3OfFunnelled(item, funnel) : HashingSink.xxh3Of(item, funnel);
  }

  /** h1 of a string key: XXH3-64 of its UTF-16LE code units (an unpaired surrogate is hashed as it is). */
  static long chars(CharSequence s) {
    return XXH3.hashCharsToLong(s);
  }

  /** h1 of a long key: XXH3-64 of its 8 little-endian bytes. */
  static long ofLong(long v) {
    return XXH3.hashLongToLong(v);
  }

  /** h1 of {@code length} bytes of {@code bytes} from {@code offset}. */
  static long bytes(byte[] bytes, int offset, int length) {
    return XXH3.hashBytesToLong(bytes, offset, length);
  }

  /** h2 from h1. */
  static long second(long h1) {
    long z = h1 + GAMMA;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
