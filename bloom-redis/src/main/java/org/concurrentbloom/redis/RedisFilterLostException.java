package org.concurrentbloom.redis;

/**
 * The filter this client opened is no longer whole in Redis: its metadata or a bit string is gone
 * (deleted, evicted under a {@code maxmemory} policy, or lost when Redis restarted without its data or
 * failed over to a replica that had not received it), a generation the metadata records as written is
 * missing, or the filter was deleted and created again under the same name (it has another id). Items
 * added before may be missing, so the operation that throws this gives no answer and wrote nothing.
 *
 * <p>Every call of every instance attached to such a filter throws this until the filter is rebuilt:
 * delete it and build it again from the source of truth (docs/REDIS.md, "What can go wrong in Redis").
 * A {@code create} that finds a partitioned filter with a partition missing throws it too, instead of
 * filling in an empty partition. Immutable once thrown.
 */
public class RedisFilterLostException extends RedisFilterMismatchException {
  private static final long serialVersionUID = 1L;

  /** An exception with this message and the server's error as its cause. */
  public RedisFilterLostException(String message, Throwable cause) {
    super(message, cause);
  }

  /** An exception with this message. */
  public RedisFilterLostException(String message) {
    super(message);
  }
}
