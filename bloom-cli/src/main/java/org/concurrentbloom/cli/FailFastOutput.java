package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Turns an {@link IOException} from standard output into an {@link OutputFailure}, which the
 * {@link java.io.PrintWriter} and encoder above it do not catch, so the failure reaches the command at
 * the write that failed. Only the thread running the command writes through it.
 */
final class FailFastOutput {
  private FailFastOutput() {}

  /** {@code out}, throwing {@link OutputFailure} from any write or flush that fails. */
  static OutputStream of(OutputStream out) {
    return new OutputStream() {
      @Override
      public void write(int b) {
        try {
          out.write(b);
        } catch (IOException e) {
          throw new OutputFailure(e);
        }
      }

      @Override
      public void write(byte[] b, int off, int len) {
        try {
          out.write(b, off, len);
        } catch (IOException e) {
          throw new OutputFailure(e);
        }
      }

      @Override
      public void flush() {
        try {
          out.flush();
        } catch (IOException e) {
          throw new OutputFailure(e);
        }
      }

      @Override
      public void close() {
        flush();
      }
    };
  }
}
