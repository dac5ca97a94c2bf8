package org.concurrentbloom.cli;

import java.io.PrintWriter;
import me.tongfei.progressbar.ProgressBarConsumer;

/**
 * Draws a progress bar on one terminal line of a {@link PrintWriter}, redrawing it in place with a
 * carriage return. Unlike the progressbar library's console consumers it never asks jline for the
 * terminal, so no jline {@code Terminal} (and no native code) is ever loaded: the width comes from the
 * {@code COLUMNS} environment variable, or 80.
 */
final class WriterProgressConsumer implements ProgressBarConsumer {
  private static final int DEFAULT_WIDTH = 80;
  private final PrintWriter writer;
  private final int maxLength;

  WriterProgressConsumer(PrintWriter writer, int maxLength) {
    this.writer = writer;
    this.maxLength = maxLength;
  }

  /** A consumer as wide as the terminal seems to be, less one column so the line never wraps. */
  static WriterProgressConsumer forTerminal(PrintWriter writer) {
    return new WriterProgressConsumer(writer, terminalWidth() - 1);
  }

  private static int terminalWidth() {
    String columns = System.getenv("COLUMNS");
    if (columns != null) {
      try {
        int width = Integer.parseInt(columns.trim());
        if (width >= 20) {
          return width;
        }
      } catch (NumberFormatException e) {
        // fall through to the default
      }
    }
    return DEFAULT_WIDTH;
  }

  @Override
  public int getMaxRenderedLength() {
    return maxLength;
  }

  @Override
  public void accept(String rendered) {
    writer.print('\r');
    writer.print(rendered);
    writer.flush();
  }

  @Override
  public void clear() {
    writer.print('\r');
    writer.print(" ".repeat(maxLength));
    writer.print('\r');
    writer.flush();
  }

  @Override
  public void close() {
    writer.flush();
  }
}
