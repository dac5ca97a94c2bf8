package org.concurrentbloom.redis;

/**
 * The filter stored in Redis is not the one this client expects: it has another shape (bits, hash
 * functions, strategy, format version or partition count), it is missing (deleted or evicted), or the
 * key holds data this library did not write (another application's hash, a string, a list), or, for
 * {@link RedisFilterExistsException}, a filter exists where none may. The operation that throws it
 * wrote nothing. Immutable once thrown.
 */
public class RedisFilterMismatchException extends RedisFilterException {
  private static final long serialVersionUID = 1L;

  /** An exception with this message and the server's error as its cause. */
  public RedisFilterMismatchException(String message, Throwable cause) {
    super(message, cause);
  }

  /** An exception with this message. */
  public RedisFilterMismatchException(String message) {
    super(message);
  }
}
