package org.concurrentbloom;

/**
 * How a filter turns an item into cell positions: the hash of the funnel's bytes and the probe
 * derivation from it. The {@link #id()} is the hash-strategy byte of docs/FORMAT.md (offset 6) and is
 * frozen by FilterTypeTest; docs/HASHING.md and docs/LAYOUTS.md define each strategy precisely enough to
 * reimplement it.
 *
 * <p>Strategies 4 and 6, the defaults of new standard and blocked filters (and 5, the blocked default
 * before 6), hash with XXH3-64 and feed
 * strings as their UTF-16 code units, which is about 1.6 times cheaper per String key than strategies 1
 * and 2 (UTF-8 encoding, then MurmurHash3); their probes are those of 1 and 2. Files and Redis filters of
 * strategies 1 and 2 keep loading and answering exactly as before.
 */
public enum HashStrategy {
  /** 1: MurmurHash3 x64 128, k probes anywhere in m cells by enhanced double hashing. */
  MURMUR3_128_ENHANCED_DOUBLE(1),
  /** 2: MurmurHash3 x64 128, k probes inside one 512-bit block by multiplicative remixing. */
  MURMUR3_128_BLOCKED(2),
  /** 3: Guava's {@code MURMUR128_MITZ_64}: plain double hashing, a division per probe. */
  GUAVA_MURMUR128_MITZ_64(3),
  /**
   * Guava's older {@code MURMUR128_MITZ_32}: readable from Guava's bytes and queried exactly, but it has
   * no id in the filter file format, so such a filter cannot be written ({@link #isStorable()} is false).
   */
  GUAVA_MURMUR128_MITZ_32(-32),
  /**
   * 4: XXH3-64 of the item (a string as its UTF-16LE code units), h2 a SplitMix64 finalizer of h1, then
   * strategy 1's enhanced double hashing. The standard layout's default.
   */
  XXH3_64_ENHANCED_DOUBLE(4),
  /** 5: the hash of strategy 4, then strategy 2's probes inside one 512-bit block. */
  XXH3_64_BLOCKED(5),
  /**
   * 6: the hash of strategy 4, then k bits in two 64-bit words of one 512-bit block, one word in each
   * half ({@code WordPairLayout}). The blocked layout's default since it was added.
   */
  XXH3_64_WORD_PAIR(6);

  private final int id;

  HashStrategy(int id) {
    this.id = id;
  }

  /** True for the strategies that hash with XXH3-64 (4, 5 and 6) rather than MurmurHash3. */
  public boolean isXxh3() {
    return this == XXH3_64_ENHANCED_DOUBLE || this == XXH3_64_BLOCKED || this == XXH3_64_WORD_PAIR;
  }

  /** The strategy byte written in files; negative for a strategy that files cannot hold. */
  public int id() {
    return id;
  }

  /** True iff the filter file format has an id for this strategy. */
  public boolean isStorable() {
    return id > 0;
  }

  /**
   * The strategy with this file id.
   *
   * @throws IllegalArgumentException if no storable strategy has that id; the message names it
   */
  public static HashStrategy ofId(int id) {
    HashStrategy s = FilterFormat.readableStrategy(id);
    if (s != null) {
      return s;
    }
    throw new IllegalArgumentException("unknown hash strategy " + id);
  }
}
