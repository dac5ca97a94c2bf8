package org.concurrentbloom.redis;

import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.UnifiedJedis;

/**
 * The clock of a test expiring filter in Redis: the metadata field {@code now} that a filter built with
 * {@code manualClockForTest} reads instead of the server's TIME, moved only when told. Every instance of
 * the filter reads the same field, as they would the server's clock. It starts far from real time on
 * purpose: nothing of the filter may depend on the server's clock then. Thread-safe (one AtomicLong;
 * the client is).
 */
final class ManualClock {
  private final UnifiedJedis redis;
  private final String meta;
  private final long start;
  private final AtomicLong millis;

  /** The clock of the filter {@code name}, reached through {@code redis} (a server's or a cluster's client). */
  ManualClock(UnifiedJedis redis, String name, long startMillis) {
    this.redis = redis;
    this.meta = ExpiringKeys.meta(name);
    this.start = startMillis;
    this.millis = new AtomicLong(startMillis);
  }

  /** A clock at a round time some years from now, not the real one. */
  static ManualClock farFromNow(UnifiedJedis redis, String name) {
    return new ManualClock(redis, name, 2_000_000_000_000L);
  }

  /** The builder, made to build (or attach to) a filter on this clock. */
  <T> RedisExpiringBloomFilter.Builder<T> on(RedisExpiringBloomFilter.Builder<T> builder) {
    return builder.manualClockForTest(start);
  }

  /** Moves the filter's clock (the filter must exist). */
  void set(long newMillis) {
    millis.set(newMillis);
    redis.hset(meta, "now", Long.toString(newMillis));
  }

  void advance(long byMillis) {
    set(millis.get() + byMillis);
  }

  long millis() {
    return millis.get();
  }
}
