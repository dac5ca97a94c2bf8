package org.concurrentbloom.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;

/**
 * The items of a batch, checked whole before anything of it is sent, so that a bad item leaves Redis
 * untouched rather than half the batch written. Stateless; any thread (the caller's iterable is read on
 * the caller's thread).
 */
final class ItemBatches {
  private ItemBatches() {}

  /** The items as a list, every one checked: validated whole before the first chunk is sent. */
  static <T> List<T> checked(Iterable<? extends T> items) {
    Objects.requireNonNull(items, "items");
    List<T> list = new ArrayList<>();
    for (T item : items) {
      if (item == null) {
        throw new NullPointerException("items[" + list.size() + "] is null; nothing of the batch was sent");
      }
      list.add(item);
    }
    return list;
  }

  /**
   * The keys boxed, as the items of a filter whose funnel is the long funnel: a {@code long[]} batch
   * spares the caller the boxing, and only that funnel reads a Long the way the batch means it.
   *
   * @throws IllegalStateException if {@code funnel} is not {@link Funnels#longFunnel()}
   */
  @SuppressWarnings("unchecked")
  static <T> List<T> longKeys(Funnel<?> funnel, long[] keys) {
    Objects.requireNonNull(keys, "keys");
    if (funnel != Funnels.longFunnel()) {
      throw new IllegalStateException("long[] batches need a filter built with Funnels.longFunnel(), not " + funnel);
    }
    List<T> boxed = new ArrayList<>(keys.length);
    for (long key : keys) {
      boxed.add((T) Long.valueOf(key));
    }
    return boxed;
  }
}
