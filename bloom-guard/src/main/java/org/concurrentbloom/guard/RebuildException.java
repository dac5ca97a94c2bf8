package org.concurrentbloom.guard;

/**
 * Thrown by {@link MembershipGuard#rebuildNow()} when the rebuild it waited for failed (the source
 * could not be read) or could not run (the guard was closed). The previous filter, if any, is still
 * live; the cause says what went wrong.
 */
public final class RebuildException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure described by {@code message}, caused by {@code cause} (may be null). */
  public RebuildException(String message, Throwable cause) {
    super(message, cause);
  }
}
