package org.concurrentbloom.redis;

import java.time.Duration;
import java.util.Objects;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.guard.GuardBackend;
import org.concurrentbloom.guard.GuardFilters;
import org.concurrentbloom.guard.GuardSpec;
import org.concurrentbloom.guard.MembershipGuard;
import redis.clients.jedis.UnifiedJedis;

/**
 * Keeps a {@link MembershipGuard}'s filters in Redis, shared by every application instance whose guard
 * has the same name: an insert recorded on one instance is seen by the checks of all, from the moment
 * {@code recordInsert} returns, across rebuilds run by any of them.
 *
 * <pre>{@code
 * UnifiedJedis redis = RedisClient.builder().hostAndPort(host, port).clientConfig(config).build();
 * MembershipGuard<String> taken = MembershipGuard.builder(Funnels.stringFunnel(), keySource)
 *     .name("users.email").expectedInsertions(10_000_000).fpp(0.01)
 *     .backend(RedisGuardBackend.of(redis))                  // the shared mode
 *     .snapshotStore(new RedisSnapshotStore(redis, "users.email:snapshot"))  // optional
 *     .build();
 * }</pre>
 *
 * <p>The first instance to start builds the filter (from the snapshot, or a scan); the others adopt it.
 * Rebuilds (growth, deletes, schedule, {@code rebuildNow}) may start on any instance; a lock in Redis
 * runs them one at a time, and each builds a new generation while every instance's inserts go to both
 * the live and the new one, then switches all instances over in one atomic step (docs/REDIS.md,
 * "Shared guard", has the protocol and its proof). A check or an insert is one script call, one round
 * trip. If Redis fails, checks answer "maybe" and {@code recordInsert} throws
 * {@link RedisFilterException}; never is a failure turned into "absent".
 *
 * <p>All keys of the guard G carry the hash tag {G} and so live in one Redis Cluster slot: a shared
 * guard is limited to one master and to 2^32 bits per filter (about 450 million keys at 1%). Only the
 * standard layout is kept in Redis. Immutable; one instance may serve any number of guards.
 *
 * @param <K> the type of key
 */
public final class RedisGuardBackend<K> implements GuardBackend<K> {
  private final RedisClientAdapter redis;
  private final String keyName;
  private final Duration lockLease;
  private final Duration lockWait;
  private final boolean dualWrite;

  private RedisGuardBackend(Builder b) {
    this.redis = b.redis;
    this.keyName = b.keyName;
    this.lockLease = b.lockLease;
    this.lockWait = b.lockWait;
    this.dualWrite = b.dualWrite;
  }

  /**
   * The backend with the default settings: keys named after the guard, a 30 s lock lease, a 2 min wait
   * for the lock. {@code redis} is the caller's client (a {@code RedisClient} or
   * {@code RedisClusterClient}); it is never closed here.
   */
  public static <K> RedisGuardBackend<K> of(UnifiedJedis redis) {
    return builder(redis).build();
  }

  /** {@link #of(UnifiedJedis)} over any client: {@link RedisClientAdapter#jedis} or {@link LettuceAdapters#of}. */
  public static <K> RedisGuardBackend<K> of(RedisClientAdapter redis) {
    return builder(redis).build();
  }

  /** Starts describing a backend on {@code redis}, the caller's client. */
  public static Builder builder(UnifiedJedis redis) {
    return new Builder(RedisClientAdapter.jedis(redis));
  }

  /** Starts describing a backend over any client adapter (Jedis or Lettuce: they share the guard). */
  public static Builder builder(RedisClientAdapter redis) {
    return new Builder(redis);
  }

  /**
   * Opens the shared filters of the guard {@code spec} describes.
   *
   * @throws IllegalArgumentException if the guard uses the blocked layout, or its key name (the guard's
   *     name unless {@link Builder#keyName} set one) is unusable as a Redis hash tag
   */
  @Override
  public GuardFilters<K> open(GuardSpec<K> spec) {
    if (spec.layout() != FilterType.STANDARD) {
      throw new IllegalArgumentException("guard " + spec.name() + " uses the " + spec.layout().shortName()
          + " layout, which is not kept in Redis (its advantage, one cache line per key, means nothing across a"
          + " network); drop blocked()");
    }
    GuardKeys keys = new GuardKeys(keyName != null ? keyName : spec.name());
    return new RedisGuardFilters<>(redis, keys, spec, lockLease, lockWait, dualWrite);
  }

  @Override
  public String toString() {
    return "RedisGuardBackend[keyName=" + keyName + ", lockLease=" + lockLease + ", lockWait=" + lockWait + "]";
  }

  /** Describes a backend. Not thread-safe; the backend is. */
  public static final class Builder {
    private final RedisClientAdapter redis;
    private String keyName;
    private Duration lockLease = Duration.ofSeconds(30);
    private Duration lockWait = Duration.ofMinutes(2);
    private boolean dualWrite = true;

    private Builder(RedisClientAdapter redis) {
      this.redis = Objects.requireNonNull(redis, "redis");
    }

    /**
     * The name in the guard's keys ({@code NAME:{NAME}:state} and so on); default: the guard's name. Every
     * instance that shares the filter must use the same one.
     *
     * @throws IllegalArgumentException if it is empty or contains '{' or '}'
     */
    public Builder keyName(String keyName) {
      FilterKeys.checkName(keyName);
      this.keyName = keyName;
      return this;
    }

    /**
     * How long the rebuild lock lasts unless renewed; a rebuild renews it every third of the lease while
     * its scan delivers keys. Default 30 s. A scan that stalls longer than this loses the lock and
     * fails (nothing is lost: the live filter stays). @throws IllegalArgumentException if under 100 ms
     */
    public Builder lockLease(Duration lease) {
      if (lease == null || lease.compareTo(Duration.ofMillis(100)) < 0) {
        throw new IllegalArgumentException("lockLease must be at least 100 ms, was " + lease);
      }
      this.lockLease = lease;
      return this;
    }

    /**
     * How long a rebuild waits for another instance's rebuild to release the lock before it fails (and is
     * retried with the guard's backoff). Default 2 min. @throws IllegalArgumentException if negative
     */
    public Builder lockWait(Duration wait) {
      if (wait == null || wait.isNegative()) {
        throw new IllegalArgumentException("lockWait must be >= 0, was " + wait);
      }
      this.lockWait = wait;
      return this;
    }

    /** Test hook: false skips the pending generation in inserts, to show the tests catch the loss. */
    Builder dualWriteForTest(boolean on) {
      this.dualWrite = on;
      return this;
    }

    /** The backend. */
    public <K> RedisGuardBackend<K> build() {
      return new RedisGuardBackend<>(this);
    }
  }
}
