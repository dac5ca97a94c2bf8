package org.concurrentbloom.cli;

/**
 * A failure that the user can act on, with a message that is complete on its own: {@link ErrorReporter}
 * prints it as {@code bloom: error: <message>} and the command exits with status 1.
 */
final class CliException extends Exception {
  private static final long serialVersionUID = 1L;

  CliException(String message) {
    super(message);
  }

  CliException(String message, Throwable cause) {
    super(message, cause);
  }
}
