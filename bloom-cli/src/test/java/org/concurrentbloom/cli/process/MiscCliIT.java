package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 23, points 8 and 9a, through the launcher: --version on every subcommand, the window's real
 * limit, no doubled "Error:", import of a file of ours, the truncated file's message, a first build
 * that writes no terminal escapes, and scalable filters with blocked layers.
 */
class MiscCliIT {
  /** The commands below the root, each of which lists -V, --version in its help. */
  private static final List<String> SUBCOMMANDS = List.of("create", "add", "query", "remove", "info", "merge",
      "import", "export", "demo", "bench", "demo signup");

  @TempDir
  Path dir;

  // ---------------------------------------------------------------- 8a

  /**
   * The launcher runs bloom on the JDK the tests run on (JAVA_HOME, as for Maven), and the version says
   * which: on the JDK 25 run of CI this is the proof that the process tests ran bloom on JDK 25.
   */
  @Test
  void theVersionNamesTheJavaItRunsOn() {
    assertThat(Bloom.run("--version").ok().out()).startsWith("bloom ")
        .contains("\nJava " + Runtime.version() + " (");
  }

  /** Before: every subcommand printed nothing for -V and --version and exited 0. */
  @Tag("jdk-independent") // picocli's option handling, 3 launches a subcommand (.ci/run)
  @Test
  void everySubcommandPrintsTheVersion() {
    String version = Bloom.run("--version").ok().out();
    assertThat(version).startsWith("bloom ").contains("\nJava ");
    for (String command : SUBCOMMANDS) {
      assertThat(Bloom.run((command + " --help").split(" ")).ok().out()).as("bloom %s --help", command)
          .contains("-V, --version");
      for (String option : List.of("--version", "-V")) {
        Bloom.Result r = Bloom.run((command + " " + option).split(" ")).ok();
        assertThat(r.out()).as("bloom %s %s", command, option).isEqualTo(version);
        assertThat(r.stderr()).as("bloom %s %s", command, option).isEmpty();
      }
    }
  }

  // ---------------------------------------------------------------- 8b

  /** Before: "window must be at most 9223372036854775807 ms, was PT2562047788015200H", a limit of no use. */
  @ParameterizedTest
  @CsvSource({
      "106751991167300d, 416999965d (36028797018963967 ms)",
      "416999966d, 416999965d (36028797018963967 ms)",
      "99999999999999999999d, 416999965d (36028797018963967 ms)",
      "10007999172h, 10007999171h (36028797018963967 ms)",
      "36028797018963968ms, 36028797018963967ms",
      "PT2562047788015200H, PT10007999171H56M3.967S (36028797018963967 ms)"})
  void aWindowPastTheLimitNamesTheRealLimitInTheUnitGiven(String window, String limit) {
    Path f = dir.resolve("w.bloom");
    Bloom.Result r = Bloom.run("create", "-n", "10", "-p", "0.01", "-o", f.toString(), "--window", window);
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).isEqualTo("bloom: error: Invalid value for option '--window': window '" + window
        + "' is too long: an expiring filter's window is at most " + limit + " (see 'bloom create --help')\n");
    assertThat(f).doesNotExist();
  }

  /** The limit named is the real one: a window of exactly that many days (or ms) is taken. */
  @ParameterizedTest
  @ValueSource(strings = {"416999965d", "36028797018963967ms"})
  void theLongestWindowNamedIsTaken(String window) {
    Path f = dir.resolve("w.bloom");
    Bloom.run("create", "-n", "10", "-p", "0.01", "-o", f.toString(), "--window", window).ok();
    Bloom.run("add", f.toString(), "k").ok();
    assertThat(Bloom.run("query", f.toString(), "k").ok().out()).isEqualTo("k\tmaybe\n");
  }

  // ---------------------------------------------------------------- 8c

  /** Before: "bloom: error: Error: --counting, --scalable are mutually exclusive (specify only one)". */
  @ParameterizedTest
  @CsvSource({"--counting, --scalable", "--guava, --counting", "--scalable, --guava"})
  void exclusiveOptionsAreReportedWithoutASecondError(String first, String second) {
    Bloom.Result r = Bloom.run("create", "-n", "10", "-p", "0.01", "-o", dir.resolve("x.bloom").toString(), first,
        second);
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).startsWith("bloom: error: ").doesNotContain("Error:").contains("mutually exclusive")
        .endsWith(" (see 'bloom create --help')\n").hasLineCount(1);
  }

  // ---------------------------------------------------------------- 8d

  /** Before: "unsupported Guava strategy ordinal 67; only 1 (MURMUR128_MITZ_64) and 0 ... are supported". */
  @ParameterizedTest
  @ValueSource(strings = {"standard", "blocked", "guava", "counting", "scalable"})
  void importingOneOfOurFilesSaysItNeedsNoImport(String type) {
    Path ours = dir.resolve(type + ".bloom");
    String[] create = {"create", "-n", "1000", "-p", "0.01", "-o", ours.toString()};
    Bloom.run(type.equals("standard") ? create : concat(create, "--" + type)).ok();
    Path out = dir.resolve("imported.bloom");
    Bloom.Result r = Bloom.run("import", "--guava", ours.toString(), "-o", out.toString());
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr()).isEqualTo("bloom: error: cannot load filter " + ours + ": it is already a concurrent-bloom "
        + "filter file (it starts with CBLM), not one written by Guava: it needs no import, every bloom command "
        + "reads it as it is\n");
    assertThat(out).doesNotExist();
  }

  // ---------------------------------------------------------------- 8e

  /** Before: "truncated filter: the stream ended after 48 of 8192 bytes of the payload word 0 of 14977". */
  @Test
  void aTruncatedFileSaysHowMuchOfTheBitArrayItHolds() throws IOException {
    Path f = dir.resolve("t.bloom");
    Bloom.run("create", "-n", "100000", "-p", "0.01", "-o", f.toString()).ok();
    byte[] whole = Files.readAllBytes(f);
    long bitArrayBytes = whole.length - 52L - 4; // the header, the bit array, the CRC32C trailer
    Files.write(f, Arrays.copyOf(whole, 52 + 48));
    for (String command : List.of("query", "add")) {
      Bloom.Result r = Bloom.run(command, f.toString(), "k");
      assertThat(r.exitCode()).isEqualTo(1);
      assertThat(r.stderr()).isEqualTo("bloom: error: cannot load filter " + f + ": truncated filter: it ends after "
          + "48 bytes of the bit array, which the header says holds " + bitArrayBytes + " bytes\n");
    }
    Files.write(f, Arrays.copyOf(whole, 30));
    assertThat(Bloom.run("info", f.toString()).stderr()).isEqualTo("bloom: error: cannot load filter " + f
        + ": truncated filter: it ends after 30 of the 52 bytes of the header\n");
  }

  // ---------------------------------------------------------------- 8f

  /**
   * The launcher's first build, in a copy of it whose checkout has no jar, with a fake {@code mvn} on the
   * PATH that writes what Maven 3.8's Jansi writes (a colour reset ESC[0m on both streams, twice) and a
   * coloured line, then puts the real jar in place. Nothing with an escape reaches the launcher's
   * standard error; the Maven text does; Jansi is told not to reset; a failed build still fails. Before:
   * the launcher passed all of it through ("^[[0m^[[0m^[[0m^[[0m" on a first {@code ./bloom --version}).
   */
  @Test
  void theFirstBuildWritesNoTerminalEscapesToStandardError() throws IOException {
    Path root = dir.resolve("checkout");
    for (String module : List.of("bloom-core", "bloom-guard", "bloom-cli")) {
      Files.createDirectories(root.resolve(module).resolve("src/main"));
      Files.writeString(root.resolve(module).resolve("pom.xml"), "<project/>\n");
    }
    Files.writeString(root.resolve("pom.xml"), "<project/>\n");
    Path launcher = Files.copy(Bloom.LAUNCHER, root.resolve("bloom"));
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path log = dir.resolve("maven-opts.txt");
    Path mvn = bin.resolve("mvn");
    Files.writeString(mvn, """
        #!/usr/bin/env bash
        printf '%s\\n' "${MAVEN_OPTS:-}" > "$FAKE_MAVEN_LOG"
        printf '\\033[0m\\033[0m'; printf '\\033[0m\\033[0m' >&2
        printf '\\033[1;33m[WARNING]\\033[m a warning of the build\\n' >&2
        if [ -n "${FAKE_MAVEN_FAILS:-}" ]; then printf '[ERROR] it failed\\n'; exit 1; fi
        mkdir -p bloom-cli/target && cp "$FAKE_MAVEN_JAR" bloom-cli/target/bloom-cli.jar
        printf '\\033[0m\\033[0m'; printf '\\033[0m\\033[0m' >&2
        """);
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));

    ProcessBuilder failing = firstBuild(launcher, bin, log);
    failing.environment().put("FAKE_MAVEN_FAILS", "1");
    Bloom.Result failed = Bloom.run(failing, new byte[0]);
    assertThat(failed.exitCode()).isEqualTo(1);
    assertThat(failed.stderr()).doesNotContain("\u001b").contains("[WARNING] a warning of the build\n")
        .contains("[ERROR] it failed\n").endsWith("bloom: error: the build failed (see the Maven output above)\n");
    assertThat(failed.stdout()).isEmpty();

    Bloom.Result built = Bloom.run(firstBuild(launcher, bin, log), new byte[0]).ok();
    assertThat(built.out()).startsWith("bloom ");
    assertThat(built.stderr()).doesNotContain("\u001b")
        .isEqualTo("bloom: building " + root.toRealPath().resolve("bloom-cli/target/bloom-cli.jar") + " ...\n"
            + "[WARNING] a warning of the build\n");
    assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains("-Djansi.noreset=true");
  }

  /** {@code bloom --version} by the launcher copy, building its jar with the fake {@code mvn}. */
  private static ProcessBuilder firstBuild(Path launcher, Path bin, Path log) {
    ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "--version");
    Map<String, String> env = pb.environment();
    env.remove("BLOOM_JAR");
    env.remove("BLOOM_JAVA_OPTS");
    env.remove("MAVEN_OPTS");
    env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("FAKE_MAVEN_LOG", log.toString());
    env.put("FAKE_MAVEN_JAR", Bloom.JAR.toString());
    return pb;
  }

  // ---------------------------------------------------------------- 9a

  /** Before: "bloom: error: Error: --blocked, --scalable are mutually exclusive (specify only one)". */
  @Test
  void aScalableFilterWithBlockedLayers() throws IOException {
    List<String> first = Bloom.keys("a", 3_000);
    List<String> second = Bloom.keys("b", 3_000);
    List<String> never = Bloom.keys("never", 3_000);
    Path firstKeys = Bloom.keysFile(dir.resolve("first.txt"), first);
    Path secondKeys = Bloom.keysFile(dir.resolve("second.txt"), second);
    Path neverKeys = Bloom.keysFile(dir.resolve("never.txt"), never);
    Path f = dir.resolve("sb.bloom");

    Bloom.Result created = Bloom.run("create", "--scalable", "--blocked", "--initial", "1000", "-p", "0.01", "-o",
        f.toString(), "--input", firstKeys.toString()).ok();
    assertThat(created.out()).startsWith("created " + f + ": 3,000 keys read, scalable filter of UTF-8 strings, ")
        .contains(" blocked layers, ");
    Bloom.run("add", f.toString(), "--input", secondKeys.toString()).ok();
    assertThat(Bloom.absent(f, firstKeys)).isEmpty();
    assertThat(Bloom.absent(f, secondKeys)).isEmpty();
    int falsePositives = never.size() - Bloom.absent(f, neverKeys).size();
    assertThat(falsePositives).as("false positives of 3,000 at p = 1%%: mean under 30").isLessThan(75);

    String info = Bloom.run("info", f.toString()).ok().out();
    assertThat(info).contains("type:                   scalable Bloom filter\n")
        .contains("hash strategy:          5 (XXH3_64_BLOCKED)\n").containsPattern("layers: +[0-9]+ \\(blocked\\)\n");

    // As for every scalable filter: merging would overfill the layers.
    Bloom.Result merge = Bloom.run("merge", "-o", dir.resolve("m.bloom").toString(), f.toString(), f.toString());
    assertThat(merge.exitCode()).isEqualTo(1);
    assertThat(merge.stderr()).contains("scalable filters cannot be merged");

    Path murmur = dir.resolve("murmur.bloom");
    Bloom.run("create", "--scalable", "--blocked", "--hash-strategy", "murmur3", "-p", "0.01", "-o",
        murmur.toString(), "--input", firstKeys.toString()).ok();
    assertThat(Bloom.run("info", murmur.toString()).ok().out()).contains("hash strategy:          2 (MURMUR3_128_BLOCKED)");
    assertThat(Bloom.absent(murmur, firstKeys)).isEmpty();

    Bloom.Result standardStrategy = Bloom.run("create", "--scalable", "--blocked", "--hash-strategy", "4", "-p", "0.01",
        "-o", dir.resolve("x.bloom").toString());
    assertThat(standardStrategy.exitCode()).isEqualTo(2);
    assertThat(standardStrategy.stderr()).contains("--hash-strategy 4 (XXH3_64_ENHANCED_DOUBLE) is not for blocked "
        + "filters: they take 6 (XXH3_64_WORD_PAIR) or 2 (MURMUR3_128_BLOCKED) or 5 (XXH3_64_BLOCKED)");
  }

  /** --blocked goes with standard and scalable filters only; the message names both options. */
  @ParameterizedTest
  @ValueSource(strings = {"--guava", "--counting"})
  void blockedIsRefusedWithTheOtherTypes(String other) {
    Bloom.Result r = Bloom.run("create", "-n", "10", "-p", "0.01", "-o", dir.resolve("x.bloom").toString(),
        "--blocked", other);
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).isEqualTo("bloom: error: --blocked cannot be combined with " + other + ": blocked is a "
        + "layout of standard filters and of --scalable filters' layers only (see 'bloom create --help')\n");
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
