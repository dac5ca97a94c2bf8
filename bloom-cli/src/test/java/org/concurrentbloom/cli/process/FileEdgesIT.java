package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edges of issue 23 where a file's data was at stake, through the launcher: an exit status that
 * said "failed" after the change was committed, file names the JVM cannot decode, filters read from
 * FIFOs, pipes and standard input, hard links, read-only files, and a key type that would have
 * re-recorded a version 1 file. Each test failed before the fix (the comment says how).
 */
class FileEdgesIT {
  @TempDir
  Path dir;

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** A character device like /dev/full (every write fails with ENOSPC), made here, not in /dev. */
  private Path fullDevice() throws Exception {
    assumeTrue(isRoot(), "mknod needs root");
    Path node = dir.resolve("full");
    Process p = new ProcessBuilder("mknod", node.toString(), "c", "1", "7").inheritIO().start();
    assertThat(p.waitFor()).isZero();
    return node;
  }

  /**
   * Before the fix the summary line was printed after the rename: the remove took effect and the run
   * exited 1, so the script's retry took the key out a second time, taking counts from other keys.
   */
  @Test
  void aRunThatCannotPrintItsSummaryChangesNothing() throws Exception {
    Path full = fullDevice();
    Path rf = dir.resolve("rf.bloom");
    Bloom.run("create", "--counting", "-n", "40", "-p", "0.05", "-o", rf.toString()).ok();
    List<String> others = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      others.add("u" + i);
    }
    Bloom.run(Stream.concat(Stream.of("add", rf.toString(), "a"), others.stream()).toArray(String[]::new)).ok();
    byte[] before = Files.readAllBytes(rf);

    String[][] failing = {
        {"remove", rf.toString(), "a"},
        {"add", rf.toString(), "k"},
        {"merge", "-o", rf.toString(), rf.toString(), rf.toString()},
        {"create", "-n", "10", "-p", "0.1", "-o", dir.resolve("new.bloom").toString()}};
    for (String[] args : failing) {
      Bloom.Result r = Bloom.run(Bloom.command(args).redirectOutput(full.toFile()), new byte[0]);
      assertThat(r.exitCode()).as(String.join(" ", args)).isEqualTo(1);
      assertThat(r.stderr().strip()).isEqualTo("bloom: error: cannot write to standard output: No space left on device");
      assertThat(Files.readAllBytes(rf)).as("unchanged after a failed " + args[0]).isEqualTo(before);
    }
    assertThat(dir.resolve("new.bloom")).doesNotExist();

    // The retry a script makes after the failure removes the key once: every other key stays.
    Bloom.run("remove", rf.toString(), "a").ok();
    Path keys = Bloom.keysFile(dir.resolve("others.txt"), others);
    assertThat(Bloom.absent(rf, keys)).isEmpty();
  }

  /**
   * A pipe whose reader has gone: opened read-write, then write-only, then the read-write end closed,
   * so every write fails with EPIPE (no race with a reader's exit, as {@code | true} has).
   */
  @Test
  void aClosedPipeOnStandardOutputChangesNothing() throws IOException {
    Path af = dir.resolve("af.bloom");
    Bloom.run("create", "-n", "100", "-p", "0.01", "-o", af.toString()).ok();
    byte[] before = Files.readAllBytes(af);
    Bloom.Result r = Bloom.shell(dir, "mkfifo p && exec 3<>p 4>p && exec 3<&- && \"$BLOOM\" add af.bloom k >&4; "
        + "echo \"status=$?\"");
    assertThat(r.outLines()).containsExactly("status=141");
    assertThat(Files.readAllBytes(af)).isEqualTo(before);
    assertThat(Bloom.run("query", af.toString(), "k").ok().out()).isEqualTo("k\tno\n");
  }

  /**
   * Before the fix the JVM turned both invalid bytes into U+FFFD: the second create overwrote the first
   * filter, under a third name; under LC_ALL=C a non-ASCII name printed an InvalidPathException.
   */
  @Test
  void fileNamesTheJvmCannotDecodeAreRefused() throws IOException {
    Files.writeString(dir.resolve("keys.txt"), "keyA\n");
    Bloom.Result r = Bloom.shell(dir, "export LC_ALL=C.UTF-8; "
        + "\"$BLOOM\" create -n 10 -p 0.1 -o $'f\\xff.bloom' --input keys.txt; echo \"status=$?\"; "
        + "\"$BLOOM\" create -n 10 -p 0.1 -o $'f\\xfe.bloom'; echo \"status=$?\"; "
        + "\"$BLOOM\" query $'f\\xff.bloom' keyA; echo \"status=$?\"");
    assertThat(r.outLines()).containsExactly("status=2", "status=2", "status=2");
    assertThat(r.stderr().lines()).hasSize(3).allMatch(l -> l.startsWith("bloom: error: ")
        && l.contains("could not decode with the locale's encoding (UTF-8)"));
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("keys.txt");
    }

    Files.createDirectory(dir.resolve("üdir"));
    Bloom.run("create", "-n", "10", "-p", "0.1", "-o", dir.resolve("üdir/f.bloom").toString()).ok();
    Bloom.Result c = Bloom.shell(dir, "LC_ALL=C \"$BLOOM\" query üdir/f.bloom k; echo \"status=$?\"");
    assertThat(c.outLines()).containsExactly("status=2");
    assertThat(c.stderr().lines()).singleElement().asString().startsWith("bloom: error: ")
        .contains("(ANSI_X3.4-1968)").doesNotContain("Exception");
  }

  /**
   * Before the fix the header was peeked by one open and the filter read by a second: a FIFO hung, and
   * a pipe had lost its first 8 bytes ("magic is 0x00000000"); {@code -} was taken as a file name.
   */
  @Test
  void aFilterIsReadOnceFromFifosPipesAndStandardInput() throws IOException {
    Path f = dir.resolve("f.bloom");
    Bloom.run("create", "-n", "100", "-p", "0.01", "-o", f.toString()).ok();
    Bloom.run("add", f.toString(), "k1").ok();
    Path g = dir.resolve("g.bloom");
    Bloom.run("create", "--guava", "-n", "100", "-p", "0.01", "-o", g.toString()).ok();
    Bloom.run("add", g.toString(), "k1").ok();
    Bloom.run("export", "--guava", g.toString(), "-o", dir.resolve("g.guava").toString()).ok();

    Bloom.Result r = Bloom.shell(dir, "set -o pipefail; mkfifo p; (cat f.bloom > p &); "
        + "timeout 60 \"$BLOOM\" info p | grep '^type:'; "
        + "timeout 60 \"$BLOOM\" query <(cat f.bloom) k1 x; "
        + "cat f.bloom | timeout 60 \"$BLOOM\" query /dev/stdin k1; "
        + "cat f.bloom | timeout 60 \"$BLOOM\" query - k1; "
        + "cat f.bloom | timeout 60 \"$BLOOM\" info - | grep '^file size:'; "
        + "cat f.bloom | timeout 60 \"$BLOOM\" merge f.bloom - -o m.bloom >/dev/null && \"$BLOOM\" query m.bloom k1; "
        + "cat g.bloom | timeout 60 \"$BLOOM\" export --guava - -o e.guava >/dev/null && cmp e.guava g.guava && echo same; "
        + "cat g.guava | timeout 60 \"$BLOOM\" import --guava - -o i.bloom >/dev/null && \"$BLOOM\" query i.bloom k1");
    assertThat(r.stderr()).isEmpty();
    assertThat(r.outLines()).containsExactly("type:                   standard Bloom filter", "k1\tmaybe", "x\tno",
        "k1\tmaybe", "k1\tmaybe", "file size:              " + Files.size(f) + " bytes (" + Files.size(f) + " B)",
        "k1\tmaybe", "same", "k1\tmaybe");

    Bloom.Result both = Bloom.runWithInput(Files.readAllBytes(f), "query", "-", "--input", "-");
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.stderr()).contains("cannot both be -");
  }

  /** Before the fix an add through one name renamed a new file over it; the other name kept the old one. */
  @Test
  void aFileWithHardLinksIsNotSplit() throws IOException {
    Path hl1 = dir.resolve("hl1.bloom");
    Bloom.run("create", "-n", "100", "-p", "0.01", "-o", hl1.toString()).ok();
    Path hl2 = Files.createLink(dir.resolve("hl2.bloom"), hl1);
    byte[] before = Files.readAllBytes(hl1);
    for (String[] args : new String[][] {{"add", hl2.toString(), "x"}, {"create", "-n", "10", "-p", "0.1", "-o",
        hl2.toString()}}) {
      Bloom.Result r = Bloom.run(args);
      assertThat(r.exitCode()).isEqualTo(1);
      assertThat(r.stderr().strip()).isEqualTo("bloom: error: cannot write " + hl2 + ": it has 2 hard links "
          + "(names), and bloom replaces a file by renaming a new copy over one name, so the other names would "
          + "keep the old filter; remove the other links (or make them copies or symbolic links) first");
    }
    assertThat(Files.isSameFile(hl1, hl2)).isTrue();
    assertThat(Files.readAllBytes(hl1)).isEqualTo(before);
    assertThat(dir.resolve(".hl2.bloom.lock")).doesNotExist();
  }

  /** Before the fix (as root, whom no mode stops) the rename replaced a mode 444 file silently. */
  @Test
  void aReadOnlyFileIsNotReplaced() throws IOException {
    Path ro = dir.resolve("ro.bloom");
    Bloom.run("create", "--counting", "-n", "100", "-p", "0.01", "-o", ro.toString()).ok();
    Bloom.run("add", ro.toString(), "a").ok();
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r--r--r--"));
    byte[] before = Files.readAllBytes(ro);
    for (String[] args : new String[][] {{"add", ro.toString(), "x"}, {"remove", ro.toString(), "a"},
        {"merge", "-o", ro.toString(), ro.toString(), ro.toString()}}) {
      Bloom.Result r = Bloom.run(args);
      assertThat(r.exitCode()).as(args[0]).isEqualTo(1);
      assertThat(r.stderr().strip()).as(args[0]).isEqualTo("bloom: error: cannot write " + ro + ": it is read-only "
          + "(mode r--r--r--), and bloom would replace it by a rename, which its mode does not prevent; make it "
          + "writable first (chmod u+w) if it may change");
    }
    assertThat(Files.readAllBytes(ro)).isEqualTo(before);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(ro))).isEqualTo("r--r--r--");
  }

  /**
   * Before the fix {@code add v1.bloom -k long 42} rewrote a version 1 file of strings as version 2 of
   * 64-bit integers, and its string keys were refused from then on.
   */
  @Test
  void aVersionOneFileIsNotReRecordedWithAnotherKeyType() throws IOException {
    Path v1 = dir.resolve("v1.bloom");
    Bloom.run("create", "-n", "1000", "-p", "0.001", "--hash-strategy", "1", "-o", v1.toString()).ok();
    Bloom.run("add", v1.toString(), "alpha").ok();
    byte[] bytes = Bloom.toVersion1(v1);

    for (String[] args : new String[][] {{"add", v1.toString(), "-k", "long", "42"},
        {"merge", "-k", "long", "-o", dir.resolve("m.bloom").toString(), v1.toString(), v1.toString()}}) {
      Bloom.Result r = Bloom.run(args);
      assertThat(r.exitCode()).as(args[0]).isEqualTo(1);
      assertThat(r.stderr().lines()).as(args[0]).singleElement().asString()
          .startsWith("bloom: error: " + v1 + " is of format version 1, which does not record its key type")
          .contains("--key-type long");
    }
    assertThat(Files.readAllBytes(v1)).isEqualTo(bytes);
    assertThat(dir.resolve("m.bloom")).doesNotExist();
    // Reading with another key type changes nothing, so it stays allowed.
    assertThat(Bloom.run("query", v1.toString(), "-k", "long", "42").ok().out()).isEqualTo("42\tno\n");

    Bloom.Result add = Bloom.run("add", v1.toString(), "beta").ok();
    assertThat(add.stderr()).contains("writing it back records that (version 2)");
    assertThat(Files.readAllBytes(v1)[4]).isEqualTo((byte) 2);
    assertThat(Bloom.run("query", v1.toString(), "alpha", "beta").ok().out())
        .isEqualTo("alpha\tmaybe\nbeta\tmaybe\n");
    assertThat(new String(Files.readAllBytes(v1), 0, 4, StandardCharsets.US_ASCII)).isEqualTo("CBLM");
  }
}
