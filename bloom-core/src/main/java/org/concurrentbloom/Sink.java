package org.concurrentbloom;

/**
 * Receives the bytes that a {@link Funnel} feeds to the hash function.
 *
 * <p>Multi-byte primitives are written little-endian; {@link #putString} writes UTF-8 under hash
 * strategies 1 to 3 and UTF-16LE code units under strategies 4 and 5, the defaults. The exact bytes
 * matter only for reproducing hashes outside Java (see docs/HASHING.md): two filters of one strategy
 * built with funnels that make the same calls for the same items are interchangeable.
 *
 * <p>A sink is valid only during the {@link Funnel#funnel} call it is passed to; do not keep it.
 */
public interface Sink {

  /** Writes one byte. */
  Sink putByte(byte b);

  /** Writes all bytes of {@code bytes}. */
  Sink putBytes(byte[] bytes);

  /** Writes {@code length} bytes of {@code bytes} starting at {@code offset}. */
  Sink putBytes(byte[] bytes, int offset, int length);

  /** Writes 2 bytes, little-endian. */
  Sink putShort(short s);

  /** Writes the UTF-16 code unit as 2 bytes, little-endian. */
  Sink putChar(char c);

  /** Writes 4 bytes, little-endian. */
  Sink putInt(int i);

  /** Writes 8 bytes, little-endian. */
  Sink putLong(long l);

  /** Writes {@link Float#floatToRawIntBits} as 4 bytes, little-endian. */
  default Sink putFloat(float f) {
    return putInt(Float.floatToRawIntBits(f));
  }

  /** Writes {@link Double#doubleToRawLongBits} as 8 bytes, little-endian. */
  default Sink putDouble(double d) {
    return putLong(Double.doubleToRawLongBits(d));
  }

  /** Writes 1 for true, 0 for false. */
  default Sink putBoolean(boolean b) {
    return putByte(b ? (byte) 1 : (byte) 0);
  }

  /**
   * Writes {@code chars}. Under hash strategies 1 to 3: its UTF-8 encoding, exactly the bytes of
   * {@code chars.toString().getBytes(UTF_8)}, in which an unpaired surrogate becomes {@code '?'}. Under
   * strategies 4 and 5: each UTF-16 code unit as 2 bytes, little-endian, surrogates as they are, which is
   * what lets a String be hashed without an encoding pass (docs/HASHING.md, section 7).
   */
  Sink putString(CharSequence chars);
}
