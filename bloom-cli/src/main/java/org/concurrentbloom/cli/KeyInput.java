package org.concurrentbloom.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Streams keys, one per line, from a file or from standard input ({@code -}), without holding the input
 * in memory. Lines are decoded as strict UTF-8 ({@link Utf8LineReader}); line terminators (LF or CRLF)
 * are removed and empty lines are skipped. While a large file is read and a progress bar is wanted,
 * draws one on {@link CliStreams#err()} showing bytes read and keys seen.
 */
final class KeyInput {
  /** The {@code --input} value that means standard input. */
  static final String STDIN = "-";
  /** Files smaller than this are read too fast for a bar to be worth drawing. */
  static final long DEFAULT_BAR_THRESHOLD_BYTES = 1L << 20;
  private static final int BAR_UPDATE_EVERY_KEYS = 4096;

  private final CliStreams streams;
  private final long barThresholdBytes;

  KeyInput(CliStreams streams) {
    this(streams, DEFAULT_BAR_THRESHOLD_BYTES);
  }

  KeyInput(CliStreams streams, long barThresholdBytes) {
    this.streams = streams;
    this.barThresholdBytes = barThresholdBytes;
  }

  /**
   * Passes every key of {@code input} (a path, or {@code -}) to {@code action} in order and returns how
   * many there were. Standard input is read to its end but not closed.
   *
   * @throws CliException if the input cannot be opened or read, or is not UTF-8; the message names it
   */
  long forEach(String input, Consumer<String> action) throws CliException {
    if (STDIN.equals(input)) {
      return read(streams.in(), "standard input", -1, null, action);
    }
    Path path = toPath(input);
    try (CountingInputStream counted = new CountingInputStream(Files.newInputStream(path))) {
      long size = Files.size(path);
      return read(counted, input, size, counted, action);
    } catch (IOException e) {
      throw new CliException("cannot read keys from " + input + ": " + ErrorReporter.reason(e), e);
    }
  }

  private long read(InputStream in, String name, long size, CountingInputStream counted,
      Consumer<String> action) throws CliException {
    Utf8LineReader reader = new Utf8LineReader(in);
    long keys = 0;
    ProgressBar bar = counted != null && streams.progress() && size >= barThresholdBytes
        ? newBar(name, size) : null;
    try {
      for (String line; (line = reader.readLine()) != null; ) {
        if (line.isEmpty()) {
          continue;
        }
        action.accept(line);
        keys++;
        if (bar != null && keys % BAR_UPDATE_EVERY_KEYS == 0) {
          showProgress(bar, counted, keys);
        }
      }
      if (bar != null) {
        showProgress(bar, counted, keys);
      }
      return keys;
    } catch (CharacterCodingException e) {
      throw new CliException("cannot read keys from " + name + ": not valid UTF-8 text at line "
          + reader.lineNumber(), e);
    } catch (IOException e) {
      throw new CliException("cannot read keys from " + name + ": " + ErrorReporter.reason(e), e);
    } finally {
      if (bar != null) {
        bar.close();
      }
    }
  }

  private static void showProgress(ProgressBar bar, CountingInputStream counted, long keys) {
    bar.stepTo(counted.count());
    bar.setExtraMessage(String.format(Locale.ROOT, " %,d keys", keys));
  }

  private ProgressBar newBar(String name, long size) {
    return new ProgressBarBuilder()
        .setTaskName(String.valueOf(Path.of(name).getFileName()))
        .setInitialMax(size)
        .setUnit(" MiB", 1L << 20)
        .setStyle(ProgressBarStyle.UNICODE_BLOCK)
        .setUpdateIntervalMillis(200)
        .clearDisplayOnFinish()
        .setConsumer(WriterProgressConsumer.forTerminal(streams.err()))
        .build();
  }

  private static Path toPath(String input) throws CliException {
    try {
      return Path.of(input);
    } catch (InvalidPathException e) {
      throw new CliException("cannot read keys from " + input + ": invalid path", e);
    }
  }

  /** Counts the bytes read through it, so the bar can show how far into the file the reader is. */
  private static final class CountingInputStream extends FilterInputStream {
    private long count;

    CountingInputStream(InputStream in) {
      super(in);
    }

    long count() {
      return count;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      int n = super.read(buf, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      count += skipped;
      return skipped;
    }
  }
}
