package org.concurrentbloom.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Sink;

/**
 * The bytes a funnel writes for an item, collected instead of hashed: what the BF.* filter sends, so the
 * server hashes the same bytes any other client sends for the same value (a string funnel writes the
 * UTF-8 of the string, so {@code BF.EXISTS key alice@example.com} from redis-cli matches). Numbers are
 * little-endian, as {@link Sink} specifies. One instance per item; not thread-safe.
 */
final class FunnelBytes implements Sink {
  private byte[] buffer = new byte[32];
  private int size;

  /** The bytes {@code funnel} writes for {@code item}. @throws NullPointerException if item is null */
  static <T> byte[] of(Funnel<? super T> funnel, T item) {
    if (item == null) {
      throw new NullPointerException("item");
    }
    FunnelBytes sink = new FunnelBytes();
    funnel.funnel(item, sink);
    return Arrays.copyOf(sink.buffer, sink.size);
  }

  private void room(int more) {
    if (size + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
    }
  }

  private Sink littleEndian(long v, int bytes) {
    room(bytes);
    for (int i = 0; i < bytes; i++) {
      buffer[size++] = (byte) (v >>> (8 * i));
    }
    return this;
  }

  @Override
  public Sink putByte(byte b) {
    room(1);
    buffer[size++] = b;
    return this;
  }

  @Override
  public Sink putBytes(byte[] bytes) {
    return putBytes(bytes, 0, bytes.length);
  }

  @Override
  public Sink putBytes(byte[] bytes, int offset, int length) {
    room(length);
    System.arraycopy(bytes, offset, buffer, size, length);
    size += length;
    return this;
  }

  @Override
  public Sink putShort(short s) {
    return littleEndian(s, 2);
  }

  @Override
  public Sink putChar(char c) {
    return littleEndian(c, 2);
  }

  @Override
  public Sink putInt(int i) {
    return littleEndian(i, 4);
  }

  @Override
  public Sink putLong(long l) {
    return littleEndian(l, 8);
  }

  @Override
  public Sink putString(CharSequence chars) {
    return putBytes(chars.toString().getBytes(StandardCharsets.UTF_8));
  }
}
