package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * An exclusive lock that bloom runs take for the whole read-modify-write cycle of a file, so that two
 * {@code bloom add} runs on one file take turns instead of each writing back its own copy and losing the
 * other's keys.
 *
 * <p>Why a lock file beside the target ({@code .<name>.lock}) rather than a lock on the target itself:
 * the target is replaced by a rename, so the next run opens a different file (inode) than the one the
 * first run locked, and both would hold "the" lock at once. The lock file is never replaced or removed
 * (removing it would let a waiting run lock an unlinked file), so it is the one object every run agrees
 * on. The locks are POSIX record locks ({@link FileChannel#lock()}): the kernel releases them when the
 * process ends, so a killed run never leaves the file locked.
 *
 * <p>Only one thread of a process may hold the lock of a given file (a second gets an
 * {@link java.nio.channels.OverlappingFileLockException}); the CLI runs one command per process.
 */
final class UpdateLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private UpdateLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** The lock file of {@code target} (a regular file path with links resolved). */
  static Path lockFileOf(Path target) {
    return target.toAbsolutePath().resolveSibling("." + target.getFileName() + ".lock");
  }

  /**
   * Takes the lock of {@code target}, waiting for another run that holds it (and saying so on
   * {@code err}), then removes temporary files a killed run left for it.
   *
   * @throws IOException if the lock file cannot be created or locked
   */
  static UpdateLock acquire(Path target, PrintWriter err) throws IOException {
    Path lockFile = lockFileOf(target);
    boolean fresh = !Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS);
    FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    if (fresh) {
      shareWithTarget(lockFile, target);
    }
    try {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        err.println("bloom: waiting for another bloom run to finish updating " + target + " (lock " + lockFile
            + ")");
        err.flush();
        lock = channel.lock();
      }
      AtomicFileWriter.removeStaleTemps(target);
      return new UpdateLock(channel, lock);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Gives a new lock file the target's owner, group and mode, so that whoever may update the target may
   * also take its lock later (a lock file made by root with root's umask would shut a service out).
   * Best effort: a lock file that stays as it was only costs that user a clear error.
   */
  private static void shareWithTarget(Path lockFile, Path target) {
    try {
      PosixFileAttributes t = Files.readAttributes(target, PosixFileAttributes.class);
      if (t.permissions().isEmpty()) {
        return;
      }
      PosixFileAttributeView view = Files.getFileAttributeView(lockFile, PosixFileAttributeView.class);
      view.setOwner(t.owner());
      view.setGroup(t.group());
      java.util.Set<java.nio.file.attribute.PosixFilePermission> mode = java.util.EnumSet.copyOf(t.permissions());
      mode.add(java.nio.file.attribute.PosixFilePermission.OWNER_WRITE); // a lock is taken for writing
      view.setPermissions(mode);
    } catch (IOException | UnsupportedOperationException e) {
      // no target yet, no POSIX attributes, or not allowed: keep the defaults
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
