package org.concurrentbloom.redis;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Optional;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.SnapshotStore;
import redis.clients.jedis.UnifiedJedis;

/**
 * A {@link SnapshotStore} that keeps a {@link MembershipGuard}'s snapshot in one Redis key, so that any
 * instance of a service, on any machine, restarts from it.
 *
 * <pre>{@code
 * .snapshotStore(new RedisSnapshotStore(redis, "users.email:snapshot"))
 * }</pre>
 *
 * <p>The guard's bytes (its checksummed envelope and the filter, docs/GUARD.md) are collected in memory
 * and stored with one {@code SET}, which Redis applies whole: a reader sees the previous snapshot or the
 * new one, never a mix; a write that fails, in the guard or in Redis, leaves the previous one. A value
 * is at most 512 MB, so a filter of up to about 4 billion bits. The bytes carry their own checksums, so a
 * value damaged or replaced by something else is rejected when the guard loads it (and the filter is
 * rebuilt), never trusted. Durability is Redis's: with AOF the snapshot survives a Redis restart; if it
 * is lost, the guard rebuilds from a full scan.
 *
 * <p>Immutable; any thread may call it, as the client (Jedis or Lettuce) may. Redis failures are IOExceptions, as
 * {@link SnapshotStore} asks.
 */
public final class RedisSnapshotStore implements SnapshotStore {
  private final RedisBlobStore blobs;
  private final String key;

  /**
   * A store under {@code key}, through the caller's client (never closed here).
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code key} is empty
   */
  public RedisSnapshotStore(UnifiedJedis redis, String key) {
    this(RedisClientAdapter.jedis(redis), key);
  }

  /**
   * A store under {@code key} over any client adapter (Jedis or Lettuce: they read each other's
   * snapshots).
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code key} is empty
   */
  public RedisSnapshotStore(RedisClientAdapter redis, String key) {
    this.blobs = new RedisBlobStore(redis, "");
    this.key = Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("key must be non-empty, was \"\"");
    }
  }

  /** The Redis key the snapshot is stored under. */
  public String key() {
    return key;
  }

  @Override
  public void write(Content content) throws IOException {
    Objects.requireNonNull(content, "content");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    content.writeTo(bytes); // all of it before anything is sent: a failure here leaves Redis untouched
    try {
      blobs.put(key, bytes.toByteArray());
    } catch (RedisFilterException e) {
      throw new IOException("could not store the snapshot under " + key + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<InputStream> read() throws IOException {
    try {
      return blobs.get(key).<InputStream>map(ByteArrayInputStream::new);
    } catch (RedisFilterException e) {
      throw new IOException("could not read the snapshot under " + key + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "RedisSnapshotStore[" + key + "]";
  }
}
