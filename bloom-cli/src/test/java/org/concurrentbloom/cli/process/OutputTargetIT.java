package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.concurrent.CompletableFuture;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@code -o} points: devices and FIFOs are written into, never replaced; what cannot hold a filter
 * is refused; a replaced regular file keeps its owner, group and mode; temporaries of a killed run are
 * cleaned up; and a failing standard output fails the command. Device nodes are made with mknod in a
 * temporary folder (the tests run as root in CI): the real /dev is never touched.
 */
class OutputTargetIT {
  private static final int S_IFMT = 0170000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFBLK = 0060000;

  @TempDir
  Path dir;

  private Path filter;

  @BeforeEach
  void createFilter() throws IOException {
    filter = dir.resolve("f.bloom");
    Bloom.run("create", "-n", "1000", "-p", "0.01", "-o", filter.toString()).ok();
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private Path mknod(String name, String type, int major, int minor) throws Exception {
    assumeTrue(isRoot(), "mknod needs root");
    Path node = dir.resolve(name);
    Process p = new ProcessBuilder("mknod", node.toString(), type, Integer.toString(major), Integer.toString(minor))
        .inheritIO().start();
    assertThat(p.waitFor()).isZero();
    return node;
  }

  private static int fileType(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:mode") & S_IFMT;
  }

  /** Before the fix, create renamed a regular file over the device node (as root, even over /dev/null). */
  @Test
  void aCharacterDeviceIsWrittenIntoNotReplaced() throws Exception {
    Path nul = mknod("null", "c", 1, 3);
    Bloom.run("create", "-n", "100", "-p", "0.01", "-o", nul.toString()).ok();
    assertThat(fileType(nul)).as("still a character device").isEqualTo(S_IFCHR);
    Bloom.run("merge", "-o", nul.toString(), filter.toString(), filter.toString()).ok();
    Path guava = dir.resolve("g.bloom");
    Bloom.run("create", "-n", "100", "-p", "0.01", "--guava", "-o", guava.toString()).ok();
    Bloom.run("export", "--guava", guava.toString(), "-o", nul.toString()).ok();
    assertThat(fileType(nul)).as("still a character device").isEqualTo(S_IFCHR);
    Bloom.Result update = Bloom.run("add", nul.toString(), "key");
    assertThat(update.exitCode()).isEqualTo(1);
    assertThat(update.stderr()).contains("only a regular filter file can be updated");
    assertThat(fileType(nul)).isEqualTo(S_IFCHR);
  }

  @Test
  void aFifoIsWrittenIntoAndTheReaderGetsTheFilter() throws Exception {
    Path fifo = dir.resolve("pipe");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
      try {
        return Files.readAllBytes(fifo);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, r -> {
      Thread reader = new Thread(r, "fifo reader");
      reader.setDaemon(true); // if the FIFO is replaced, its open never returns
      reader.start();
    });
    Bloom.runWithInput("alice\nbob\n".getBytes(StandardCharsets.UTF_8), "create", "-n", "100", "-p", "0.01", "-o", fifo.toString(),
        "--input", "-").ok();
    assertThat(fileType(fifo)).as("still a FIFO").isEqualTo(S_IFIFO);
    BloomFilter<CharSequence> received = BloomFilter.readFrom(
        new ByteArrayInputStream(read.get(Bloom.TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)),
        Funnels.stringFunnel());
    assertThat(received.mightContain("alice")).isTrue();
    assertThat(received.mightContain("bob")).isTrue();
  }

  /**
   * {@code -o -}, and a link to standard output (made here in the temporary folder, standing for
   * {@code /dev/stdout}, which a regression must never be able to replace).
   */
  @Test
  void standardOutputTakesTheFilterAndTheSummaryGoesToStderr() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("stdout"), Path.of("/proc/self/fd/1"));
    for (String target : new String[] {"-", link.toString()}) {
      Bloom.Result r = Bloom.runWithInput("alice\n".getBytes(StandardCharsets.UTF_8), "create", "-n", "100", "-p", "0.01", "-o", target,
          "--input", "-").ok();
      BloomFilter<CharSequence> f = BloomFilter.readFrom(new ByteArrayInputStream(r.stdout()), Funnels.stringFunnel());
      assertThat(f.mightContain("alice")).isTrue();
      assertThat(r.stderr()).startsWith("created " + target + ": 1 key read");
    }
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void directoriesBlockDevicesAndSocketsAreRefused() throws Exception {
    Path sub = Files.createDirectory(dir.resolve("sub"));
    assertRefused(sub, "is a directory");
    Path socket = dir.resolve("sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      assertRefused(socket, "is a socket");
    }
    // A block device number no driver serves (major 240 is reserved for local use): even a wrong write
    // could reach nothing.
    Path block = mknod("block", "b", 240, 0);
    assertRefused(block, "is a block device");
    assertThat(fileType(block)).isEqualTo(S_IFBLK);
  }

  private void assertRefused(Path target, String reason) {
    Bloom.Result r = Bloom.run("create", "-n", "100", "-p", "0.01", "-o", target.toString());
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr().strip()).isEqualTo("bloom: error: cannot write " + target + ": " + reason
        + (reason.equals("is a directory") ? "" : "; bloom writes regular files, character devices and FIFOs only"));
  }

  /** Before the fix a root add gave the new copy root's ownership: the service owning the file lost it. */
  @Test
  void anUpdateKeepsOwnerGroupAndMode() throws Exception {
    assumeTrue(isRoot(), "chown needs root");
    UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
    UserPrincipal nobody = users.lookupPrincipalByName("nobody");
    GroupPrincipal nogroup = users.lookupPrincipalByGroupName("nogroup");
    PosixFileAttributeView view = Files.getFileAttributeView(filter, PosixFileAttributeView.class);
    view.setOwner(nobody);
    view.setGroup(nogroup);
    view.setPermissions(PosixFilePermissions.fromString("rw-r-----"));

    Bloom.run("add", filter.toString(), "alice").ok();
    Bloom.run("merge", "-o", filter.toString(), filter.toString(), filter.toString()).ok();

    PosixFileAttributes after = Files.readAttributes(filter, PosixFileAttributes.class);
    assertThat(after.owner()).isEqualTo(nobody);
    assertThat(after.group()).isEqualTo(nogroup);
    assertThat(PosixFilePermissions.toString(after.permissions())).isEqualTo("rw-r-----");
    assertThat(Bloom.run("query", filter.toString(), "alice").ok().out()).isEqualTo("alice\tmaybe\n");
  }

  @Test
  void temporariesOfAKilledRunAreRemovedByTheNextUpdate() throws Exception {
    Path stale = Files.write(dir.resolve(".f.bloom.3fa9c01d2e.bloom.tmp"), new byte[] {1, 2, 3});
    Path othersTemp = Files.write(dir.resolve(".f.bloom.x.3fa9c01d2e.bloom.tmp"), new byte[] {1});
    Bloom.run("add", filter.toString(), "alice").ok();
    assertThat(stale).doesNotExist();
    assertThat(othersTemp).as("the temporary of another file, f.bloom.x").exists();
  }

  /**
   * Standard output on a device that refuses writes (mknod'ed like /dev/full: every write fails with
   * ENOSPC). Before the fix every command exited 0 and a query lost the lines it could not write.
   */
  @Test
  void aFailingStandardOutputFailsTheCommand() throws Exception {
    Path full = mknod("full", "c", 1, 7);
    Path keys = Bloom.keysFile(dir.resolve("keys.txt"), Bloom.keys("k", 50_000));
    String[][] commands = {
        {"query", filter.toString(), "alice"},
        {"query", filter.toString(), "--absent", "--input", keys.toString()},
        {"info", filter.toString()},
        {"add", filter.toString(), "bob"},
        {"create", "-n", "10", "-p", "0.1", "-o", dir.resolve("new.bloom").toString()},
        {"--help"},
        {"create", "-n", "10", "-p", "0.1", "-o", "-"}};
    for (String[] args : commands) {
      ProcessBuilder pb = Bloom.command(args).redirectOutput(full.toFile());
      Bloom.Result r = Bloom.run(pb, new byte[0]);
      assertThat(r.exitCode()).as(String.join(" ", args)).isEqualTo(1);
      assertThat(r.stderr().lines()).as(String.join(" ", args))
          .containsExactly("bloom: error: cannot write to standard output: No space left on device");
    }
  }
}
