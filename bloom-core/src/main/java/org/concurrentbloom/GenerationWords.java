package org.concurrentbloom;

import java.util.Arrays;

/**
 * The bits of the G generations of an {@link ExpiringGenerations}, interleaved in one {@code long[]}: cell
 * c of every generation sits in one G-bit field, bit g for generation g, so a word holds 64/G cells. A
 * probe loads one word and learns at once which generations have that bit, so a lookup touches k words,
 * as a standard filter's does, instead of G·k.
 *
 * <p>Any thread may call any method at any time; none blocks, and the probes allocate nothing. Bits are
 * set by CAS, so adds into the same word never erase one another's. This class knows nothing of slots or
 * steps: callers say which generations count by a mask. Clearing a generation is the step's pass in
 * {@link ExpiringSteps}, which CASes {@link #words} itself, because it must check the step's state
 * between reading a word and its CAS.
 */
final class GenerationWords {
  final long[] words;
  /** The low G bits. */
  final long allGenerations;
  private final long cells;
  private final int hashFunctions;
  private final int g;
  /** log2(64/G): cell c is in word c >>> cellShift. */
  private final int cellShift;
  private final int cellsPerWordMask;
  private final int log2G;
  /** 1 in the lowest bit of every cell of a word: generation mask × this = that mask in every cell. */
  private final long cellOnes;

  GenerationWords(ExpiringPlan plan, long[] words) {
    this.words = words;
    this.cells = plan.cells;
    this.hashFunctions = plan.hashFunctions;
    this.g = plan.generations;
    this.log2G = Integer.numberOfTrailingZeros(g);
    this.cellShift = 6 - log2G;
    this.cellsPerWordMask = (1 << cellShift) - 1;
    this.allGenerations = g == 64 ? -1L : (1L << g) - 1;
    this.cellOnes = cellOnes(g);
  }

  /** 1 in the lowest bit of every G-bit cell of a word. */
  static long cellOnes(int g) {
    long ones = 0;
    for (int c = 0; c < 64; c += g) {
      ones |= 1L << c;
    }
    return ones;
  }

  /** A generation mask repeated in every cell of a word. */
  long spread(long generations) {
    return g == 64 ? generations : generations * cellOnes;
  }

  // ---------------------------------------------------------------- probes

  /** The cells of (h1, h2)'s k probes ANDed: bit g set iff generation g has all k bits. Loads every probe. */
  long allCells(long h1, long h2) {
    long all = allGenerations;
    for (Probes.Cursor c = new Probes.Cursor(h1, h2, cells, hashFunctions); c.hasNext(); ) {
      long cell = c.next();
      long word = AtomicWords.getAcquire(words, (int) (cell >>> cellShift));
      all &= word >>> ((cell & cellsPerWordMask) << log2G);
    }
    return all & allGenerations;
  }

  void setBits(long h1, long h2, int p) {
    for (Probes.Cursor c = new Probes.Cursor(h1, h2, cells, hashFunctions); c.hasNext(); ) {
      long cell = c.next();
      AtomicWords.orWordCas(words, (int) (cell >>> cellShift), 1L << (((cell & cellsPerWordMask) << log2G) + p));
    }
  }

  /** True iff some generation in {@code valid} has all k bits of (h1, h2); stops at the first probe that rules all out. */
  boolean anyHas(long h1, long h2, long valid) {
    long all = valid;
    long m = cells;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    for (int i = 1; ; i++) {
      long word = AtomicWords.getAcquire(words, (int) (x >>> cellShift));
      all &= word >>> ((x & cellsPerWordMask) << log2G);
      if ((all & valid) == 0) {
        return false;
      }
      if (i == hashFunctions) {
        return true;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  // ---------------------------------------------------------------- scans

  /** Set bits per generation, each counted in the generations in {@code valid} (0 for the others). */
  long[] setBitsPerGeneration(long valid) {
    return Arrays.copyOf(setBitsAndUnion(valid), g);
  }

  /**
   * Set bits per generation in {@code valid} (index p < G, 0 for the others) and, at index G, the cells set
   * in any of them: the set bits of their OR. One pass over the words.
   */
  long[] setBitsAndUnion(long valid) {
    long[] set = new long[g + 1];
    long union = 0;
    for (int w = 0; w < words.length; w++) {
      long v = AtomicWords.getAcquire(words, w) & spread(valid);
      if (v == 0) {
        continue;
      }
      for (int p = 0; p < g; p++) {
        set[p] += Long.bitCount(v & (cellOnes << p));
      }
      // Fold each G-bit cell onto its lowest bit: after shifts 1, 2, .., G/2 that bit is the OR of the
      // cell's G bits (the bits shifted in from the next cell land above it and are masked away).
      long any = v;
      for (int shift = 1; shift < g; shift <<= 1) {
        any |= any >>> shift;
      }
      union += Long.bitCount(any & cellOnes);
    }
    set[g] = union;
    return set;
  }

  /** The words with the generations outside {@code valid} cleared: what a snapshot at that moment holds. */
  long[] wordsOf(long valid) {
    long keep = spread(valid);
    long[] copy = new long[words.length];
    for (int w = 0; w < words.length; w++) {
      copy[w] = AtomicWords.getAcquire(words, w) & keep;
    }
    return copy;
  }
}
