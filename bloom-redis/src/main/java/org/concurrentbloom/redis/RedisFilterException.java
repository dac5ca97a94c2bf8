package org.concurrentbloom.redis;

/**
 * Redis could not answer: a connection error, a timeout, a cluster that is reconfiguring, or an error
 * reply. A filter operation that throws this has no answer; in particular a query that throws never
 * means "definitely absent". An add that throws may or may not have taken effect. Immutable once
 * thrown.
 */
public class RedisFilterException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An exception with this message and the client's exception as its cause. */
  public RedisFilterException(String message, Throwable cause) {
    super(message, cause);
  }

  /** An exception with this message. */
  public RedisFilterException(String message) {
    super(message);
  }
}
