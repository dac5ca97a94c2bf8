package org.concurrentbloom.guard;

import java.util.function.Consumer;

/**
 * The source of truth a {@link MembershipGuard} mirrors: it can stream every key it holds, and
 * optionally only the keys added after a watermark (a monotonically increasing id or timestamp).
 *
 * <p>The guard calls these methods from its single rebuild thread, one call at a time, and never
 * concurrently with each other. A scan must see every key whose insert was committed (and reported to
 * {@link MembershipGuard#recordInsert}) before the scan method was called: read the primary database,
 * not a lagging replica, and start the query inside the call (not from a result prepared earlier). The
 * guard's no-false-negative guarantee rests on exactly that; docs/GUARD.md explains why.
 *
 * <p>A scan that fails must throw. Keys already handed to the sink are then discarded with the
 * half-built filter, so a scan can fail at any point without harm.
 *
 * @param <K> the type of key
 */
public interface KeySource<K> {

  /**
   * Passes every key of the source to {@code sink}, in any order (duplicates are harmless). Returns the
   * number of keys passed and, if {@link #supportsWatermark()}, the largest watermark seen.
   *
   * @throws Exception if the source cannot be read; the guard keeps its current filter and retries
   */
  ScanResult scanAll(Consumer<? super K> sink) throws Exception;

  /**
   * True if {@link #scanAfter} is supported: the source has a monotonically increasing column that lets
   * a snapshot be caught up instead of rebuilt. False by default.
   */
  default boolean supportsWatermark() {
    return false;
  }

  /**
   * Passes every key whose watermark is greater than {@code watermark} to {@code sink} (a source may pass
   * more, such as an overlap to cover transactions that commit out of watermark order). Returns the
   * number of keys passed and the largest watermark seen.
   *
   * @throws UnsupportedOperationException if {@link #supportsWatermark()} is false (the default)
   * @throws Exception if the source cannot be read
   */
  default ScanResult scanAfter(long watermark, Consumer<? super K> sink) throws Exception {
    throw new UnsupportedOperationException(this + " has no watermark column");
  }
}
