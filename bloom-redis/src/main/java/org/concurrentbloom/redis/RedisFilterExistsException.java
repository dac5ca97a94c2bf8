package org.concurrentbloom.redis;

/**
 * A create that must not attach ({@code RedisBloomFilter.Builder#createNew}) or an upload found a filter
 * already stored under the name. Nothing was written. Immutable once thrown.
 */
public final class RedisFilterExistsException extends RedisFilterMismatchException {
  private static final long serialVersionUID = 1L;

  /** An exception with this message and the server's error as its cause. */
  public RedisFilterExistsException(String message, Throwable cause) {
    super(message, cause);
  }
}
