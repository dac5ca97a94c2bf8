package org.concurrentbloom.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Replaces a regular file all at once: the content goes to a new temporary file in the target's
 * directory, is forced to disk, gets the old file's owner, group and mode, and is then renamed over the
 * target. Readers see the old file or the new one, never a mix, and if anything fails the target is
 * left exactly as it was and the temporary file is removed. Just before the rename, the caller reports
 * what it is about to commit ({@code beforeCommit}, the summary line on standard output): if that fails
 * (a full disk, a closed pipe), nothing is renamed, so a command never exits with a failure after its
 * change took effect, and a retry of a "failed" run never applies the change twice. Temporary files are named
 * {@code .<name>.<hex>.bloom.tmp}; one left behind by a killed run is removed by the next
 * {@link #removeStaleTemps} on that file, which callers make while they hold its {@link UpdateLock}
 * (every writer holds it while its temporary file exists, so no live one is removed).
 *
 * <p>The target must be a regular file or not exist, with links already resolved ({@link Destination}).
 */
final class AtomicFileWriter {
  private static final int BUFFER_BYTES = 1 << 16;
  private static final String TEMP_SUFFIX = ".bloom.tmp";

  /** Writes the content of a file to a stream; need not close it. */
  @FunctionalInterface
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private AtomicFileWriter() {}

  /**
   * Writes {@code content} to {@code target}, replacing it atomically if it exists.
   *
   * @throws IOException if the temporary file cannot be written, given the old file's owner, group and
   *     mode, or renamed, or if {@code target} may not be replaced ({@link Destination#checkReplaceable});
   *     {@code target} is unchanged, as it is if {@code beforeCommit} throws
   */
  static void write(Path target, Content content) throws IOException {
    write(target, content, () -> { });
  }

  /**
   * As {@link #write(Path, Content)}, running {@code beforeCommit} after the new copy is complete and
   * just before it replaces {@code target}.
   */
  static void write(Path target, Content content, Runnable beforeCommit) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Path temp = createTemp(dir, target.getFileName().toString());
    boolean moved = false;
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER_BYTES);
        content.writeTo(out);
        out.flush();
        channel.force(true);
      }
      copyOwnershipAndMode(target, temp);
      // Again under the caller's lock: a link or chmod made since the command started counts.
      Destination.checkReplaceable(target);
      beforeCommit.run();
      move(temp, target);
      moved = true;
    } finally {
      if (!moved) {
        Files.deleteIfExists(temp);
      }
    }
  }

  /**
   * Removes the temporary files a killed run left for {@code target}. Only names of the exact form
   * {@code .<name>.<hex>.bloom.tmp} are touched, so another file's temporaries ({@code .<name>.x.<hex>...}
   * belongs to {@code <name>.x}) are not. Errors are ignored: a leftover is harmless.
   */
  static void removeStaleTemps(Path target) {
    String prefix = "." + target.getFileName() + ".";
    Path dir = target.toAbsolutePath().getParent();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, p -> isTempOf(p, prefix))) {
      for (Path stale : entries) {
        Files.deleteIfExists(stale);
      }
    } catch (IOException | RuntimeException e) {
      // cannot list or delete: leave them
    }
  }

  private static boolean isTempOf(Path p, String prefix) {
    String name = p.getFileName().toString();
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) {
      return false;
    }
    String middle = name.substring(prefix.length(), name.length() - TEMP_SUFFIX.length());
    return !middle.isEmpty() && middle.chars().allMatch(c -> Character.digit(c, 16) >= 0);
  }

  private static Path createTemp(Path dir, String name) throws IOException {
    for (int attempt = 0; ; attempt++) {
      String random = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
      Path temp = dir.resolve("." + name + "." + random + TEMP_SUFFIX);
      try {
        return Files.createFile(temp); // default permissions, like any new file
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 10) {
          throw e;
        }
      }
    }
  }

  /**
   * Gives {@code to} the owner, group and permissions of {@code from}, if that exists: a root
   * {@code bloom add} on a service's 0640 file must leave the service able to read it. Owner and group
   * are set only where they differ, so an ordinary user updating their own file needs no privilege.
   */
  private static void copyOwnershipAndMode(Path from, Path to) throws IOException {
    if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    PosixFileAttributeView source = Files.getFileAttributeView(from, PosixFileAttributeView.class);
    PosixFileAttributeView dest = Files.getFileAttributeView(to, PosixFileAttributeView.class);
    if (source == null || dest == null) {
      return;
    }
    PosixFileAttributes old = source.readAttributes();
    PosixFileAttributes fresh = dest.readAttributes();
    try {
      if (!old.owner().equals(fresh.owner())) {
        dest.setOwner(old.owner());
      }
      if (!old.group().equals(fresh.group())) {
        dest.setGroup(old.group());
      }
    } catch (IOException e) {
      throw new FileSystemException(from.toString(), null, "cannot give the new copy the owner "
          + old.owner().getName() + " and group " + old.group().getName() + " of the file it replaces ("
          + ErrorReporter.reason(e) + ")");
    }
    dest.setPermissions(old.permissions()); // after chown, which may clear set-id bits
  }

  private static void move(Path temp, Path destination) throws IOException {
    try {
      Files.move(temp, destination, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, destination, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
