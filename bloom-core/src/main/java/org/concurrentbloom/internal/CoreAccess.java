package org.concurrentbloom.internal;

import java.lang.invoke.MethodHandles;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.HashStrategy;

/**
 * <b>Internal.</b> The core's package-private operations that {@link BitIndexer} and {@link FilterWords}
 * need, reached without making them public in {@code org.concurrentbloom}. The core installs its one
 * implementation when {@link BloomFilter} is initialized (the pattern of the JDK's shared secrets), so
 * the API package stays the API. Thread-safe: the instance is installed once and immutable.
 */
public abstract class CoreAccess {
  private static volatile CoreAccess installed;

  /** For the core's implementation only. */
  protected CoreAccess() {}

  /**
   * Installs the core's implementation; called once, by the core.
   *
   * @throws IllegalStateException if one is already installed
   */
  public static synchronized void install(CoreAccess access) {
    if (installed != null) {
      throw new IllegalStateException("CoreAccess is installed by the core, once");
    }
    installed = access;
  }

  static CoreAccess get() {
    CoreAccess a = installed;
    if (a == null) {
      try {
        MethodHandles.lookup().ensureInitialized(BloomFilter.class); // its initializer installs the access
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
      a = installed;
    }
    return a;
  }

  /**
   * Writes the item's (h1, h2) under {@code strategy} into {@code into[0..2)}: MurmurHash3 x64 128's
   * halves (strategies 1, 2), or XXH3-64 and its SplitMix64 finalizer (4, 5).
   */
  public abstract <T> void hash(T item, Funnel<? super T> funnel, HashStrategy strategy, long[] into);

  /** Writes the standard layout's k positions (strategies 1 and 4 share them) in [0, m) for (h1, h2) into {@code into[0..k)}. */
  public abstract void standardPositions(long h1, long h2, long m, int k, long[] into);

  /** {m, k} of a standard filter sized for n items at rate p, with the core's checks and messages. */
  public abstract long[] standardShape(long n, double p);

  /** Throws IllegalArgumentException, naming the value, if m or k is out of range. */
  public abstract void checkShape(long bits, int hashFunctions);

  /** (1 - e^(-k n / m))^k. */
  public abstract double expectedFpp(long bits, int hashFunctions, double n);

  /** -(m/k) ln(1 - X/m), or Long.MAX_VALUE when every bit is set. */
  public abstract long estimateElements(long bits, int hashFunctions, long setBits);

  /** A copy of the filter's current words, read with acquire semantics. */
  public abstract long[] copyWords(BloomFilter<?> filter);

  /**
   * A standard filter of {@code strategy} (1 or 4) over {@code words} (taken over), with the checks of
   * {@code readFrom}.
   */
  public abstract <T> BloomFilter<T> standardFilter(Funnel<? super T> funnel, HashStrategy strategy, long bits,
      int hashFunctions, long expectedInsertions, double fpp, long count, long[] words);
}
