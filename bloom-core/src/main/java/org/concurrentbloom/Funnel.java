package org.concurrentbloom;

/**
 * Describes how an item of type {@code T} is turned into bytes for hashing.
 *
 * <p>A funnel must be deterministic (the same item always writes the same bytes) and stateless, because
 * many threads call it at once. Items that should be treated as equal must write equal bytes.
 *
 * @param <T> the item type
 */
@FunctionalInterface
public interface Funnel<T> {

  /** Writes the bytes that identify {@code from} into {@code into}. */
  void funnel(T from, Sink into);
}
