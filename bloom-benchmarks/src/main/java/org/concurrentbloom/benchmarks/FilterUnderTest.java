package org.concurrentbloom.benchmarks;

/**
 * One library's Bloom filter behind the same three calls, so that one benchmark method measures them
 * all. Each JMH fork runs a single implementation, so the call through this interface is monomorphic
 * and the JIT inlines it: the adapter costs the same nothing for every library.
 */
interface FilterUnderTest {
  /** Adds {@code key}, a String or a Long as the filter's {@link KeyType} says. */
  boolean add(Object key);

  boolean mightContain(Object key);

  /** Adds keys {@code from .. to-1} of {@code type}, with the library's fastest bulk path. Set-up only. */
  void fill(KeyType type, long from, long to);

  /** Empties the filter (or swaps in an empty one of the same shape where the library has no clear). */
  void reset();
}
