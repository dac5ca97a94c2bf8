package org.concurrentbloom.cli;

import java.io.IOException;

/**
 * Standard output could not be written: a full disk, a closed pipe, a device that refuses writes.
 * Thrown from inside the writers so that the command stops at the first failed write (a
 * {@link java.io.PrintWriter} would swallow the error and let a query over ten million keys run on into
 * a closed pipe); {@link ErrorReporter} turns it into the exit status.
 */
final class OutputFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  OutputFailure(IOException cause) {
    super(cause);
  }

  @Override
  public synchronized IOException getCause() {
    return (IOException) super.getCause();
  }

  /** The reader of the pipe went away (EPIPE): the usual end of {@code bloom query ... | head}. */
  boolean isClosedPipe() {
    String message = getCause().getMessage();
    return message != null && message.contains("Broken pipe");
  }
}
