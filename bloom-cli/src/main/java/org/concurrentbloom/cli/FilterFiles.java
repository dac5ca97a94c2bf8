package org.concurrentbloom.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes the files the commands produce, wherever {@code -o} points ({@link Destination}), and holds the
 * {@link UpdateLock} of a file across a command's read-modify-write cycle. Every failure becomes a
 * {@link CliException} that names the file.
 */
final class FilterFiles {
  private static final int BUFFER_BYTES = 1 << 16;

  private FilterFiles() {}

  /** The lock of an output, held while a command reads, changes and writes it; a no-op for streams. */
  interface Held extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Where {@code target} goes.
   *
   * @throws CliException if output may not go there (a directory, block device or socket)
   */
  static Destination destination(Path target) throws CliException {
    try {
      return Destination.of(target);
    } catch (IOException e) {
      throw new CliException("cannot write " + target + ": " + ErrorReporter.reason(e), e);
    }
  }

  /**
   * The destination of a file that a command reads, changes and writes back: it must be a regular file.
   *
   * @throws CliException for standard output, a device, a FIFO or a directory
   */
  static Destination updatable(Path file) throws CliException {
    Destination dest = destination(file);
    if (dest.kind() != Destination.Kind.FILE) {
      throw new CliException("cannot update " + file + ": only a regular filter file can be updated");
    }
    return dest;
  }

  /** Takes the update lock of {@code dest} if it is a file; see {@link UpdateLock}. */
  static Held lock(Destination dest, CliStreams io) throws CliException {
    if (dest.kind() != Destination.Kind.FILE) {
      return () -> { };
    }
    UpdateLock lock;
    try {
      lock = UpdateLock.acquire(dest.path(), io.err());
    } catch (java.nio.file.NoSuchFileException e) {
      throw new CliException("cannot write " + dest.path() + ": no such file or directory", e);
    } catch (IOException e) {
      throw new CliException("cannot lock " + dest.path() + " for the update (lock file "
          + UpdateLock.lockFileOf(dest.path()) + "): " + ErrorReporter.reason(e), e);
    }
    return () -> {
      try {
        lock.close();
      } catch (IOException e) {
        // The change, if any, is committed by now, so this must not turn the exit status into a failure;
        // the kernel drops the lock when the process exits a moment later anyway.
        io.err().println("bloom: warning: cannot release the lock of " + dest.path() + " (the process's exit "
            + "releases it): " + ErrorReporter.reason(e));
      }
    };
  }

  /**
   * Writes {@code content} to {@code dest} and prints {@code summary}, one line saying what was written,
   * where {@link #summary} says. A file is replaced atomically (the caller holds its lock), standard
   * output and devices are written into.
   *
   * <p>The exit status must say what happened to the data, so the summary is printed, and standard
   * output flushed, before the change is committed: when that fails (standard output is a full disk or
   * a closed pipe) the file is left unchanged, and the command fails. A file's new copy is complete and
   * on disk by then, so only the rename remains. A device or FIFO is written after the summary for the
   * same reason. A filter written to standard output is the data itself; its summary goes to standard
   * error afterwards.
   *
   * @throws CliException if the data cannot be written; {@link OutputFailure} if the summary cannot be
   */
  static void save(Destination dest, CliStreams io, AtomicFileWriter.Content content, String summary)
      throws CliException {
    Runnable report = () -> {
      PrintWriter w = summary(dest, io);
      w.println(summary);
      w.flush();
    };
    try {
      switch (dest.kind()) {
        case FILE -> AtomicFileWriter.write(dest.path(), content, report);
        case STDOUT -> {
          io.out().flush();
          OutputStream out = new BufferedOutputStream(nonClosing(io.rawOut()), BUFFER_BYTES);
          content.writeTo(out);
          out.flush();
          report.run();
        }
        case STREAM -> {
          report.run();
          try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(dest.path(),
              StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING), BUFFER_BYTES)) {
            content.writeTo(out);
          }
        }
        default -> throw new IllegalStateException(dest.kind().toString());
      }
    } catch (IOException e) {
      throw new CliException("cannot write " + dest.path() + ": " + ErrorReporter.reason(e)
          + (dest.kind() == Destination.Kind.FILE ? "; nothing was changed" : ""), e);
    }
  }

  /** Where a command's summary line goes: standard error when standard output carries the filter. */
  static PrintWriter summary(Destination dest, CliStreams io) {
    return dest.kind() == Destination.Kind.STDOUT ? io.err() : io.out();
  }

  private static OutputStream nonClosing(OutputStream out) {
    return new java.io.FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
  }
}
