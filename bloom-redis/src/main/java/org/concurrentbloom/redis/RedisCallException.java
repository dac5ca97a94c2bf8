package org.concurrentbloom.redis;

/**
 * A failed Redis command, as a client adapter reports it: the server's error reply (its text is the
 * message), a NOSCRIPT reply (the script is not in that node's cache), or a failure to get any reply
 * (connection, timeout, cluster routing). The client's own exception is the cause. Internal: the filters
 * turn it into a {@link RedisFilterException} that says what they were doing. Immutable once thrown.
 */
final class RedisCallException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  enum Kind { ERROR_REPLY, NO_SCRIPT, FAILURE }

  final Kind kind;
  /** The message is the adapter's own account of the failure, not the client's text. */
  private final boolean described;

  /** A failure with the client's text as its message. */
  RedisCallException(Kind kind, String message, Throwable cause) {
    this(kind, message, cause, false);
  }

  private RedisCallException(Kind kind, String message, Throwable cause, boolean described) {
    super(message, cause);
    this.kind = kind;
    this.described = described;
  }

  /**
   * A failure the adapter describes in its own words, where the client's text is about the client's
   * API rather than about Redis (it stays in the cause).
   */
  static RedisCallException described(Kind kind, String message, Throwable cause) {
    return new RedisCallException(kind, message, cause, true);
  }

  /** The client's exception class and message, or the adapter's own account, for the filter's message. */
  String describe() {
    Throwable c = getCause();
    if (described || c == null) {
      return getMessage();
    }
    return c.getClass().getSimpleName() + ": " + getMessage();
  }
}
