package org.concurrentbloom;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
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
  /** Type 1: k bits anywhere in m ({@link BloomFilter}'s default); strategy 4, or 1 in older files. */
  STANDARD(1, "standard", "standard Bloom filter", "BloomFilter.readFrom", StandardLayout::new, StandardLayout::sized,
      HashStrategy.XXH3_64_ENHANCED_DOUBLE, HashStrategy.MURMUR3_128_ENHANCED_DOUBLE),
  /**
   * Type 2: k bits inside one 512-bit block ({@link BloomFilter.Builder#blocked()}): in two of its words
   * (strategy 6, new filters), or anywhere in it (strategies 5 and 2, older files and on request).
   */
  BLOCKED(2, "blocked", "blocked Bloom filter (512-bit blocks)", "BloomFilter.readFrom", FilterType::blockedLayout,
      FilterType::sizedBlockedLayout, HashStrategy.XXH3_64_WORD_PAIR, HashStrategy.XXH3_64_BLOCKED,
      HashStrategy.MURMUR3_128_BLOCKED),
  /** Type 3: Guava's layout and sizing ({@link BloomFilter.Builder#guavaCompatible()}). */
  GUAVA(3, "guava", "Guava-compatible Bloom filter", "BloomFilter.readFrom", (m, k, s) -> new GuavaLayout(m, k),
      (n, p, s) -> GuavaLayout.sized(n, p), HashStrategy.GUAVA_MURMUR128_MITZ_64),
  /** Type 4: 4-bit counters at the standard layout's positions ({@link CountingBloomFilter}); strategy 4, or 1. */
  COUNTING(4, "counting", "counting Bloom filter (4-bit counters)", "CountingBloomFilter.readFrom", null, null,
      HashStrategy.XXH3_64_ENHANCED_DOUBLE, HashStrategy.MURMUR3_128_ENHANCED_DOUBLE),
  /** Type 5: layers of standard or blocked filters ({@link ScalableBloomFilter}); they carry the strategy. */
  SCALABLE(5, "scalable", "scalable Bloom filter", "ScalableBloomFilter.readFrom", null, null),
  /** Type 6: rotating generations that forget ({@link ExpiringBloomFilter}); strategy 4. */
  EXPIRING(6, "expiring", "expiring Bloom filter (rotating generations)", "ExpiringBloomFilter.readFrom", null, null,
      HashStrategy.XXH3_64_ENHANCED_DOUBLE);

  /** A layout of exactly m bits and k probes. */
  interface Shaped {
    Layout of(long bits, int hashFunctions, HashStrategy strategy);
  }

  /** A layout sized for n items at rate p. */
  interface Sized {
    Layout of(long n, double p, HashStrategy strategy);
  }

  private final int id;
  private final String shortName;
  private final String description;
  /** The strategies a record of this type may have, the default for new filters first; empty for SCALABLE. */
  @SuppressWarnings("ImmutableEnumChecker") // never modified after construction
  private final HashStrategy[] strategies;
  /** The method that reads this type, for messages that send a caller there. */
  private final String reader;
  /** Null for the types that are not one bit array; stateless method references otherwise. */
  @SuppressWarnings("ImmutableEnumChecker")
  private final Shaped shaped;
  @SuppressWarnings("ImmutableEnumChecker")
  private final Sized sized;

  FilterType(int id, String shortName, String description, String reader, Shaped shaped, Sized sized,
      HashStrategy... strategies) {
    this.id = id;
    this.shortName = shortName;
    this.description = description;
    this.strategies = strategies;
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
   * The hash strategy new filters of this type use unless built with another: 4 for {@link #STANDARD}, 6
   * for {@link #BLOCKED} (5 below p = 0.001, and for a scalable filter's blocked layers); null for
   * {@link #SCALABLE}, whose layers each record their own.
   */
  public HashStrategy strategy() {
    return strategies.length == 0 ? null : strategies[0];
  }

  /**
   * The smallest p for which a new blocked filter takes strategy 6 (two words per item): below it, strategy
   * 6's cap of 10 bits per item costs more than 10% more memory than strategy 5 (17.0 against 15.5 bits
   * per item at p = 0.001, 26 against 22 at 0.0001), so new blocked filters take strategy 5 there.
   */
  static final double WORD_PAIR_MIN_FPP = 1e-3;

  /**
   * The strategy a new filter of this type sized for rate p gets unless built with another: {@link
   * #strategy()}, except that a blocked filter with p below {@link #WORD_PAIR_MIN_FPP} gets strategy 5.
   */
  HashStrategy strategyFor(double p) {
    return this == BLOCKED && p < WORD_PAIR_MIN_FPP ? HashStrategy.XXH3_64_BLOCKED : strategy();
  }

  /**
   * The strategy of a scalable filter's layers of this type unless built with another: strategy 5 for
   * blocked layers, whose rates tighten layer by layer past where strategy 6 pays ({@link #strategyFor}).
   */
  HashStrategy layerStrategy() {
    return this == BLOCKED ? HashStrategy.XXH3_64_BLOCKED : strategy();
  }

  /**
   * The hash strategies a filter of this type may have: {@link #strategy()} and, for the standard and
   * blocked types, the strategies of the files written before it. Empty for {@link #SCALABLE}.
   */
  public Set<HashStrategy> strategies() {
    return strategies.length == 0 ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(List.of(strategies)));
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

  /** True iff a filter of this type may have hash strategy {@code s}. */
  public boolean admits(HashStrategy s) {
    for (HashStrategy t : strategies) {
      if (t == s) {
        return true;
      }
    }
    return false;
  }

  /** The admitted strategies for messages: "4 (XXH3_64_ENHANCED_DOUBLE) or 1 (MURMUR3_128_ENHANCED_DOUBLE)". */
  String strategyList() {
    StringJoiner j = new StringJoiner(" or ");
    for (HashStrategy t : strategies) {
      j.add(t.id() + " (" + t + ")");
    }
    return j.toString();
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
   * The layout of this shape and strategy, for the bit-array types.
   *
   * @throws IllegalArgumentException if the shape is invalid for the type, the type does not admit the
   *     strategy, or the type has no layout
   */
  Layout layout(long bits, int hashFunctions, HashStrategy strategy) {
    return requireBitArray().shaped.of(bits, hashFunctions, requireAdmitted(strategy));
  }

  /** {@link #sizedLayout(long, double, HashStrategy)} with this type's default strategy. */
  Layout sizedLayout(long n, double p) {
    return sizedLayout(n, p, strategy());
  }

  /**
   * The layout sized for n items at rate p, allocating nothing.
   *
   * @throws IllegalArgumentException if n or p is out of range, the shape passes the size limit, the
   *     type does not admit the strategy, or the type has no layout
   */
  Layout sizedLayout(long n, double p, HashStrategy strategy) {
    return requireBitArray().sized.of(n, p, requireAdmitted(strategy));
  }

  /**
   * {@code s}, if a filter of this type may have it: the one check of every constructor that takes a
   * strategy (layouts, layer plans, counting filters).
   *
   * @throws IllegalArgumentException naming {@code s} and the strategies this type takes
   */
  HashStrategy requireAdmitted(HashStrategy s) {
    if (!admits(s)) {
      throw new IllegalArgumentException("a " + shortName + " filter cannot use hash strategy " + s.id() + " (" + s
          + "); it takes " + strategyList());
    }
    return s;
  }

  /** The blocked type's two layouts: strategy 6 puts an item's bits in two words, 5 and 2 anywhere in the block. */
  private static Layout blockedLayout(long bits, int hashFunctions, HashStrategy strategy) {
    return strategy == HashStrategy.XXH3_64_WORD_PAIR ? new WordPairLayout(bits, hashFunctions)
        : new BlockedLayout(bits, hashFunctions, strategy);
  }

  private static Layout sizedBlockedLayout(long n, double p, HashStrategy strategy) {
    return strategy == HashStrategy.XXH3_64_WORD_PAIR ? WordPairLayout.sized(n, p) : BlockedLayout.sized(n, p, strategy);
  }

  private FilterType requireBitArray() {
    if (shaped == null) {
      throw new IllegalArgumentException("a " + shortName + " filter has no bit layout");
    }
    return this;
  }
}
