package org.concurrentbloom.cli;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A filter being read, from a path of any kind (a regular file, a FIFO, {@code /dev/stdin}, a shell's
 * {@code <(...)}) or from standard input ({@code -}), opened exactly once: the header is peeked from the
 * same buffered stream the filter is then read from. A second open would hang on a FIFO whose writer has
 * gone, or miss the bytes the first read took from a pipe. Only the thread running the command uses it.
 */
final class FilterInput implements AutoCloseable {
  /** The FILE value that means standard input. */
  static final String STDIN = "-";
  private static final int BUFFER_BYTES = 1 << 16;

  /** The name for messages: the path as given, or "standard input". */
  final String name;
  /** The length in bytes if this is a regular file, else -1: a stream's length is known only at its end. */
  final long size;
  private final CountingInputStream counted;
  private final BufferedInputStream in;

  private FilterInput(String name, long size, InputStream raw) {
    this.name = name;
    this.size = size;
    this.counted = new CountingInputStream(raw);
    this.in = new BufferedInputStream(counted, BUFFER_BYTES);
  }

  /**
   * Opens {@code path}, or standard input for {@code -} (which is not closed afterwards).
   *
   * @throws CliException naming the path if it cannot be opened
   */
  static FilterInput open(Path path, CliStreams io) throws CliException {
    if (STDIN.equals(path.toString())) {
      return new FilterInput("standard input", -1, new FilterInputStream(io.in()) {
        @Override
        public void close() {
          // standard input belongs to the process
        }
      });
    }
    try {
      if (Files.isDirectory(path)) {
        throw new CliException("cannot load filter " + path + ": it is a directory");
      }
      InputStream raw = Files.newInputStream(path); // blocks on a FIFO until it has a writer, as cat does
      try {
        long size = Files.isRegularFile(path) ? Files.size(path) : -1;
        return new FilterInput(path.toString(), size, raw);
      } catch (IOException e) {
        raw.close();
        throw e;
      }
    } catch (IOException e) {
      throw new CliException("cannot load filter " + path + ": " + ErrorReporter.reason(e), e);
    }
  }

  /** Up to {@code n} first bytes, which the next read returns again. */
  byte[] peek(int n) throws CliException {
    try {
      in.mark(n);
      byte[] head = in.readNBytes(n);
      in.reset();
      return head;
    } catch (IOException e) {
      throw new CliException("cannot load filter " + name + ": " + ErrorReporter.reason(e), e);
    }
  }

  /** Reads one filter of some type from a stream. */
  interface Reader<F> {
    F read(InputStream in) throws IOException;
  }

  /**
   * Reads the filter with {@code reader}; the input must hold exactly one filter and nothing after it.
   *
   * @throws CliException naming the input and the reason if it cannot be read or is not one whole filter
   */
  <F> F readWhole(Reader<F> reader) throws CliException {
    try {
      F filter = reader.read(in);
      if (in.read() != -1) {
        throw new CliException("cannot load filter " + name
            + ": unexpected bytes after the end of the filter; the file is corrupt");
      }
      return filter;
    } catch (IOException e) {
      throw new CliException("cannot load filter " + name + ": " + ErrorReporter.reason(e), e);
    }
  }

  /** The bytes read so far from the source: after {@link #readWhole}, the filter's length. */
  long bytesRead() {
    return counted.count();
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      // a read-only source: nothing was lost
    }
  }
}
