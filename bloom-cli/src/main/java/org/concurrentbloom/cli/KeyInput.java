package org.concurrentbloom.cli;

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
 * and a leading byte-order mark are removed and empty lines are skipped; every other line is a key
 * exactly as written. While a large file is read and a progress bar is wanted
 * ({@link CliStreams#progressBar}), draws one on {@link CliStreams#err()} showing bytes read and keys seen.
 *
 * <p>Also checks KEY arguments ({@link #checkArguments}): the JVM decodes them from the locale's
 * encoding, and a byte it cannot decode arrives as U+FFFD, which would be stored or looked up as a
 * different key.
 */
final class KeyInput {
  /** The {@code --input} value that means standard input. */
  static final String STDIN = "-";
  /** Files smaller than this are read too fast for a bar to be worth drawing. */
  static final long DEFAULT_BAR_THRESHOLD_BYTES = 1L << 20;
  private static final int BAR_UPDATE_EVERY_KEYS = 4096;

  private final CliStreams streams;
  private final boolean barWanted;
  private final long barThresholdBytes;

  /** Input for a command; {@code streamsResults} if it prints a line per key while reading (query). */
  KeyInput(CliStreams streams, boolean streamsResults) {
    this(streams, streamsResults, DEFAULT_BAR_THRESHOLD_BYTES);
  }

  KeyInput(CliStreams streams, boolean streamsResults, long barThresholdBytes) {
    this.streams = streams;
    this.barWanted = streams.progressBar(streamsResults);
    this.barThresholdBytes = barThresholdBytes;
  }

  /**
   * Refuses KEY arguments that did not reach the JVM intact: one holding U+FFFD, the character the JVM
   * puts where the locale's encoding (the {@code sun.jnu.encoding} property) could not decode a byte,
   * as for any non-ASCII byte under {@code LC_ALL=C} or invalid UTF-8 under a UTF-8 locale. Such keys
   * are given exactly with {@code --input}, which reads raw UTF-8.
   *
   * @throws IllegalArgumentException naming the argument and how to pass it
   */
  static void checkArguments(java.util.List<String> keys) {
    for (int i = 0; i < keys.size(); i++) {
      if (keys.get(i).indexOf('\uFFFD') >= 0) {
        throw new IllegalArgumentException("KEY argument " + (i + 1) + " ('" + keys.get(i) + "') has bytes that "
            + "the JVM could not decode with the locale's encoding (" + System.getProperty("sun.jnu.encoding")
            + ") and replaced with U+FFFD, so it would be a different key; pass it in a UTF-8 file or on "
            + "standard input with --input (e.g. printf '%s\\n' KEY | bloom ... --input -), or run under a "
            + "UTF-8 locale such as LC_ALL=C.UTF-8");
      }
    }
  }

  /** What to do with each key; returns false to stop reading. */
  @FunctionalInterface
  interface KeyAction {
    boolean accept(String key);
  }

  /**
   * Passes every key of {@code input} (a path, or {@code -}) to {@code action} in order and returns how
   * many there were. Standard input is read to its end but not closed.
   *
   * @throws CliException if the input cannot be opened or read, is not UTF-8, or {@code action} rejects
   *     a key with an IllegalArgumentException (a key that is not of the filter's key type); the message
   *     names the input and the line
   */
  long forEach(String input, Consumer<String> action) throws CliException {
    return forEachUntil(input, key -> {
      action.accept(key);
      return true;
    });
  }

  /** As {@link #forEach}, stopping after the first key for which {@code action} returns false. */
  long forEachUntil(String input, KeyAction action) throws CliException {
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
      KeyAction action) throws CliException {
    Utf8LineReader reader = new Utf8LineReader(in);
    long keys = 0;
    ProgressBar bar = counted != null && barWanted && size >= barThresholdBytes
        ? newBar(name, size) : null;
    try {
      for (String line; (line = reader.readLine()) != null; ) {
        if (line.isEmpty()) {
          continue;
        }
        keys++;
        boolean more;
        try {
          more = action.accept(line);
        } catch (IllegalArgumentException e) {
          throw new CliException("line " + reader.lineNumber() + " of " + name + ": " + e.getMessage(), e);
        }
        if (!more) {
          break;
        }
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
      PathArgument.check(input);
    } catch (picocli.CommandLine.TypeConversionException e) {
      throw new CliException("cannot read keys from --input: " + e.getMessage(), e);
    }
    try {
      return Path.of(input);
    } catch (InvalidPathException e) {
      throw new CliException("cannot read keys from " + input + ": invalid path", e);
    }
  }
}
