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
 * loads and two mask compares, and an add at most two compare-and-exchanges (one per word, skipped when
 * its bits are set already; {@code getAndBitwiseOr} is a CAS loop on HotSpot anyway). That is the shape
 * of FastFilter_java's single-threaded {@code BlockedBloom} (4 bits in 2 words; Lemire et al.'s
 * FastFilter, after Putze, Sanders and Singler's "Cache-, Hash- and Space-Efficient Bloom Filters", WEA
 * 2007, section 2.2, "register-blocked" filters), whose speed its arithmetic and the thread-safe table
 * bring within about 0.5-0.6x on single lookups (docs/BENCHMARKS.md says where the rest goes). The price is a little memory: the bits of a word are shared by the items
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
 * <p>Immutable; any thread may call any method. Adds turn bits on only, with one compare-and-exchange
 * per word that lacks its bits ({@link AtomicWords#orWordCas}, {@link AtomicWords#orWordFrom}), so no
 * add is ever lost (bloom-jcstress's WordPairConcurrentAdds, WordPairSameItemAdds, WordPairBatchAdds).
 */
final class WordPairLayout extends Layout {
  private static final long REMIX = 0x9E3779B97F4A7C15L; // odd; the golden ratio's 64-bit fraction

  private final long blocks;

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

  /**
   * Word a's bits for k hash functions: fields 0 .. ceil(k/2)-1 of g. A switch on k with every shift a
   * constant, not a loop nor a field count: a loop of 1 to 5 turns, with its set-up and exit tests, cost
   * more than the rest of a query (two loads), and a switch on a field count read from the layout, with
   * a computed shift for the second word, ~1 ns more per query than this.
   */
  static long firstMask(long g, int k) {
    switch (k) {
      case 1:
      case 2:
        return bit(g, 58);
      case 3:
      case 4:
        return bit(g, 58) | bit(g, 52);
      case 5:
      case 6:
        return bit(g, 58) | bit(g, 52) | bit(g, 46);
      case 7:
      case 8:
        return bit(g, 58) | bit(g, 52) | bit(g, 46) | bit(g, 40);
      default:
        return bit(g, 58) | bit(g, 52) | bit(g, 46) | bit(g, 40) | bit(g, 34);
    }
  }

  /** Word b's bits for k hash functions: fields ceil(k/2) .. k-1 of g (none for k = 1). */
  static long secondMask(long g, int k) {
    switch (k) {
      case 1:
        return 0;
      case 2:
        return bit(g, 52);
      case 3:
        return bit(g, 46);
      case 4:
        return bit(g, 46) | bit(g, 40);
      case 5:
        return bit(g, 40) | bit(g, 34);
      case 6:
        return bit(g, 40) | bit(g, 34) | bit(g, 28);
      case 7:
        return bit(g, 34) | bit(g, 28) | bit(g, 22);
      case 8:
        return bit(g, 34) | bit(g, 28) | bit(g, 22) | bit(g, 16);
      case 9:
        return bit(g, 28) | bit(g, 22) | bit(g, 16) | bit(g, 10);
      default:
        return bit(g, 28) | bit(g, 22) | bit(g, 16) | bit(g, 10) | bit(g, 4);
    }
  }

  /**
   * The bit named by the six bits of g from bit {@code shift} up (a long shift uses its count mod 64, so
   * the bits above them do not matter).
   */
  private static long bit(long g, int shift) {
    return 1L << (g >>> shift);
  }

  @Override
  boolean set(long[] words, long h1, long h2) {
    int base = baseWord(h1);
    long g = h1 * REMIX;
    int k = hashFunctions;
    // Both words are written whatever the first returns.
    boolean first = AtomicWords.orWordCas(words, firstWord(base, g), firstMask(g, k));
    boolean second = AtomicWords.orWordCas(words, secondWord(base, g), secondMask(g, k));
    return first || second;
  }

  @Override
  boolean test(long[] words, long h1, long h2) {
    int base = baseWord(h1);
    long g = h1 * REMIX;
    int k = hashFunctions;
    long a = AtomicWords.getAcquire(words, firstWord(base, g));
    long b = AtomicWords.getAcquire(words, secondWord(base, g));
    return matches(a, b, g, k);
  }

  /** No bit of either mask clear in the words read: one test, no branch between the words. */
  private static boolean matches(long a, long b, long g, int k) {
    return ((~a & firstMask(g, k)) | (~b & secondMask(g, k))) == 0;
  }

  /**
   * {@link #test} of n items whose h1 are {@code hashes[2i]}, into {@code results[offset + i]}: one
   * branch-free loop with no call, table read or seal check per item, so the CPU keeps the cache misses
   * of many items in flight. The caller checks the table's seal once after it, as for one test.
   */
  void testAll(long[] words, long[] hashes, int n, boolean[] results, int offset) {
    int k = hashFunctions;
    for (int i = 0; i < n; i++) {
      long h1 = hashes[2 * i];
      int base = baseWord(h1);
      long g = h1 * REMIX;
      long a = AtomicWords.getAcquire(words, firstWord(base, g));
      long b = AtomicWords.getAcquire(words, secondWord(base, g));
      results[offset + i] = matches(a, b, g, k);
    }
  }

  /**
   * {@link #set} of n &le; 64 items whose h1 are {@code hashes[2i]}; bit i of the result is set iff item
   * i turned a bit on. The first pass reads every item's two words (independent loads, many misses in
   * flight) into {@code seen}; the second ORs, with a CAS per word that still lacks its bits, on lines
   * now cached. A single add cannot overlap its miss with the next one's: its atomics order every later
   * load after them.
   */
  long setAll(long[] words, long[] hashes, int n, long[] seen) {
    int k = hashFunctions;
    for (int i = 0; i < n; i++) {
      long h1 = hashes[2 * i];
      int base = baseWord(h1);
      long g = h1 * REMIX;
      seen[2 * i] = AtomicWords.getAcquire(words, firstWord(base, g));
      seen[2 * i + 1] = AtomicWords.getAcquire(words, secondWord(base, g));
    }
    long changed = 0;
    for (int i = 0; i < n; i++) {
      long h1 = hashes[2 * i];
      int base = baseWord(h1);
      long g = h1 * REMIX;
      boolean first = AtomicWords.orWordFrom(words, firstWord(base, g), firstMask(g, k), seen[2 * i]);
      boolean second = AtomicWords.orWordFrom(words, secondWord(base, g), secondMask(g, k), seen[2 * i + 1]);
      if (first || second) {
        changed |= 1L << i;
      }
    }
    return changed;
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
