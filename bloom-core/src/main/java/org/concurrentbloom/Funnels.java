package org.concurrentbloom;

import java.util.Objects;

/** The funnels for common item types. Each is a singleton, so filters built with it are compatible. */
public final class Funnels {
  private Funnels() {}

  /** Feeds a {@link CharSequence} as its UTF-8 bytes. */
  public static Funnel<CharSequence> stringFunnel() {
    return StringFunnel.INSTANCE;
  }

  /** Feeds a {@link Long} as 8 little-endian bytes. */
  public static Funnel<Long> longFunnel() {
    return LongFunnel.INSTANCE;
  }

  /** Feeds an {@link Integer} as 4 little-endian bytes. */
  public static Funnel<Integer> integerFunnel() {
    return IntegerFunnel.INSTANCE;
  }

  /** Feeds a {@code byte[]} as its bytes, unchanged. */
  public static Funnel<byte[]> byteArrayFunnel() {
    return ByteArrayFunnel.INSTANCE;
  }

  // Enum singletons: equal across class loads and descriptive in toString(), which error messages use.

  private enum StringFunnel implements Funnel<CharSequence> {
    INSTANCE;

    @Override
    public void funnel(CharSequence from, Sink into) {
      into.putString(Objects.requireNonNull(from, "item"));
    }

    @Override
    public String toString() {
      return "Funnels.stringFunnel()";
    }
  }

  private enum LongFunnel implements Funnel<Long> {
    INSTANCE;

    @Override
    public void funnel(Long from, Sink into) {
      into.putLong(from);
    }

    @Override
    public String toString() {
      return "Funnels.longFunnel()";
    }
  }

  private enum IntegerFunnel implements Funnel<Integer> {
    INSTANCE;

    @Override
    public void funnel(Integer from, Sink into) {
      into.putInt(from);
    }

    @Override
    public String toString() {
      return "Funnels.integerFunnel()";
    }
  }

  private enum ByteArrayFunnel implements Funnel<byte[]> {
    INSTANCE;

    @Override
    public void funnel(byte[] from, Sink into) {
      into.putBytes(from);
    }

    @Override
    public String toString() {
      return "Funnels.byteArrayFunnel()";
    }
  }
}
