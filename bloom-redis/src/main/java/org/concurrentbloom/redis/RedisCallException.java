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

  RedisCallException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** The client's exception class and message, for the filter's message. */
  String describe() {
    Throwable c = getCause();
    return (c == null ? kind.name() : c.getClass().getSimpleName()) + ": " + getMessage();
  }
}
