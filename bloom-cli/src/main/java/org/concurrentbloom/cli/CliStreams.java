package org.concurrentbloom.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Objects;

/**
 * Where a run of {@code bloom} writes its results ({@code out}) and diagnostics ({@code err}), where
 * {@code --input -} reads from ({@code in}), and whether a progress bar may be drawn on {@code err}.
 */
record CliStreams(PrintWriter out, PrintWriter err, InputStream in, boolean progress) {
  CliStreams {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    Objects.requireNonNull(in, "in");
  }
}
