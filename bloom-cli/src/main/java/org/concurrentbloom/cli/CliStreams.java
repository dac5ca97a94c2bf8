package org.concurrentbloom.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.Objects;

/**
 * Where a run of {@code bloom} writes its results ({@code out}, and {@code rawOut} for a filter written
 * with {@code -o -}) and diagnostics ({@code err}), where {@code --input -} reads from ({@code in}), and
 * which of standard error and standard output are terminals (which decides the progress bar).
 *
 * <p>{@code out} writes through {@code rawOut}: flush {@code out} before writing bytes to {@code rawOut}.
 */
record CliStreams(PrintWriter out, OutputStream rawOut, PrintWriter err, InputStream in, boolean stderrTerminal,
    boolean stdoutTerminal) {
  CliStreams {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(rawOut, "rawOut");
    Objects.requireNonNull(err, "err");
    Objects.requireNonNull(in, "in");
  }

  /**
   * Whether a progress bar may be drawn on standard error while keys are read: only on a terminal, and
   * not when results are printed to the same kind of terminal as they come ({@code streamsResults}),
   * where the bar would be drawn into the middle of them.
   */
  boolean progressBar(boolean streamsResults) {
    return stderrTerminal && !(streamsResults && stdoutTerminal);
  }
}
