package org.concurrentbloom;

import java.util.Objects;

/** The funnels for common item types. Each is a singleton, so filters built with it are compatible. */
public final class Funnels {
  private Funnels() {}

  /**
   * Feeds a {@link CharSequence} as {@link Sink#putString} does: its UTF-16 code units under hash
   * strategies 4 and 5 (the defaults; hashed straight from the chars), its UTF-8 bytes under 1 to 3.
   */
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

  /**
   * {@code funnel}, declared to write the same bytes as the built-in funnel of {@code keyType}. Filters
   * built with it record that key type in their files, and readers accept it for files that record it:
   * use it to read a file with an equivalent funnel of your own (a caller who knows better than the
   * recorded type), or to let the {@code bloom} command query files your own funnel wrote. Declaring a
   * type the funnel does not match makes every lookup by the other side wrong: the bytes must be equal.
   * For {@link KeyType#UTF8_STRING} that means writing the string with {@link Sink#putString}, which
   * writes what the filter's hash strategy hashes (UTF-8 under strategies 1 to 3, UTF-16 code units
   * under 4 and 5, the defaults); a funnel that writes {@code getBytes(UTF_8)} with {@code putBytes}
   * matches the built-in one only under strategies 1 to 3.
   *
   * @throws IllegalArgumentException if {@code keyType} is {@link KeyType#UNRECORDED}
   */
  public static <T> Funnel<T> withKeyType(Funnel<T> funnel, KeyType keyType) {
    Objects.requireNonNull(funnel, "funnel");
    Objects.requireNonNull(keyType, "keyType");
    if (keyType == KeyType.UNRECORDED) {
      throw new IllegalArgumentException("a funnel cannot be declared UNRECORDED; that marks version 1 files");
    }
    Funnel<T> inner = funnel instanceof Declared<T> d ? d.funnel() : funnel;
    return new Declared<>(inner, keyType);
  }

  /**
   * Checks that a filter's funnel is {@link #longFunnel()}, for the primitive long paths ({@code addLong},
   * {@code mightContainLong}, {@code long[]} batches), which hash a long as that funnel does.
   *
   * @throws IllegalStateException naming the filter's funnel otherwise
   */
  static void requireLongKeys(Funnel<?> funnel) {
    if (funnel != longFunnel()) {
      throw new IllegalStateException(
          "long keys (addLong, mightContainLong, long[] batches) need a filter built with Funnels.longFunnel(), not "
              + funnel);
    }
  }

  /**
   * Why filters of funnels {@code a} and {@code b} must not be merged, or null if they may: their
   * {@link KeyType}s differ (a custom funnel has not declared which bytes it writes, so it matches no
   * typed one), or both are custom and not {@code equals}, the only sign two custom funnels agree.
   */
  static String incompatibility(Funnel<?> a, Funnel<?> b) {
    KeyType ka = KeyType.of(a);
    KeyType kb = KeyType.of(b);
    if (ka != kb) {
      return "their funnels write different keys (" + ka.description() + " vs " + kb.description()
          + "), so the bits of one mean nothing to the other"
          + (ka == KeyType.CUSTOM || kb == KeyType.CUSTOM
              ? "; if the custom funnel writes the same bytes, declare it with Funnels.withKeyType" : "");
    }
    if (ka == KeyType.CUSTOM && !a.equals(b)) {
      return "two custom funnels that are not equal(); build both filters with one funnel instance (or a funnel"
          + " class with equals), or declare both with Funnels.withKeyType";
    }
    return null;
  }

  /** A funnel with a declared key type, from {@link #withKeyType}. */
  record Declared<T>(Funnel<T> funnel, KeyType keyType) implements Funnel<T> {
    @Override
    public void funnel(T from, Sink into) {
      funnel.funnel(from, into);
    }

    @Override
    public String toString() {
      return "Funnels.withKeyType(" + funnel + ", " + keyType + ")";
    }
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
