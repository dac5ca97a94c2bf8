package org.concurrentbloom;

/**
 * The cache-blocked layout: an item's k bits all lie in one 512-bit block (8 words, the size of a cache
 * line) chosen by the hash, so a query waits for one memory access instead of k (Putze, Sanders and
 * Singler, "Cache-, Hash- and Space-Efficient Bloom Filters", WEA 2007). Hash strategies 2 and 5 (which
 * differ only in how h1 and h2 are computed, see docs/HASHING.md):
 *
 * <pre>
 *   block = floor(h1 * B / 2^64)                   -- B = m / 512 blocks, unsigned fast range
 *   h = h2
 *   for i = 1..k:  probe bit 512*block + (h >>> 55);  h = h * 0x9E3779B97F4A7C15 (mod 2^64)
 * </pre>
 *
 * Each probe takes the top 9 bits of a fresh multiplicative remix of h2, so the positions within the
 * block behave as independent draws, which is what the Poisson sizing model in {@link Sizing} assumes.
 * The query is branch-free: it ANDs the k tested bits and decides once, so the CPU never waits on a
 * loaded value to choose what to load next.
 *
 * <p>Java gives no control over where a {@code long[]} starts, so a block is 64-byte aligned only when
 * the array happens to be; otherwise it straddles two adjacent lines, fetched in parallel (and often
 * together by the adjacent-line prefetcher). The FPR does not depend on alignment.
 */
final class BlockedLayout extends Layout {
  static final int BLOCK_BITS = 512;
  private static final long REMIX = 0x9E3779B97F4A7C15L; // odd: multiplication by it is a bijection

  private final long blocks;
  /** 2 (MurmurHash3) or 5 (XXH3). */
  private final HashStrategy strategy;

  /** Strategy 2's layout, that of every blocked file written before strategy 5. */
  BlockedLayout(long bits, int hashFunctions) {
    this(bits, hashFunctions, HashStrategy.MURMUR3_128_BLOCKED);
  }

  BlockedLayout(long bits, int hashFunctions, HashStrategy strategy) {
    super(bits, hashFunctions);
    if (bits % BLOCK_BITS != 0) {
      throw new IllegalArgumentException(
          "a blocked filter's bit count must be a multiple of " + BLOCK_BITS + ", was " + bits);
    }
    FilterType.BLOCKED.requireAdmitted(strategy);
    this.blocks = bits / BLOCK_BITS;
    this.strategy = strategy;
  }

  @Override
  FilterType type() {
    return FilterType.BLOCKED;
  }

  @Override
  HashStrategy strategy() {
    return strategy;
  }

  /** The fewest whole blocks whose Poisson block model meets p at n; see {@link Sizing#blockedShape}. */
  static BlockedLayout sized(long n, double p, HashStrategy strategy) {
    long[] shape = Sizing.blockedShape(n, p);
    return new BlockedLayout(shape[0], (int) shape[1], strategy);
  }

  /** The index of the block's first word. */
  private int baseWord(long h1) {
    return (int) (Probes.reduce(h1, blocks) << 3);
  }

  @Override
  boolean set(long[] words, long h1, long h2) {
    if (test(words, h1, h2)) { // loads the block; the CASes below then hit the cache
      return false;
    }
    int base = baseWord(h1);
    long h = h2;
    boolean changed = false;
    for (int i = 0; i < hashFunctions; i++) {
      int pos = (int) (h >>> 55);
      changed |= AtomicWords.setBitCas(words, ((long) base << 6) + pos);
      h *= REMIX;
    }
    return changed;
  }

  @Override
  boolean test(long[] words, long h1, long h2) {
    int base = baseWord(h1);
    long h = h2;
    long all = 1;
    for (int i = 0; i < hashFunctions; i++) {
      int pos = (int) (h >>> 55);
      all &= AtomicWords.getAcquire(words, base + (pos >>> 6)) >>> pos; // an int shift of a long uses pos mod 64
      h *= REMIX;
    }
    return (all & 1) != 0;
  }

  /** The block's first and last words: both of its cache lines when it straddles two. */
  @Override
  long touch(long[] words, long h1, long h2) {
    int base = baseWord(h1);
    return words[base] + words[base + 7];
  }

  @Override
  double expectedFpp(double n) {
    return Sizing.blockedFpp(blocks, hashFunctions, n);
  }
}
