package org.concurrentbloom;

/**
 * The word-pair layout of hash strategy 6, what {@link BloomFilter.Builder#blocked()} builds: an item's
 * k bits lie in two 64-bit words of one 512-bit block, ceil(k/2) of them in a word of the block's first
 * half and floor(k/2) in a word of its second half. docs/HASHING.md defines it for other languages:
 *
 * <pre>
 *   h1 = XXH3-64 of the key (as strategy 4)
 *   block = floor(h1 * B / 2^64)                 -- B = m / 512 blocks, unsigned fast range
 *   g = h1 * 0x9E3779B97F4A7C15 (mod 2^64)
 *   word a = 8 block + (g & 3),  word b = 8 block + 4 + ((g >>> 2) & 3)
 *   bit i (i = 0..k-1) = (g >>> (58 - 6 i)) & 63, in word a for i &lt; ceil(k/2), in word b after
 * </pre>
 *
 * <p>Why two words. A blocked query (strategy 5) reads one cache line but still makes k separate probes,
 * each with its own load, shift and remix, and an add makes up to k atomic writes. Here a query is two
 * loads and two mask compares, and an add at most two atomic ORs (one per word, skipped when its bits
 * are set already), which is what lets a thread-safe filter keep pace with FastFilter_java's
 * single-threaded {@code BlockedBloom} (4 bits in 2 words; Lemire et al.'s FastFilter, after Putze,
 * Sanders and Singler's "Cache-, Hash- and Space-Efficient Bloom Filters", WEA 2007, section 2.2,
 * "register-blocked" filters). The price is a little memory: the bits of a word are shared by the items
 * that chose it, so p = 1% takes 10.3 bits per item (k = 6) where strategy 5 takes 9.9 and the standard
 * layout 9.6 ({@link Sizing#wordPairFpp} is the model; docs/LAYOUTS.md has the table).
 *
 * <p>Why g and not h2. The block is chosen by h1's top bits; the words and bits are chosen by g, h1
 * times an odd constant, whose top bits depend on all of h1's bits: for the items of one block, h1 runs
 * through an interval, and its products with the constant are spread evenly (a Weyl sequence), so the
 * bits within the block are as good as independent of the block. That costs one multiplication where
 * strategy 4's h2 costs two, and k &le; 10 fields of 6 bits plus the 4 bits that choose the words use
 * exactly g's 64 bits.
 *
 * <p>Immutable; any thread may call any method. Adds turn bits on only, with one
 * {@link AtomicWords#orWord} per word, so no add is ever lost (bloom-jcstress's WordPairConcurrentAdds).
 */
final class WordPairLayout extends Layout {
  private static final long REMIX = 0x9E3779B97F4A7C15L; // odd; the golden ratio's 64-bit fraction

  private final long blocks;
  /** Bits in the first word: ceil(k/2); the rest, floor(k/2), go in the second. */
  private final int firstWordBits;

  WordPairLayout(long bits, int hashFunctions) {
    super(bits, hashFunctions);
    if (bits % BlockedLayout.BLOCK_BITS != 0) {
      throw new IllegalArgumentException(
          "a blocked filter's bit count must be a multiple of " + BlockedLayout.BLOCK_BITS + ", was " + bits);
    }
    if (hashFunctions > Sizing.MAX_WORD_PAIR_HASH_FUNCTIONS) {
      throw new IllegalArgumentException("a word-pair blocked filter (hash strategy 6) takes at most "
          + Sizing.MAX_WORD_PAIR_HASH_FUNCTIONS + " hash functions, was " + hashFunctions);
    }
    this.blocks = bits / BlockedLayout.BLOCK_BITS;
    this.firstWordBits = (hashFunctions + 1) / 2;
  }

  /** The fewest whole blocks whose model meets p at n, with the best k up to 10; see {@link Sizing#wordPairShape}. */
  static WordPairLayout sized(long n, double p) {
    long[] shape = Sizing.wordPairShape(n, p);
    return new WordPairLayout(shape[0], (int) shape[1]);
  }

  @Override
  FilterType type() {
    return FilterType.BLOCKED;
  }

  @Override
  HashStrategy strategy() {
    return HashStrategy.XXH3_64_WORD_PAIR;
  }

  /** The index of the block's first word. */
  private int baseWord(long h1) {
    return (int) (Probes.reduce(h1, blocks) << 3);
  }

  /** Word a: in the block's first half. */
  private static int firstWord(int base, long g) {
    return base + (int) (g & 3);
  }

  /** Word b: in the block's second half. */
  private static int secondWord(int base, long g) {
    return base + 4 + (int) ((g >>> 2) & 3);
  }

  /** The item's bits in word a: fields 0 .. ceil(k/2)-1 of g, from the top. */
  private long firstMask(long g) {
    return mask(g, firstWordBits);
  }

  /** The item's bits in word b: fields ceil(k/2) .. k-1 of g. */
  private long secondMask(long g) {
    return mask(g << (6 * firstWordBits), hashFunctions - firstWordBits);
  }

  /**
   * The OR of bits for the first {@code fields} 6-bit fields of {@code f}, from the top (0 to 5 of them).
   * A switch, not a loop: a loop of an unknown count of 1 to 5 turns, which the JIT compiles with its
   * set-up and exit tests, cost more than the rest of a query (two loads). A long shift uses its count
   * mod 64, so {@code 1L << (f >>> s)} is the bit named by the six bits of f from bit s up.
   */
  @SuppressWarnings("fallthrough") // each case adds its field and those of the cases below it
  private static long mask(long f, int fields) {
    long m = 0;
    switch (fields) {
      case 5:
        m |= 1L << (f >>> 34);
        // fall through
      case 4:
        m |= 1L << (f >>> 40);
        // fall through
      case 3:
        m |= 1L << (f >>> 46);
        // fall through
      case 2:
        m |= 1L << (f >>> 52);
        // fall through
      case 1:
        m |= 1L << (f >>> 58);
        // fall through
      default:
        return m;
    }
  }

  @Override
  boolean set(long[] words, long h1, long h2) {
    int base = baseWord(h1);
    long g = h1 * REMIX;
    // Both words are written whatever the first returns.
    boolean first = AtomicWords.orWord(words, firstWord(base, g), firstMask(g));
    boolean second = AtomicWords.orWord(words, secondWord(base, g), secondMask(g));
    return first || second;
  }

  @Override
  boolean test(long[] words, long h1, long h2) {
    int base = baseWord(h1);
    long g = h1 * REMIX;
    long a = AtomicWords.getAcquire(words, firstWord(base, g));
    long b = AtomicWords.getAcquire(words, secondWord(base, g));
    long ma = firstMask(g);
    long mb = secondMask(g);
    return ((~a & ma) | (~b & mb)) == 0; // no bit of either mask clear: one test, no branch between the words
  }

  /** The block's first and last words: both of its cache lines when it straddles two. */
  @Override
  long touch(long[] words, long h1, long h2) {
    int base = baseWord(h1);
    return words[base] + words[base + 7];
  }

  @Override
  double expectedFpp(double n) {
    return Sizing.wordPairFpp(blocks, hashFunctions, n);
  }
}
