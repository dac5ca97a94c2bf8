package org.concurrentbloom;

import java.util.StringJoiner;

/**
 * The registry of filter types: one entry per kind of filter the file format can hold, with the type
 * byte of docs/FORMAT.md (offset 5), its hash strategy, its names, and for the bit-array types the
 * {@link Layout} that places an item's bits. Every format reader and writer, the CLI, the guard's
 * snapshots and the Redis backend take their ids and names from here, so a new filter type is one entry
 * plus its layout or format class (see docs/ARCHITECTURE.md).
 *
 * <p>The {@link #id()}, not the ordinal, is the serialized form: entries may be reordered, ids never
 * change (FilterTypeTest freezes them). Immutable; any thread may use it.
 */
public enum FilterType {
  /** Type 1: k bits anywhere in m ({@link BloomFilter}'s default). */
  STANDARD(1, "standard", "standard Bloom filter", HashStrategy.MURMUR3_128_ENHANCED_DOUBLE,
      "BloomFilter.readFrom", StandardLayout::new, StandardLayout::sized),
  /** Type 2: k bits inside one 512-bit block ({@link BloomFilter.Builder#blocked()}). */
  BLOCKED(2, "blocked", "blocked Bloom filter (512-bit blocks)", HashStrategy.MURMUR3_128_BLOCKED,
      "BloomFilter.readFrom", BlockedLayout::new, BlockedLayout::sized),
  /** Type 3: Guava's layout and sizing ({@link BloomFilter.Builder#guavaCompatible()}). */
  GUAVA(3, "guava", "Guava-compatible Bloom filter", HashStrategy.GUAVA_MURMUR128_MITZ_64,
      "BloomFilter.readFrom", GuavaLayout::new, GuavaLayout::sized),
  /** Type 4: 4-bit counters at the standard layout's positions ({@link CountingBloomFilter}). */
  COUNTING(4, "counting", "counting Bloom filter (4-bit counters)", HashStrategy.MURMUR3_128_ENHANCED_DOUBLE,
      "CountingBloomFilter.readFrom", null, null),
  /** Type 5: layers of standard or blocked filters ({@link ScalableBloomFilter}); they carry the strategy. */
  SCALABLE(5, "scalable", "scalable Bloom filter", null, "ScalableBloomFilter.readFrom", null, null);

  /** A layout of exactly m bits and k probes. */
  interface Shaped {
    Layout of(long bits, int hashFunctions);
  }

  /** A layout sized for n items at rate p. */
  interface Sized {
    Layout of(long n, double p);
  }

  private final int id;
  private final String shortName;
  private final String description;
  private final HashStrategy strategy;
  /** The method that reads this type, for messages that send a caller there. */
  private final String reader;
  /** Null for the types that are not one bit array; stateless method references otherwise. */
  @SuppressWarnings("ImmutableEnumChecker")
  private final Shaped shaped;
  @SuppressWarnings("ImmutableEnumChecker")
  private final Sized sized;

  FilterType(int id, String shortName, String description, HashStrategy strategy, String reader, Shaped shaped,
      Sized sized) {
    this.id = id;
    this.shortName = shortName;
    this.description = description;
    this.strategy = strategy;
    this.reader = reader;
    this.shaped = shaped;
    this.sized = sized;
  }

  /** The type byte written in files. */
  public int id() {
    return id;
  }

  /** A short lower-case name for messages and options: "standard", "blocked", "guava", ... */
  public String shortName() {
    return shortName;
  }

  /** A one-line description, such as "blocked Bloom filter (512-bit blocks)". */
  public String description() {
    return description;
  }

  /**
   * The hash strategy a record of this type is written with; null for {@link #SCALABLE}, whose layers
   * each record their own.
   */
  public HashStrategy strategy() {
    return strategy;
  }

  /** True for the types whose cells are single bits in one array, read by {@link BloomFilter#readFrom}. */
  public boolean isBitArray() {
    return shaped != null;
  }

  /**
   * The type with this file id.
   *
   * @throws IllegalArgumentException if no type has that id; the message names it and every known type
   */
  public static FilterType ofId(int id) {
    for (FilterType t : values()) {
      if (t.id == id) {
        return t;
      }
    }
    StringJoiner known = new StringJoiner(", ");
    for (FilterType t : values()) {
      known.add(t.id + " (" + t.shortName + ")");
    }
    throw new IllegalArgumentException("unknown filter type " + id + "; known types: " + known);
  }

  /** True iff a record of this type may be written with strategy {@code s}. */
  boolean admits(HashStrategy s) {
    return s == strategy;
  }

  /** True for the types a {@link ScalableBloomFilter}'s layers may have. */
  boolean isScalableLayer() {
    return this == STANDARD || this == BLOCKED;
  }

  /** The layer type of a scalable filter whose header names this layer strategy; null if none. */
  static FilterType ofLayerStrategy(HashStrategy s) {
    for (FilterType t : values()) {
      if (t.isScalableLayer() && t.admits(s)) {
        return t;
      }
    }
    return null;
  }

  String reader() {
    return reader;
  }

  /**
   * The layout of this shape, for the bit-array types.
   *
   * @throws IllegalArgumentException if the shape is invalid for the type, or the type has no layout
   */
  Layout layout(long bits, int hashFunctions) {
    return requireBitArray().shaped.of(bits, hashFunctions);
  }

  /**
   * The layout sized for n items at rate p, allocating nothing.
   *
   * @throws IllegalArgumentException if n or p is out of range, the shape passes the size limit, or the
   *     type has no layout
   */
  Layout sizedLayout(long n, double p) {
    return requireBitArray().sized.of(n, p);
  }

  private FilterType requireBitArray() {
    if (shaped == null) {
      throw new IllegalArgumentException("a " + shortName + " filter has no bit layout");
    }
    return this;
  }
}
