package org.concurrentbloom.benchmarks;

import com.google.common.hash.HashCode;
import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * (h1, h2) of a key as bloom-core's hash strategy 1 computes them (the thread-safety benchmarks hash their
 * keys beforehand, so which hash does not matter to them): MurmurHash3 x64 128, seed 0, of the key's UTF-8 bytes,
 * h1 and h2 being the output's two halves read little-endian (docs/HASHING.md). Guava computes the hash;
 * bloom-core's own, allocation-free implementation is not public.
 */
public final class KeyHashes {
  private static final HashFunction MURMUR = Hashing.murmur3_128();
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private KeyHashes() {}

  /** Writes h1 of {@code key} to {@code out[2 * slot]} and h2 to {@code out[2 * slot + 1]}. */
  public static void hashInto(String key, long[] out, int slot) {
    HashCode hash = MURMUR.hashString(key, StandardCharsets.UTF_8);
    byte[] bytes = hash.asBytes();
    out[2 * slot] = (long) LONG_LE.get(bytes, 0);
    out[2 * slot + 1] = (long) LONG_LE.get(bytes, 8);
  }

  /** The hashes of e-mail keys {@code from .. from+count-1}, interleaved: h1, h2, h1, h2, ... */
  public static long[] ofEmails(long from, int count) {
    long[] out = new long[2 * count];
    for (int i = 0; i < count; i++) {
      hashInto(Keys.email(from + i), out, i);
    }
    return out;
  }

  /** The hashes of the given String keys, interleaved as in {@link #ofEmails}. */
  public static long[] of(Object[] keys) {
    long[] out = new long[2 * keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashInto((String) keys[i], out, i);
    }
    return out;
  }
}
