package org.concurrentbloom;

/**
 * Where an item's k bits live in the bit array, given its two 64-bit hashes. One subclass per filter
 * type; instances are immutable, so any thread may call any method.
 *
 * <p>{@link #set} must only ever turn bits on, with {@link AtomicWords}' atomic read-modify-writes;
 * {@link #test} must read with acquire semantics (the seal check in {@code BloomFilter} relies on it).
 */
abstract sealed class Layout permits StandardLayout, BlockedLayout, WordPairLayout, GuavaLayout,
    GuavaMitz32Layout {
  final long bits;
  final int hashFunctions;

  Layout(long bits, int hashFunctions) {
    Sizing.checkShape(bits, hashFunctions);
    this.bits = bits;
    this.hashFunctions = hashFunctions;
  }

  /** The filter type this layout is (docs/FORMAT.md). */
  abstract FilterType type();

  /** The hash strategy that places its bits (docs/HASHING.md). */
  abstract HashStrategy strategy();

  /** A short name for messages: the type's short name unless the layout says otherwise. */
  String name() {
    return type().shortName();
  }

  /** Turns on the item's bits; true iff at least one was off. */
  abstract boolean set(long[] words, long h1, long h2);

  /** True iff all of the item's bits are on. */
  abstract boolean test(long[] words, long h1, long h2);

  /**
   * Reads (plainly) the words an item's {@link #set} or {@link #test} will read, and returns a value
   * derived from them, so that batches can bring many items' lines into cache at once.
   */
  abstract long touch(long[] words, long h1, long h2);

  /** The expected false-positive rate after {@code n} distinct insertions. */
  abstract double expectedFpp(double n);

  /** Same type, bit count and hash function count: the bits of one filter mean the same in the other. */
  final boolean sameShape(Layout other) {
    return type() == other.type() && strategy() == other.strategy() && bits == other.bits
        && hashFunctions == other.hashFunctions;
  }

  final String shape() {
    return "BloomFilter[layout=" + name() + ", bits=" + bits + ", hashFunctions=" + hashFunctions + ", hashStrategy="
        + strategy().id() + "]";
  }
}
