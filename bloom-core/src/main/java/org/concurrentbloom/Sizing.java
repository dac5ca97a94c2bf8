package org.concurrentbloom;

/**
 * The formulas that turn (n, p) into a filter shape, and the limits every shape must respect.
 *
 * <p>Standard filter (Bloom 1970; see e.g. Broder and Mitzenmacher, "Network Applications of Bloom
 * Filters", 2004): the optimum is m_opt = -n ln p / (ln 2)^2 bits and k* = (m_opt/n) ln 2 = -log2 p hash
 * functions. Rounding: m = ceil(m_opt) rounded up to a whole number of 64-bit words (the extra bits are
 * free, the words being allocated anyway, and only lower the FPR); k = max(1, round(m_opt/n ln 2)),
 * computed from the unrounded m_opt.
 */
final class Sizing {
  /** The most words a Java array reliably holds (a few header words below Integer.MAX_VALUE). */
  static final int MAX_WORDS = Integer.MAX_VALUE - 8;
  /** The largest bit count a filter may have: MAX_WORDS 64-bit words, about 128 Gibit (16 GiB). */
  static final long MAX_BITS = 64L * MAX_WORDS;
  /** The most hash functions: p = Double.MIN_VALUE needs 1075; more is a corrupt or hostile input. */
  static final int MAX_HASH_FUNCTIONS = 2048;

  private static final double LN2 = Math.log(2);
  private static final double LN2_SQUARED = LN2 * LN2;

  private Sizing() {}

  static void checkExpectedInsertions(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("expectedInsertions must be >= 1, was " + n);
    }
  }

  static void checkFpp(double p) {
    if (!(p > 0.0 && p < 1.0)) { // also rejects NaN
      throw new IllegalArgumentException("fpp must be in the open interval (0, 1), was " + p);
    }
  }

  /** The unrounded optimum m_opt for n and p. */
  static double optimalBitsExact(long n, double p) {
    return -n * Math.log(p) / LN2_SQUARED;
  }

  /**
   * The one rule for degenerate sizes, applied by every layout (standard, blocked, Guava-compatible,
   * counting, and each scalable layer): when the optimum m_opt = -n ln p / (ln 2)^2 is below one bit,
   * the (n, p) pair is refused. Guava refuses exactly these pairs (its bit count rounds down to 0), and
   * a filter that small would answer "might contain" for nearly every key; rounding it up to a word
   * would hand back a filter whose rate nobody asked for (at n = 480, p = 0.999 a 64-bit filter
   * already misses p). Checks n and p first.
   *
   * @throws IllegalArgumentException naming n, p and m_opt when m_opt &lt; 1
   */
  static double checkedOptimalBitsExact(long n, double p) {
    checkExpectedInsertions(n);
    checkFpp(p);
    double exact = optimalBitsExact(n, p);
    if (exact < 1) {
      throw new IllegalArgumentException(String.format(
          "expectedInsertions=%d at fpp=%s gives -n ln p / (ln 2)^2 = %.4g bits, less than one bit: such a filter"
              + " would answer \"might contain\" for almost every key; lower fpp or raise expectedInsertions",
          n, p, exact));
    }
    return exact;
  }

  /** m for n and p, rounded as the class comment says; fails if it exceeds {@link #MAX_BITS}. */
  static long optimalBits(long n, double p) {
    double exact = checkedOptimalBitsExact(n, p);
    if (!(exact <= MAX_BITS - 63)) {
      throw new IllegalArgumentException(String.format(
          "expectedInsertions=%d at fpp=%s needs %.4g bits, past the limit of %d bits (%d words of a long[])",
          n, p, exact, MAX_BITS, MAX_WORDS));
    }
    long bits = (long) Math.ceil(exact);
    return Math.max(64, (bits + 63) & ~63L);
  }

  /** k for n and p, rounded as the class comment says. */
  static int optimalHashFunctions(long n, double p) {
    double k = optimalBitsExact(n, p) / n * LN2;
    return (int) Math.max(1, Math.min(MAX_HASH_FUNCTIONS, Math.round(k)));
  }

  /** Checks a shape from any source; the message names the bad value and the limit. */
  static void checkShape(long bits, int hashFunctions) {
    if (bits < 1 || bits > MAX_BITS) {
      throw new IllegalArgumentException("bit count must be in [1, " + MAX_BITS + "], was " + bits);
    }
    if (hashFunctions < 1 || hashFunctions > MAX_HASH_FUNCTIONS) {
      throw new IllegalArgumentException(
          "hash function count must be in [1, " + MAX_HASH_FUNCTIONS + "], was " + hashFunctions);
    }
  }

  static int wordsFor(long bits) {
    return (int) ((bits + 63) >>> 6);
  }

  /** (1 - e^(-k n / m))^k: the expected FPR after n distinct insertions. */
  static double expectedFpp(long bits, int k, double n) {
    return Math.pow(-Math.expm1(-k * n / bits), k);
  }

  // ------------------------------------------------------------------ blocked layout

  /** Hash function counts tried when sizing a blocked filter. */
  static final int MAX_BLOCKED_HASH_FUNCTIONS = 64;

  /**
   * The expected FPR of a blocked filter with {@code blocks} 512-bit blocks and k probes per item after
   * n insertions (Putze, Sanders and Singler 2007): a block receives i items with Poisson probability
   * for lambda = n / blocks, and then answers a foreign probe falsely with (1 - (1 - 1/512)^(k i))^k.
   */
  static double blockedFpp(long blocks, int k, double n) {
    double lambda = n / blocks;
    if (lambda == 0) {
      return 0;
    }
    // The Poisson mass lies within 12 standard deviations of lambda (terms beyond are below e^-70),
    // so sum only there: the cost stays O(sqrt(lambda)) however overloaded the filter.
    double spread = 12 * Math.sqrt(lambda) + 24;
    long first = (long) Math.max(0, Math.floor(lambda - spread));
    long last = (long) Math.ceil(lambda + spread);
    double logLambda = Math.log(lambda);
    double logMiss = Math.log1p(-1.0 / BlockedLayout.BLOCK_BITS) * k; // ln((1 - 1/512)^k)
    if (logMiss * first < -40) {
      return 1.0; // even the emptiest likely block has all but e^-40 of its bits set
    }
    double logPoisson = first * logLambda - lambda - logFactorial(first);
    double sum = 0;
    for (long i = first; i <= last; i++) {
      if (i > first) {
        logPoisson += logLambda - Math.log(i);
      }
      if (logPoisson > -70) {
        double perItem = -Math.expm1(logMiss * i); // 1 - (1 - 1/512)^(k i)
        sum += Math.exp(logPoisson + k * Math.log(perItem));
      }
    }
    return Math.min(1.0, sum);
  }

  /** ln(x!): exact below 16, Stirling's series with three correction terms above (error below 1e-12). */
  static double logFactorial(long x) {
    if (x < 16) {
      double sum = 0;
      for (long i = 2; i <= x; i++) {
        sum += Math.log(i);
      }
      return sum;
    }
    double d = x;
    return d * Math.log(d) - d + 0.5 * Math.log(2 * Math.PI * d) + 1 / (12 * d) - 1 / (360 * d * d * d)
        + 1 / (1260 * d * d * d * d * d);
  }

  // ------------------------------------------------------------------ word-pair layout

  /** The most bits an item may have in the word-pair layout: ten 6-bit fields of its 64-bit h2. */
  static final int MAX_WORD_PAIR_HASH_FUNCTIONS = 10;

  /**
   * The expected FPR of a word-pair filter ({@link WordPairLayout}) with {@code blocks} 512-bit blocks
   * and k bits per item, c1 = ceil(k/2) in a word of the block's first half and c2 = floor(k/2) in one of
   * its second half, after n insertions. Exact for uniform hashes, with no independence approximation:
   * <ul>
   *   <li>The block holds j items with Poisson probability for lambda = n / blocks. Each picks the
   *       probed word of a half with probability 1/4, independently in the two halves, so given j the two
   *       probed words hold h ~ Binomial(j, 1/4) items each, independently.
   *   <li>A word holding h items has received N = c h uniform 6-bit draws. The query's c draws name d
   *       distinct bits (P_c(d), by counting), and d given bits are all set with probability
   *       sum_i (-1)^i C(d, i) (1 - i/64)^N (inclusion-exclusion over the bits left clear).
   *   <li>Averaging (1 - i/64)^(c h) over h ~ Binomial(j, 1/4) gives x_i^j with x_i = 3/4 + (1 - i/64)^c / 4.
   * </ul>
   * So a word answers "all set" with f_c(j) = sum_i a_i x_i^j, a_i = (-1)^i sum_d P_c(d) C(d, i), and
   * FPR = sum_j Poisson(j) f_c1(j) f_c2(j). (Unlike {@link #blockedFpp}'s (1 - (1 - 1/512)^(k i))^k,
   * this counts a query whose draws repeat a bit, about 5% of queries for c = 3, which the usual
   * approximation would price as if they tested c distinct bits.)
   */
  static double wordPairFpp(long blocks, int k, double n) {
    double lambda = n / blocks;
    if (lambda == 0) {
      return 0;
    }
    double spread = 12 * Math.sqrt(lambda) + 24;
    long first = (long) Math.max(0, Math.floor(lambda - spread));
    long last = (long) Math.ceil(lambda + spread);
    double logLambda = Math.log(lambda);
    double logPoisson = first * logLambda - lambda - logFactorial(first);
    WordTerms a = new WordTerms((k + 1) / 2, first);
    WordTerms b = new WordTerms(k / 2, first);
    double sum = 0;
    for (long j = first; j <= last; j++) {
      if (j > first) {
        logPoisson += logLambda - Math.log(j);
        a.step();
        b.step();
      }
      if (logPoisson > -70) {
        sum += Math.exp(logPoisson) * Math.max(0, a.allSet()) * Math.max(0, b.allSet());
      }
    }
    return Math.min(1.0, sum);
  }

  /** f_c(j) of {@link #wordPairFpp} for j = first, first + 1, ...: the terms a_i x_i^j. One thread. */
  private static final class WordTerms {
    private final double[] coefficients;
    private final double[] bases;
    /** x_i^j for the current j. */
    private final double[] powers;

    WordTerms(int c, long first) {
      double[] distinct = new double[c + 1]; // P_c(d): distinct values among c uniform draws of 64
      distinct[0] = 1;
      for (int draw = 0; draw < c; draw++) {
        double[] next = new double[c + 1];
        for (int d = 0; d <= draw; d++) {
          next[d] += distinct[d] * d / 64;
          next[d + 1] += distinct[d] * (64 - d) / 64;
        }
        distinct = next;
      }
      coefficients = new double[c + 1];
      bases = new double[c + 1];
      powers = new double[c + 1];
      for (int i = 0; i <= c; i++) {
        double s = 0;
        for (int d = i; d <= c; d++) {
          s += distinct[d] * binomial(d, i);
        }
        coefficients[i] = i % 2 == 0 ? s : -s;
        bases[i] = 0.75 + Math.pow(1 - i / 64.0, c) / 4;
        powers[i] = Math.pow(bases[i], first);
      }
    }

    void step() {
      for (int i = 0; i < powers.length; i++) {
        powers[i] *= bases[i];
      }
    }

    /** f_c(j): 1 for c = 0 (a single-bit item tests no bit in the second word). */
    double allSet() {
      double sum = 0;
      for (int i = 0; i < powers.length; i++) {
        sum += coefficients[i] * powers[i];
      }
      return sum;
    }

    private static double binomial(int d, int i) {
      double r = 1;
      for (int t = 0; t < i; t++) {
        r = r * (d - t) / (t + 1);
      }
      return r;
    }
  }

  /** The smallest word-pair shape {bits, k} whose model FPR at n items is at most p, as {@link #blockedShape}. */
  static long[] wordPairShape(long n, double p) {
    return smallestBlockShape(n, p, "word-pair", Sizing::wordPairFpp, MAX_WORD_PAIR_HASH_FUNCTIONS);
  }

  /** A model FPR of a block layout: blocks, k, n. */
  interface BlockModel {
    double fpp(long blocks, int k, double n);
  }

  /** The k up to {@code maxK} that minimises the model FPR for this many blocks and items, and that FPR. */
  private static double[] bestK(BlockModel model, int maxK, long blocks, long n) {
    int bestK = 1;
    double best = model.fpp(blocks, 1, n);
    for (int k = 2; k <= maxK; k++) {
      double fpp = model.fpp(blocks, k, n);
      if (fpp < best) {
        best = fpp;
        bestK = k;
      } else if (k > bestK + 2) {
        break; // the FPR is unimodal in k: past the minimum it only grows
      }
    }
    return new double[] {bestK, best};
  }

  /**
   * The smallest blocked shape {bits, k} whose model FPR at n items is at most p: a binary search over
   * the block count, each step with its best k.
   */
  static long[] blockedShape(long n, double p) {
    return smallestBlockShape(n, p, "blocked", Sizing::blockedFpp, MAX_BLOCKED_HASH_FUNCTIONS);
  }

  private static long[] smallestBlockShape(long n, double p, String name, BlockModel model, int maxK) {
    checkedOptimalBitsExact(n, p);
    long maxBlocks = MAX_BITS / BlockedLayout.BLOCK_BITS;
    if (bestK(model, maxK, maxBlocks, n)[1] > p) {
      throw new IllegalArgumentException(String.format(
          "expectedInsertions=%d at fpp=%s needs a %s filter past the limit of %d bits (%d words of a long[])",
          n, p, name, MAX_BITS, MAX_WORDS));
    }
    long lo = 1; // invariant: every count below lo fails, hi succeeds
    long hi = maxBlocks;
    long start = Math.max(1, Math.min(maxBlocks, (long) (optimalBitsExact(n, p) / BlockedLayout.BLOCK_BITS)));
    if (bestK(model, maxK, start, n)[1] <= p) {
      hi = start; // a block layout never needs fewer bits than the standard one
    } else {
      lo = start + 1;
    }
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      if (bestK(model, maxK, mid, n)[1] <= p) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return new long[] {hi * BlockedLayout.BLOCK_BITS, (long) bestK(model, maxK, hi, n)[0]};
  }

  /**
   * Guava 33.4+'s sizing (checked against Guava 33.5.0 over its whole test grid, GuavaSizingGridTest), so
   * that a Guava-compatible filter matches what Guava's {@code BloomFilter.create} builds for the same n
   * and p: m = floor(-n ln p / (ln 2)^2) rounded up to whole words, k = max(1, round(-ln p / ln 2)).
   * k depends on p alone since Guava 33.4.0; up to 33.3.x it was round(floor(m) / n ln 2), which differs
   * at about a thousand points of that grid. Returns {bits, k}.
   *
   * @throws IllegalArgumentException if m_opt is below one bit ({@link #checkedOptimalBitsExact}), k is
   *     above 255 (Guava's format keeps k in one byte; Guava refuses too), or m is past {@link #MAX_BITS};
   *     the message names the value
   */
  static long[] guavaShape(long n, double p) {
    double exact = checkedOptimalBitsExact(n, p);
    // Evaluated exactly as Guava does (-ln p / ln 2, then round), so that no last-bit difference in the
    // floating point can move a rounding boundary.
    long k = Math.max(1, Math.round(-Math.log(p) / LN2));
    if (k > GuavaLayout.MAX_HASH_FUNCTIONS) {
      throw new IllegalArgumentException(String.format(
          "fpp=%s needs k = round(-log2 p) = %d hash functions; a Guava-compatible filter holds at most %d"
              + " (Guava's format stores k in one byte); use fpp > 2^-255.5 (about 1.22e-77)",
          p, k, GuavaLayout.MAX_HASH_FUNCTIONS));
    }
    if (!(exact <= MAX_BITS - 63)) {
      throw new IllegalArgumentException(String.format(
          "expectedInsertions=%d at fpp=%s needs %.4g bits, past the limit of %d bits", n, p, exact, MAX_BITS));
    }
    long floorBits = (long) exact;
    return new long[] {(floorBits + 63) & ~63L, k};
  }

  /** Swamidass and Baldi (2007): n ~ -(m/k) ln(1 - X/m) for X set bits; saturates at Long.MAX_VALUE. */
  static long estimateElements(long bits, int k, long setBits) {
    if (setBits >= bits) {
      return Long.MAX_VALUE;
    }
    double n = impliedItems(bits, k, setBits);
    return n >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(n);
  }

  /** The number of distinct items that X of m cells set imply, -(m/k) ln(1 - X/m), for X < m. */
  private static double impliedItems(long cells, int k, long set) {
    return -((double) cells / k) * Math.log1p(-(double) set / cells);
  }

  /**
   * The false-positive rate implied by {@code set} of {@code cells} cells being set: {@code model} at the
   * number of distinct items those cells imply, -(m/k) ln(1 - X/m) (Swamidass and Baldi 2007); 1.0 when
   * every cell is set.
   */
  static double fppFromSetCells(long cells, int k, long set, java.util.function.DoubleUnaryOperator model) {
    if (set >= cells) {
      return 1.0;
    }
    return model.applyAsDouble(impliedItems(cells, k, set));
  }
}
