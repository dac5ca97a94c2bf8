package org.concurrentbloom.guard;

import java.util.Optional;
import java.util.OptionalLong;
import org.concurrentbloom.BloomFilter;

/**
 * The filters of one {@link MembershipGuard}: the live filter that answers checks and, while a rebuild
 * runs, the pending filter it fills. A {@link GuardBackend} makes them; the guard alone calls them. The
 * default keeps both in this JVM; bloom-redis's {@code RedisGuardBackend} keeps them in Redis, where
 * every instance of a service shares them.
 *
 * <h2>The contract the guard's guarantee rests on</h2>
 * A rebuild {@linkplain Rebuild#begin registers} a new pending filter, then the guard scans the source
 * into it, then {@linkplain Candidate#publish publishes} it. An implementation must make these hold, in
 * one total order of the operations of every thread (and, for a shared backend, every process):
 * <ol>
 *   <li>{@link #add} puts the key into the live filter and into the pending one, if any, at one point of
 *       that order (or the pending one first, then the live one);
 *   <li>{@link Rebuild#begin} registers its filter as pending before it returns, and it stays pending
 *       until its own {@code publish}, which makes it live and unregisters it at one point (or makes it
 *       live first, then unregisters it); a registration that replaces a pending filter makes that one
 *       unpublishable;
 *   <li>{@link #mightContain} answers from the filter live at one point of the order, never from one
 *       already replaced.
 * </ol>
 * Then an {@code add(k)} that returned is in every filter published later: a filter registered before
 * the add took effect received k; one registered after it is filled by a scan that starts after
 * {@code begin} returned, hence after k's insert committed (the guard's caller records only committed
 * inserts), so the scan sees k. docs/GUARD.md gives the full argument.
 *
 * <p>Failures: any method may throw a {@link RuntimeException} when the backend cannot answer (a
 * network store that is down). The guard turns a failed check into "maybe", a failed {@code add} into
 * distrust of every answer until a rebuild that started after the failure is live (or until the guard
 * adopts another instance's live filter and has added the failed key to it again with {@link #add}),
 * and a failed build into a retry; it never turns a failure into "absent".
 *
 * <p>Threads: {@link #mightContain}, {@link #add}, {@link #countDelete}, {@link #live} and
 * {@link #image} from any thread; {@link #rebuild} and everything it returns from the guard's build
 * thread only, one rebuild at a time; {@link #close} once, after the build thread stopped.
 *
 * @param <K> the type of key
 */
public interface GuardFilters<K> extends AutoCloseable {

  /**
   * Figures of the live filter.
   *
   * @param capacity the number of keys it was sized for
   * @param keys the keys it holds: rows its scan found plus inserts recorded into it (may err high)
   * @param deletes deletes counted since its scan began
   */
  record Live(long capacity, long keys, long deletes) {}

  /**
   * The live filter's bits, as a local filter, and the source's watermark its scan reached.
   *
   * @param <K> the type of key
   * @param filter the bits; the guard only reads it
   * @param watermark the largest watermark its scan (or its snapshot and catch-up) saw, if any
   */
  record Image<K>(BloomFilter<K> filter, OptionalLong watermark) {}

  /**
   * Returns false if {@code key} is definitely not in the live filter; true if it might be, and true
   * while no filter is live.
   */
  boolean mightContain(K key);

  /**
   * Adds {@code key} to the pending filter, if any, and to the live one (see the class comment). Returns
   * true if this call is the first to take the live filter past its capacity (so the guard asks once
   * for a larger one); false otherwise, and while no filter is live.
   */
  boolean add(K key);

  /**
   * Counts one deleted key against the live filter (and the pending one). Returns true if this call is
   * the first to reach the guard's delete threshold for the live filter ({@link GuardSpec}).
   */
  boolean countDelete();

  /** The live filter's figures, or empty if none is live. */
  Optional<Live> live();

  /** The live filter's bits and watermark, for a snapshot, or empty if none is live. */
  Optional<Image<K>> image();

  /**
   * Why this backend cannot take {@code loaded}, a snapshot's filter, as a {@link Rebuild#begin(BloomFilter,
   * OptionalLong)}, or null if it can. The guard then ignores the snapshot and scans the source. The
   * default takes any filter; a backend that hashes on its own (Redis) refuses another hash strategy.
   */
  default String refusal(BloomFilter<K> loaded) {
    return null;
  }

  /**
   * Starts a rebuild. A shared backend first waits for, and takes, a lock that keeps rebuilds of all
   * instances one at a time. The caller closes the result.
   *
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  Rebuild<K> rebuild() throws InterruptedException;

  /** The guard stopped: later checks are not made. A shared backend leaves the shared filters alone. */
  @Override
  void close();

  /**
   * One rebuild: registers at most one new filter as pending. Closing it abandons a filter that was
   * not published and, in a shared backend, releases the rebuild lock.
   *
   * @param <K> the type of key
   */
  interface Rebuild<K> extends AutoCloseable {

    /** Registers a new, empty filter sized for {@code capacity} keys as pending. */
    Candidate<K> begin(long capacity);

    /**
     * Registers a copy of {@code loaded} (a snapshot's filter, complete up to {@code watermark}) as
     * pending. Its key count starts at the filter's count; the catch-up's adds count only new keys.
     */
    Candidate<K> begin(BloomFilter<K> loaded, OptionalLong watermark);

    @Override
    void close();
  }

  /**
   * A registered pending filter being filled by a scan.
   *
   * @param <K> the type of key
   */
  interface Candidate<K> {

    /** Adds a key the scan found. */
    void add(K key);

    /**
     * Makes this filter live, replacing the live one, and records the scan's row count (for a filter
     * begun empty) and watermark. Returns true if it already holds more keys than its capacity.
     *
     * @throws RuntimeException if it can no longer be published (a shared backend: another rebuild
     *     replaced it); the live filter is then unchanged
     */
    boolean publish(ScanResult scan);
  }
}
