package org.concurrentbloom.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Replaces a file all at once: the content goes to a new temporary file in the target's directory, is
 * forced to disk, and is then renamed over the target. Readers see the old file or the new one, never a
 * mix, and if anything fails the target is left exactly as it was and the temporary file is removed.
 * Temporary files are named {@code .<name>.<random>.bloom.tmp}. An existing target keeps its POSIX
 * permissions; a symbolic link target has the file it points to replaced.
 */
final class AtomicFileWriter {
  private static final int BUFFER_BYTES = 1 << 16;

  /** Writes the content of a file to a stream; need not close it. */
  @FunctionalInterface
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private AtomicFileWriter() {}

  /**
   * Writes {@code content} to {@code target}, replacing it atomically if it exists.
   *
   * @throws IOException if the temporary file cannot be written or renamed; {@code target} is unchanged
   */
  static void write(Path target, Content content) throws IOException {
    Path destination = resolveLinks(target);
    if (Files.isDirectory(destination)) {
      throw new FileSystemException(target.toString(), null, "is a directory");
    }
    Path dir = destination.toAbsolutePath().getParent();
    Path temp = createTemp(dir, destination.getFileName().toString());
    boolean moved = false;
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER_BYTES);
        content.writeTo(out);
        out.flush();
        channel.force(true);
      }
      copyPermissions(destination, temp);
      move(temp, destination);
      moved = true;
    } finally {
      if (!moved) {
        Files.deleteIfExists(temp);
      }
    }
  }

  private static Path resolveLinks(Path target) throws IOException {
    return Files.isSymbolicLink(target) && Files.exists(target) ? target.toRealPath() : target;
  }

  private static Path createTemp(Path dir, String name) throws IOException {
    for (int attempt = 0; ; attempt++) {
      String random = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
      Path temp = dir.resolve("." + name + "." + random + ".bloom.tmp");
      try {
        return Files.createFile(temp); // default permissions, like any new file
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 10) {
          throw e;
        }
      }
    }
  }

  private static void copyPermissions(Path from, Path to) throws IOException {
    PosixFileAttributeView source = Files.getFileAttributeView(from, PosixFileAttributeView.class);
    PosixFileAttributeView dest = Files.getFileAttributeView(to, PosixFileAttributeView.class);
    if (source == null || dest == null || !Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    dest.setPermissions(source.readAttributes().permissions());
  }

  private static void move(Path temp, Path destination) throws IOException {
    try {
      Files.move(temp, destination, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, destination, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
