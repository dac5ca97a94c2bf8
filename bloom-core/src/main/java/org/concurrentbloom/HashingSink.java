package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * Collects the bytes a funnel writes and hashes them: with MurmurHash3 x64 128 (seed 0, see {@link Murmur3})
 * for strategies 1 to 3 ({@link #hash}), or with XXH3-64 for strategies 4 and 5 ({@link #xxh3Of}), in
 * which {@link #putString} writes UTF-16LE code units instead of UTF-8 (docs/HASHING.md).
 *
 * <p>Thread use: one instance per thread, handed out by {@link #acquire()}. Buffers are reused so that
 * funnelling a String or a long allocates nothing once the thread's buffer has grown to fit. A funnel
 * that re-enters a filter from inside {@code funnel} gets a fresh sink instead of clobbering the one
 * in use.
 */
final class HashingSink implements Sink {
  private static final VarHandle SHORT_LE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int INITIAL_CAPACITY = 64;
  /** Bytes past the data that {@link Murmur3#hash128} may read (and masks off). */
  private static final int TAIL_SLACK = 16;
  /** A thread keeps at most this much buffer between items; one huge item must not pin memory. */
  private static final int MAX_RETAINED_CAPACITY = 1 << 16;

  private static final ThreadLocal<HashingSink> PER_THREAD = ThreadLocal.withInitial(HashingSink::new);

  private byte[] buffer = new byte[INITIAL_CAPACITY];
  private int length;
  private boolean inUse;
  /** {@link #putString} writes UTF-16LE code units (strategies 4 and 5), not UTF-8. */
  private boolean utf16;

  /** First half of the last hash: output bytes 0..7, little-endian. */
  long h1;
  /** Second half of the last hash: output bytes 8..15, little-endian. */
  long h2;

  private HashingSink() {}

  /** Returns an empty sink owned by the calling thread until {@link #release()}. */
  static HashingSink acquire() {
    HashingSink sink = PER_THREAD.get();
    if (sink.inUse) {
      sink = new HashingSink();
    }
    sink.inUse = true;
    return sink;
  }

  /** Funnels {@code item}, hashes the bytes, and leaves the result in {@link #h1} and {@link #h2}. */
  <T> void hash(T item, Funnel<? super T> funnel) {
    if (funnel == Funnels.longFunnel()) { // its 8 bytes hash without the buffer (the funnel takes only Longs)
      long v = (Long) item;
      h1 = Murmur3.longH1(v);
      h2 = Murmur3.longH2(v);
      return;
    }
    length = 0;
    utf16 = false;
    if (funnel == Funnels.stringFunnel() && item instanceof String s) {
      putAsciiOrString(s);
    } else {
      funnel.funnel(item, this);
    }
    ensureRoom(TAIL_SLACK); // Murmur3 reads the tail as whole words
    Murmur3.hash128(buffer, length, this);
  }

  /**
   * XXH3-64 of the bytes {@code funnel} writes for {@code item}, strings as UTF-16LE code units: h1 of
   * strategies 4 and 5 for a funnel other than the string and long funnels, which {@link Xxh3Keys#of}
   * hashes without a buffer.
   */
  static <T> long xxh3Of(T item, Funnel<? super T> funnel) {
    HashingSink sink = acquire();
    try {
      return sink.xxh3OfFunnelled(item, funnel);
    } finally {
      sink.release();
    }
  }

  /** XXH3-64 of what {@code funnel} writes into this sink, which the caller holds. */
  <T> long xxh3OfFunnelled(T item, Funnel<? super T> funnel) {
    length = 0;
    utf16 = true;
    funnel.funnel(item, this);
    return Xxh3Keys.bytes(buffer, 0, length);
  }

  /**
   * Hashes {@code item} as {@code strategy} does, leaving the result in {@link #h1} and {@link #h2}: for
   * callers that hold this sink already (batches), so that a custom funnel's bytes reuse its buffer.
   */
  <T> void hash(T item, Funnel<? super T> funnel, HashStrategy strategy) {
    if (!strategy.isXxh3()) {
      hash(item, funnel);
      return;
    }
    h1 = Xxh3Keys.of(item, funnel, this);
    h2 = Xxh3Keys.second(h1);
  }

  /**
   * What {@link #putString} writes, faster for the common all-ASCII String: one pass that copies and
   * ORs the chars, with no branch per char; only a string with a non-ASCII char is encoded again by
   * the general UTF-8 loop. (String's internal bytes are out of reach without {@code Unsafe}, and
   * {@code getBytes} would allocate.)
   */
  private void putAsciiOrString(String s) {
    int n = s.length();
    ensureRoom(n);
    byte[] out = buffer;
    int seen = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      seen |= c;
      out[i] = (byte) c;
    }
    if (seen < 0x80) {
      length = n;
    } else {
      putString(s);
    }
  }

  void release() {
    if (buffer.length > MAX_RETAINED_CAPACITY) {
      buffer = new byte[INITIAL_CAPACITY];
    }
    inUse = false;
  }

  private void ensureRoom(int more) {
    int needed = length + more;
    if (needed < 0) {
      throw new IllegalArgumentException("funnel wrote more than 2^31-1 bytes for one item");
    }
    if (needed > buffer.length) {
      int grown = Math.max(needed, buffer.length * 2);
      buffer = Arrays.copyOf(buffer, grown < 0 ? Integer.MAX_VALUE - 8 : grown);
    }
  }

  @Override
  public Sink putByte(byte b) {
    ensureRoom(1);
    buffer[length++] = b;
    return this;
  }

  @Override
  public Sink putBytes(byte[] bytes) {
    return putBytes(bytes, 0, bytes.length);
  }

  @Override
  public Sink putBytes(byte[] bytes, int offset, int len) {
    Objects.checkFromIndexSize(offset, len, bytes.length);
    ensureRoom(len);
    System.arraycopy(bytes, offset, buffer, length, len);
    length += len;
    return this;
  }

  @Override
  public Sink putShort(short s) {
    ensureRoom(2);
    SHORT_LE.set(buffer, length, s);
    length += 2;
    return this;
  }

  @Override
  public Sink putChar(char c) {
    return putShort((short) c);
  }

  @Override
  public Sink putInt(int i) {
    ensureRoom(4);
    INT_LE.set(buffer, length, i);
    length += 4;
    return this;
  }

  @Override
  public Sink putLong(long l) {
    ensureRoom(8);
    LONG_LE.set(buffer, length, l);
    length += 8;
    return this;
  }

  @Override
  public Sink putString(CharSequence chars) {
    if (utf16) {
      return putUtf16(chars);
    }
    int n = chars.length();
    // At most 3 bytes per UTF-16 unit (a surrogate pair is 2 units -> 4 bytes).
    ensureRoom(Math.multiplyExact(n, 3));
    byte[] out = buffer;
    int pos = length;
    for (int i = 0; i < n; i++) {
      char c = chars.charAt(i);
      if (c < 0x80) {
        out[pos++] = (byte) c;
      } else if (c < 0x800) {
        out[pos++] = (byte) (0xC0 | (c >>> 6));
        out[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        out[pos++] = (byte) (0xE0 | (c >>> 12));
        out[pos++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
        out[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(chars.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, chars.charAt(++i));
        out[pos++] = (byte) (0xF0 | (cp >>> 18));
        out[pos++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
        out[pos++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
        out[pos++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        out[pos++] = (byte) '?'; // what String.getBytes(UTF_8) writes for an unpaired surrogate
      }
    }
    length = pos;
    return this;
  }

  /** Strategies 4 and 5: each UTF-16 code unit as 2 bytes, little-endian, surrogates included as they are. */
  private Sink putUtf16(CharSequence chars) {
    int n = chars.length();
    ensureRoom(Math.multiplyExact(n, 2));
    byte[] out = buffer;
    int pos = length;
    for (int i = 0; i < n; i++) {
      SHORT_LE.set(out, pos, (short) chars.charAt(i));
      pos += 2;
    }
    length = pos;
    return this;
  }
}
