package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The lock that keeps a shared guard's rebuilds, on all instances, one at a time: the key {G}:lock set
 * with {@code SET NX PX} to a random token, so it expires by itself if its holder dies; renewed while
 * the holder scans; released by a compare-and-delete script, so a holder whose lease ran out never
 * deletes a successor's lock.
 *
 * <p>The lock saves work (two overlapping rebuilds would each scan the source and replace each other's
 * pending generation); the guard's correctness does not depend on it (RedisGuardFilters explains why).
 * One rebuild uses one lock, from the guard's build thread only.
 */
final class RebuildLock {
  private static final long FIRST_POLL_MILLIS = 5;
  private static final long MAX_POLL_MILLIS = 200;

  private final RedisClientAdapter redis;
  private final ScriptCalls calls;
  private final byte[] key;
  private final long leaseMillis;
  private final Duration wait;
  private final String guard;
  final byte[] token = ascii(UUID.randomUUID().toString());
  private long renewedAtNanos;

  RebuildLock(RedisClientAdapter redis, ScriptCalls calls, GuardKeys keys, Duration lease, Duration wait) {
    this.redis = redis;
    this.calls = calls;
    this.key = keys.lock;
    this.leaseMillis = lease.toMillis();
    this.wait = wait;
    this.guard = keys.name;
  }

  /**
   * Takes the lock, polling (5 ms, doubling to 200 ms) while another rebuild holds it, for up to the
   * configured wait.
   *
   * @throws RedisFilterException if it is still held after the wait, or Redis fails
   * @throws InterruptedException if interrupted while waiting (the guard is closing)
   */
  void acquire() throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    long poll = FIRST_POLL_MILLIS;
    while (true) {
      boolean taken = ScriptCalls.command("take the rebuild lock of guard " + guard,
          () -> redis.setIfAbsent(key, token, leaseMillis));
      if (taken) {
        renewedAtNanos = System.nanoTime();
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new RedisFilterException("the rebuild lock of guard " + guard + " is held by another instance's"
            + " rebuild for longer than the wait of " + wait + "; retrying later");
      }
      Thread.sleep(poll); // a remote lock has no wake-up call; polling with backoff is the usual way
      poll = Math.min(MAX_POLL_MILLIS, poll * 2);
    }
  }

  /** True if a third of the lease has passed since the lock was taken or last renewed. */
  boolean dueForRenewal() {
    return System.nanoTime() - renewedAtNanos > leaseMillis * 1_000_000L / 3;
  }

  /**
   * Extends the lease by its full length.
   *
   * @throws RedisFilterException if the lease had expired (another rebuild may hold the lock), or Redis fails
   */
  void renew() {
    Object reply = calls.eval(Script.LOCK_RENEW, List.of(key), List.of(token, ascii(leaseMillis)),
        "renew the rebuild lock of guard " + guard);
    if ((Long) reply != 1L) {
      throw new RedisFilterException("guard " + guard + " lost its rebuild lock: the lease of " + leaseMillis
          + " ms expired during the scan (another instance may be rebuilding); raise lockLease");
    }
    renewedAtNanos = System.nanoTime();
  }

  /** Releases the lock if this rebuild still holds it. @throws RedisFilterException if Redis fails */
  void release() {
    calls.eval(Script.LOCK_RELEASE, List.of(key), List.of(token), "release the rebuild lock of guard " + guard);
  }
}
