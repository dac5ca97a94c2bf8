package org.concurrentbloom.cli;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What an output path names, and so how to write it. A regular file (or a path that does not exist yet)
 * is replaced atomically; standard output ({@code -}, {@code /dev/stdout}) and the character devices and
 * FIFOs a user points output at ({@code /dev/null}, a named pipe) are written into, because renaming a
 * file over them would destroy the device node or the pipe; a directory, block device or socket is
 * refused, as no filter belongs there.
 */
record Destination(Kind kind, Path path) {
  enum Kind {
    /** The command's standard output. */
    STDOUT,
    /** A character device, FIFO or /dev/fd path: opened and written into, never replaced. */
    STREAM,
    /** A regular file, or one to create: replaced atomically; {@link #path} has links resolved. */
    FILE
  }

  // st_mode's file type bits (POSIX <sys/stat.h>), as the "unix:mode" attribute reports them.
  private static final int S_IFMT = 0170000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFDIR = 0040000;
  private static final int S_IFBLK = 0060000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFSOCK = 0140000;

  /**
   * Where output given as {@code target} goes.
   *
   * @throws IOException naming the reason if output may not go there
   */
  static Destination of(Path target) throws IOException {
    String name = target.toString();
    if (name.equals("-") || name.equals("/dev/stdout") || name.equals("/dev/fd/1") || name.equals("/proc/self/fd/1")) {
      return new Destination(Kind.STDOUT, target);
    }
    if (isStandardOutput(target)) {
      return new Destination(Kind.STDOUT, target);
    }
    if (name.startsWith("/dev/fd/") || name.startsWith("/proc/self/fd/") || name.equals("/dev/stderr")) {
      return new Destination(Kind.STREAM, target);
    }
    int mode;
    try {
      mode = (Integer) Files.getAttribute(target, "unix:mode"); // follows links
    } catch (NoSuchFileException e) {
      if (Files.isSymbolicLink(target)) {
        throw new FileSystemException(name, null, "is a symbolic link to a missing file");
      }
      return new Destination(Kind.FILE, target);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // No POSIX modes (not Linux or macOS): only regular files and directories can be told apart.
      if (Files.isDirectory(target)) {
        throw new FileSystemException(name, null, "is a directory");
      }
      return new Destination(Kind.FILE, realPath(target));
    }
    switch (mode & S_IFMT) {
      case S_IFREG:
        Path real = realPath(target);
        checkReplaceable(real);
        return new Destination(Kind.FILE, real);
      case S_IFCHR:
      case S_IFIFO:
        return new Destination(Kind.STREAM, target);
      case S_IFDIR:
        throw new FileSystemException(name, null, "is a directory");
      case S_IFBLK:
        throw new FileSystemException(name, null,
            "is a block device; bloom writes regular files, character devices and FIFOs only");
      case S_IFSOCK:
        throw new FileSystemException(name, null, "is a socket; bloom writes regular files, character devices "
            + "and FIFOs only");
      default:
        throw new FileSystemException(name, null, "is not a regular file, character device or FIFO");
    }
  }

  /**
   * Refuses to replace an existing regular file that the atomic rename would wrong:
   * <ul>
   *   <li>one with more than one hard link: the rename gives only this name the new filter, and every
   *       other name of the file keeps answering from the old one, "no" for the keys just added (and
   *       its lock file, named after the name, would not be shared either);
   *   <li>one its mode makes read-only (to this user, or to everyone when the user is root, whom no mode
   *       stops): a rename replaces it whatever its mode says, so a file made read-only on purpose would
   *       change behind its owner's back.
   * </ul>
   * A missing file passes: there is nothing to wrong.
   *
   * @throws FileSystemException naming the file and the reason
   */
  static void checkReplaceable(Path file) throws IOException {
    Map<String, Object> attrs;
    try {
      attrs = Files.readAttributes(file, "unix:nlink,mode");
    } catch (NoSuchFileException e) {
      return;
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return; // no POSIX attributes here: nothing to check
    }
    int links = (Integer) attrs.get("nlink");
    if (links > 1) {
      throw new FileSystemException(file.toString(), null, "it has " + links + " hard links (names), and bloom "
          + "replaces a file by renaming a new copy over one name, so the other names would keep the old "
          + "filter; remove the other links (or make them copies or symbolic links) first");
    }
    int mode = (Integer) attrs.get("mode");
    if ((mode & 0222) == 0 || !Files.isWritable(file)) {
      throw new FileSystemException(file.toString(), null, "it is read-only (mode " + permissionString(mode) + "), and bloom would replace it by a rename, which its mode does not prevent; make it writable "
          + "first (chmod u+w) if it may change");
    }
  }

  private static String permissionString(int mode) {
    String letters = "rwxrwxrwx";
    StringBuilder s = new StringBuilder(9);
    for (int i = 0; i < 9; i++) {
      s.append((mode & (0400 >> i)) != 0 ? letters.charAt(i) : '-');
    }
    return s.toString();
  }

  /**
   * Whether {@code target} is, through any links, the file this process's standard output is open on
   * (Linux's /proc/self/fd/1): {@code -o out.bloom > out.bloom}, or a link to /dev/stdout. Writing
   * there goes through standard output, so the summary line moves to standard error instead of being
   * written into the filter's bytes.
   */
  private static boolean isStandardOutput(Path target) {
    Path stdout = Path.of("/proc/self/fd/1");
    try {
      return Files.exists(stdout) && Files.exists(target) && Files.isSameFile(target, stdout);
    } catch (IOException | SecurityException e) {
      return false;
    }
  }

  private static Path realPath(Path target) throws IOException {
    return Files.isSymbolicLink(target) ? target.toRealPath() : target;
  }
}
