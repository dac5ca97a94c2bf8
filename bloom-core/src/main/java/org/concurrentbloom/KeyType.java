package org.concurrentbloom;

import java.util.Objects;

/**
 * The kind of key a filter file's bits were computed from: which funnel turned items into bytes.
 * Format version 2 records it in byte 7 of every filter header (docs/FORMAT.md), so that a reader, and
 * the {@code bloom} command, can refuse to look up keys encoded a different way. Looking up a long in a
 * filter of strings hashes other bytes than the add did and answers a wrong "absent"; recording the
 * key type turns that silent error into an {@link java.io.IOException} at load time.
 *
 * <p>The key type of a funnel is {@link #of(Funnel)}: the built-in {@link Funnels} have their own, any
 * other funnel is {@link #CUSTOM} unless it was declared with {@link Funnels#withKeyType}.
 */
public enum KeyType {
  /** Not recorded: the file is of format version 1, which has no key type field. Never written. */
  UNRECORDED(-1, "not recorded"),
  /** A funnel other than the built-in ones; its bytes are known only to the program that wrote it. */
  CUSTOM(0, "custom funnel"),
  /**
   * {@link Funnels#stringFunnel()}: a string, as its UTF-8 bytes under hash strategies 1 to 3 and as its
   * UTF-16LE code units under 4 and 5 (the name is from before strategy 4).
   */
  UTF8_STRING(1, "UTF-8 strings"),
  /** {@link Funnels#longFunnel()}: 8 little-endian bytes. */
  LONG(2, "64-bit integers"),
  /** {@link Funnels#integerFunnel()}: 4 little-endian bytes. */
  INTEGER(3, "32-bit integers"),
  /** {@link Funnels#byteArrayFunnel()}: the bytes as given. */
  BYTES(4, "byte arrays");

  private final int id;
  private final String description;

  KeyType(int id, String description) {
    this.id = id;
    this.description = description;
  }

  /** The value of byte 7 of a version 2 header; -1 for {@link #UNRECORDED}, which has none. */
  public int id() {
    return id;
  }

  /** A few words for messages: "UTF-8 strings", "64-bit integers", "custom funnel". */
  public String description() {
    return description;
  }

  /** The key type of the bytes {@code funnel} writes. */
  public static KeyType of(Funnel<?> funnel) {
    Objects.requireNonNull(funnel, "funnel");
    if (funnel == Funnels.stringFunnel()) {
      return UTF8_STRING;
    }
    if (funnel == Funnels.longFunnel()) {
      return LONG;
    }
    if (funnel == Funnels.integerFunnel()) {
      return INTEGER;
    }
    if (funnel == Funnels.byteArrayFunnel()) {
      return BYTES;
    }
    if (funnel instanceof Funnels.Declared<?> declared) {
      return declared.keyType();
    }
    return CUSTOM;
  }

  /**
   * The key type stored as {@code id} in a version 2 header.
   *
   * @throws IllegalArgumentException if no key type has that id
   */
  public static KeyType ofId(int id) {
    for (KeyType t : values()) {
      if (t.id == id && t != UNRECORDED) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown key type " + id + "; known: 0 (custom), 1 (UTF-8 string), "
        + "2 (long), 3 (int), 4 (bytes)");
  }

  /**
   * Whether a file recording this key type may be read with a funnel of key type {@code given}: always
   * for an unrecorded one, otherwise only the same type.
   */
  public boolean admits(KeyType given) {
    return this == UNRECORDED || this == given;
  }
}
