package org.concurrentbloom;

import java.io.IOException;
import java.io.OutputStream;

/**
 * What every filter of this library offers, whatever its layout or backend: the standard
 * {@link BloomFilter}, the counting and scalable variants, and filters kept elsewhere (Redis). Code that
 * only adds, asks and reports can take this type and be handed any of them.
 *
 * <p>Every implementation is thread-safe: any method may be called from any thread at any time, and
 * {@link #mightContain} never returns false for an item whose {@link #add} finished before the query
 * began. The statistics are estimates unless their Javadoc says otherwise.
 *
 * @param <T> the type of item
 */
public interface MembershipFilter<T> {

  /**
   * Adds {@code item}. Returns true iff the filter's answer for the item may have changed: it was
   * definitely absent before this call (up to concurrent adds of the same item).
   *
   * @throws NullPointerException if {@code item} is null
   */
  boolean add(T item);

  /**
   * Returns false if {@code item} was definitely never added (or was removed, for filters that support
   * removal); true if it might have been.
   *
   * @throws NullPointerException if {@code item} is null
   */
  boolean mightContain(T item);

  /**
   * The number of {@link #add} calls that returned true. A filter that supports removal also subtracts
   * the removals after which the item was definitely absent (see its Javadoc). Under concurrent adds of
   * one item, an estimate.
   */
  long count();

  /** The fraction of cells (bits or counters) that are set, in [0, 1]. */
  double fillRatio();

  /**
   * An estimate of the current false-positive probability, read off the cells that are set, so that it
   * stays right after merges, loads and past capacity (where {@link #count()} falls behind). May scan
   * the whole filter.
   */
  double estimatedFpp();

  /** An estimate of the number of distinct items present; {@code Long.MAX_VALUE} when saturated. */
  long approximateElementCount();

  /** Bits of storage the filter's cells take (for a counting filter, 4 per counter). */
  long bitSize();

  /** The number of items the filter was sized for. */
  long expectedInsertions();

  /** The false-positive probability the filter was sized for. */
  double fpp();

  /** Removes every item; afterwards {@link #count()} is 0. */
  void clear();

  /**
   * Writes the filter in the format of docs/FORMAT.md. Does not close {@code out}.
   *
   * @throws IOException if {@code out} fails, or the filter has a hash strategy the format cannot hold
   *     (a {@link BloomFilter} read from Guava's {@code MURMUR128_MITZ_32} bytes)
   * @throws UnsupportedOperationException if this filter has no form in the file format: a
   *     {@code RedisBloomFilter} of more than one partition (see its {@code partitions()})
   */
  void writeTo(OutputStream out) throws IOException;
}
