package org.concurrentbloom.benchmarks.strategies;

/**
 * A standard Bloom filter over pre-computed hashes, made safe for concurrent use by some strategy.
 * Every implementation sets and tests exactly the same bits for the same (h1, h2) (see {@link Probes}),
 * so they differ only in how they make concurrent adds and queries safe.
 *
 * <p>The guarantee each must keep: a {@code mightContain} that starts after an {@code add} of the same
 * hashes has returned answers true, whatever other threads do meanwhile.
 */
public interface ConcurrentBits {
  /** Sets the k bits of (h1, h2); true iff at least one of them was clear. */
  boolean add(long h1, long h2);

  /** True iff all k bits of (h1, h2) are set. */
  boolean mightContain(long h1, long h2);
}
