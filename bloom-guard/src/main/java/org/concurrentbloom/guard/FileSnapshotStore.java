package org.concurrentbloom.guard;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.concurrentbloom.internal.VisibleForTesting;

/**
 * A {@link SnapshotStore} that keeps the snapshot in one file.
 *
 * <p>Writing follows the crash-safe recipe: the bytes go to a new temporary file beside the target
 * ({@code .<name>.<random>.tmp}), which is forced to disk and closed, then renamed over the target in
 * one atomic step, and finally the directory is forced so the rename itself survives a power loss.
 * A crash before the rename leaves the old file untouched (and a stray temporary file, which
 * {@link #read} never looks at and the next store on this path deletes); a crash after it leaves the
 * complete new file. The bytes carry their own checksums (docs/GUARD.md), so a file damaged some other
 * way is rejected by the guard when it loads, not trusted.
 *
 * <p>Thread safety: one process, and in it one guard, should write a given path; calls are then
 * serialized by the guard. Reads may run at any time.
 */
public final class FileSnapshotStore implements SnapshotStore {
  private static final String TEMP_SUFFIX = ".tmp";
  private static final int BUFFER_BYTES = 1 << 16;

  private final Path file;
  /** Runs after the temporary file is complete and forced, just before the rename. */
  @VisibleForTesting
  volatile Runnable beforeRename = () -> { };

  /**
   * A store for {@code file}. The directory must exist: it is checked here, since a missing one would
   * otherwise make every later write fail, seen only in the guard's {@code snapshotFailures}. Deletes
   * temporary files that an interrupted write on this path left behind.
   *
   * @throws IllegalArgumentException if {@code file} has no file name or is a directory, or if its
   *     directory does not exist or is not a directory (the message names it)
   * @throws IOException if the directory cannot be listed
   */
  public FileSnapshotStore(Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    Path absolute = file.toAbsolutePath();
    if (absolute.getFileName() == null || Files.isDirectory(absolute)) {
      throw new IllegalArgumentException("snapshot file must be a file path, was " + file);
    }
    if (!Files.isDirectory(absolute.getParent())) {
      throw new IllegalArgumentException("the directory of snapshot file " + file + " does not exist or is not a"
          + " directory: " + absolute.getParent() + " (create it first)");
    }
    this.file = absolute;
    deleteStaleTemporaryFiles();
  }

  /** The snapshot file. */
  public Path file() {
    return file;
  }

  @Override
  public void write(Content content) throws IOException {
    Objects.requireNonNull(content, "content");
    Path temp = file.resolveSibling(tempPrefix() + UUID.randomUUID() + TEMP_SUFFIX);
    boolean renamed = false;
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER_BYTES);
        content.writeTo(out);
        out.flush();
        channel.force(true);
      }
      beforeRename.run();
      rename(temp);
      renamed = true;
    } finally {
      if (!renamed) {
        Files.deleteIfExists(temp);
      }
    }
    forceDirectory();
  }

  @Override
  public Optional<InputStream> read() throws IOException {
    try {
      return Optional.of(new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private String tempPrefix() {
    return "." + file.getFileName() + ".";
  }

  private void rename(Path temp) throws IOException {
    try {
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the file system of " + file + " cannot rename atomically; a snapshot there could"
          + " be torn by a crash", e);
    }
  }

  /** Makes the rename durable. Linux supports forcing a directory; where it is refused, skip it. */
  private void forceDirectory() {
    try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Not supported on this platform (Windows): the rename is still atomic, only maybe not yet durable.
    }
  }

  private void deleteStaleTemporaryFiles() throws IOException {
    Path dir = file.getParent();
    String glob = tempPrefix().replace("\\", "\\\\").replace("*", "\\*").replace("?", "\\?")
        .replace("{", "\\{").replace("[", "\\[") + "*" + TEMP_SUFFIX;
    try (DirectoryStream<Path> stale = Files.newDirectoryStream(dir, glob)) {
      for (Path p : stale) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Override
  public String toString() {
    return "FileSnapshotStore[" + file + "]";
  }
}
