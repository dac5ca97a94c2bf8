package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/CLI.md, through the launcher: every form of a key that the document says is accepted is the key it
 * says, and every form it says is refused is refused with its message and exit status, leaving the file
 * as it was.
 */
class KeySyntaxIT {
  private static final String LONG_MESSAGE = "is not a 64-bit integer (a decimal 64-bit integer, e.g. -42)";
  private static final String INT_MESSAGE = "is not a 32-bit integer (a decimal 32-bit integer, e.g. -42)";
  private static final String BYTES_MESSAGE =
      "is not a byte string in hexadecimal (hexadecimal, two digits a byte, e.g. 00ff10)";

  @TempDir
  Path dir;

  /**
   * Runs {@code bloom args} as {@link Bloom#run} does, but through bash under {@code LC_ALL=C.UTF-8}, each
   * argument written as a bash {@code $'...'} string of its UTF-8 bytes in {@code \\xNN} escapes: so the
   * non-ASCII keys reach the launcher intact whatever the locale of the JVM that runs the tests.
   */
  private Bloom.Result runWithInput(byte[] stdin, String... args) {
    StringBuilder script = new StringBuilder("LC_ALL=C.UTF-8 exec \"$BLOOM\"");
    for (String arg : args) {
      script.append(" $'");
      for (byte b : arg.getBytes(StandardCharsets.UTF_8)) {
        script.append("\\x").append(HexFormat.of().toHexDigits(b));
      }
      script.append('\'');
    }
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", script.toString()).directory(dir.toFile());
    pb.environment().put("BLOOM_JAR", Bloom.JAR.toString());
    pb.environment().put("BLOOM", Bloom.LAUNCHER.toString());
    pb.environment().remove("BLOOM_JAVA_OPTS");
    pb.environment().remove("COLUMNS");
    return Bloom.run(pb, stdin);
  }

  private Bloom.Result run(String... args) {
    return runWithInput(new byte[0], args);
  }

  private Path create(String name, String keyType) {
    Path f = dir.resolve(name);
    run("create", "-n", "1000", "-p", "0.001", "--key-type", keyType, "-o", f.toString()).ok();
    return f;
  }

  /** The answers of {@code query f -- keys...}, one "key\tmaybe" or "key\tno" per key. */
  private List<String> query(Path f, String... keys) {
    List<String> args = new ArrayList<>(List.of("query", f.toString(), "--"));
    args.addAll(List.of(keys));
    return run(args.toArray(String[]::new)).ok().outLines();
  }

  private static List<String> answers(String answer, String... keys) {
    List<String> lines = new ArrayList<>();
    for (String key : keys) {
      lines.add(key + "\t" + answer);
    }
    return lines;
  }

  /**
   * {@code add f -- key} is a usage error whose one line names the key and {@code message}; the file is
   * unchanged.
   */
  private void assertRefused(Path f, String key, String message) throws IOException {
    byte[] before = Files.readAllBytes(f);
    Bloom.Result r = run("add", f.toString(), "--", key);
    assertThat(r.exitCode()).as("exit status of add '%s'; stderr: %s", key, r.stderr()).isEqualTo(2);
    assertThat(r.stderr()).as("stderr of add '%s'", key)
        .isEqualTo("bloom: error: '" + key + "' " + message + " (see 'bloom add --help')\n");
    assertThat(Files.readAllBytes(f)).as("the file after add '%s'", key).isEqualTo(before);
  }

  @Test
  void longKeysTakeASignLeadingZerosAndUnicodeDigitsWithinTheRange() {
    Path f = create("longs.bloom", "long");
    run("add", f.toString(), "42", "0", "9223372036854775807", "-9223372036854775808").ok();
    assertThat(query(f, "42", "+42", "0042", "+0042", "٤٢", "４２", "0", "-0", "+0", "00",
        "9223372036854775807", "-9223372036854775808"))
        .containsExactlyElementsOf(answers("maybe", "42", "+42", "0042", "+0042", "٤٢", "４２", "0", "-0", "+0", "00",
            "9223372036854775807", "-9223372036854775808"));
    assertThat(query(f, "43", "-42")).containsExactlyElementsOf(answers("no", "43", "-42"));
    // A negative number is a key even without "--".
    run("add", f.toString(), "-42").ok();
    assertThat(run("query", f.toString(), "-42", "-0042").ok().outLines())
        .containsExactlyElementsOf(answers("maybe", "-42", "-0042"));
  }

  @Test
  void longKeysRefuseEverythingElse() throws IOException {
    Path f = create("longs.bloom", "long");
    for (String key : List.of("", " 42", "42 ", "42\t", "+", "-", "+-1", "−42", "＋42", "4_2", "1,000", "0x2a", "42L",
        "1e3", "4.0", "9223372036854775808", "-9223372036854775809")) {
      assertRefused(f, key, LONG_MESSAGE);
    }
  }

  @Test
  void intKeysTakeTheSameFormsWithinTheirOwnRange() throws IOException {
    Path f = create("ints.bloom", "int");
    run("add", f.toString(), "--", "7", "2147483647", "-2147483648").ok();
    assertThat(query(f, "7", "+7", "007", "2147483647", "-2147483648"))
        .containsExactlyElementsOf(answers("maybe", "7", "+7", "007", "2147483647", "-2147483648"));
    for (String key : List.of("", " 1", "2147483648", "-2147483649", "0x7")) {
      assertRefused(f, key, INT_MESSAGE);
    }
  }

  @Test
  void byteKeysAreHexadecimalOfAnyCaseAndTheEmptyArgumentIsTheEmptyByteString() throws IOException {
    Path f = create("bytes.bloom", "bytes");
    run("add", f.toString(), "00ff10").ok();
    assertThat(query(f, "00ff10", "00FF10", "00Ff10")).containsExactlyElementsOf(answers("maybe", "00ff10", "00FF10",
        "00Ff10"));
    assertThat(query(f, "00ff11", "", "00")).containsExactlyElementsOf(answers("no", "00ff11", "", "00"));
    run("add", f.toString(), "").ok();
    assertThat(query(f, "", "00")).containsExactly("\tmaybe", "00\tno");
    for (String key : List.of("0", "abc", "0x00", "00 ff", "00:ff", " 00", "gg", "ｆｆ")) {
      assertRefused(f, key, BYTES_MESSAGE);
    }
  }

  @Test
  void emptyLinesOfInputAreSkippedForEveryTypeAndAnEmptyArgumentIsAStringKey() throws IOException {
    byte[] emptyLines = "\n\r\n\n".getBytes(StandardCharsets.UTF_8);
    for (String type : List.of("string", "bytes", "long", "int")) {
      Path f = create(type + ".bloom", type);
      byte[] before = Files.readAllBytes(f);
      assertThat(runWithInput(emptyLines, "add", f.toString(), "--input", "-").ok().out())
          .as("add --input of empty lines, %s", type).startsWith("added 0 keys to ");
      assertThat(Files.readAllBytes(f)).as("%s file after adding no keys", type).isEqualTo(before);
    }
    Path strings = dir.resolve("string.bloom");
    assertThat(query(strings, "")).containsExactly("\tno");
    run("add", strings.toString(), "").ok();
    assertThat(query(strings, "", " ")).containsExactly("\tmaybe", " \tno");
    assertRefused(dir.resolve("long.bloom"), "", LONG_MESSAGE);
    assertRefused(dir.resolve("int.bloom"), "", INT_MESSAGE);
  }

  @Test
  void aLineOfSpacesIsAKeyOnlyForStrings() {
    Path f = create("longs.bloom", "long");
    Bloom.Result r = runWithInput("  \n".getBytes(StandardCharsets.UTF_8), "query", f.toString(), "--input", "-");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr()).isEqualTo("bloom: error: line 1 of standard input: '  ' " + LONG_MESSAGE + "\n");
    Path b = create("bytes.bloom", "bytes");
    Bloom.Result rb = runWithInput("  \n".getBytes(StandardCharsets.UTF_8), "query", b.toString(), "--input", "-");
    assertThat(rb.exitCode()).isEqualTo(1);
    assertThat(rb.stderr()).isEqualTo("bloom: error: line 1 of standard input: '  ' " + BYTES_MESSAGE + "\n");
  }

  @Test
  void aDashKeyNeedsTheDoubleDashAfterWhichEveryArgumentIsAKey() {
    Path f = create("strings.bloom", "string");
    Bloom.Result option = run("add", f.toString(), "-x");
    assertThat(option.exitCode()).isEqualTo(2);
    assertThat(option.stderr()).isEqualTo("bloom: error: Unknown option: '-x' (see 'bloom add --help')\n");
    run("add", f.toString(), "--", "-x", "--input").ok();
    assertThat(query(f, "-x", "--input", "x")).containsExactly("-x\tmaybe", "--input\tmaybe", "x\tno");
  }

  @Test
  void keyTypeNamesAreCaseInsensitiveAndAnUnknownOneIsAUsageError() {
    Path f = dir.resolve("upper.bloom");
    run("create", "-n", "100", "-p", "0.01", "--key-type", "LONG", "-o", f.toString()).ok();
    assertThat(run("info", f.toString()).ok().out()).contains("64-bit integers");
    Path g = dir.resolve("unknown.bloom");
    Bloom.Result r = run("create", "-n", "100", "-p", "0.01", "--key-type", "integer", "-o", g.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).isEqualTo("bloom: error: Invalid value for option '--key-type': unknown key type 'integer';"
        + " use one of string, long, int, bytes (see 'bloom create --help')\n");
    assertThat(g).doesNotExist();
  }

  /**
   * A bad line of --input: exit 1, one line naming the line; create, add and remove write nothing (the
   * keys before it included), query has answered the lines before it; with query --quiet, exit 2.
   */
  @Test
  void aBadInputLineFailsTheCommandAndWritesNothing() throws IOException {
    byte[] lines = "1\n 2\n3\n".getBytes(StandardCharsets.UTF_8);
    String message = "bloom: error: line 2 of standard input: ' 2' " + LONG_MESSAGE + "\n";
    Path created = dir.resolve("created.bloom");
    Bloom.Result c = runWithInput(lines, "create", "-n", "100", "-p", "0.01", "-k", "long", "-o",
        created.toString(), "--input", "-");
    assertThat(c.exitCode()).isEqualTo(1);
    assertThat(c.stderr()).isEqualTo(message);
    assertThat(created).doesNotExist();

    Path f = create("longs.bloom", "long");
    byte[] before = Files.readAllBytes(f);
    Bloom.Result add = runWithInput(lines, "add", f.toString(), "--input", "-");
    assertThat(add.exitCode()).isEqualTo(1);
    assertThat(add.stderr()).isEqualTo(message);
    assertThat(Files.readAllBytes(f)).isEqualTo(before);
    assertThat(query(f, "1")).containsExactly("1\tno");

    Bloom.Result q = runWithInput(lines, "query", f.toString(), "--input", "-");
    assertThat(q.exitCode()).isEqualTo(1);
    assertThat(q.outLines()).containsExactly("1\tno");
    assertThat(q.stderr()).isEqualTo(message);
    // --quiet stops at the first absent key, so here the bad line comes first.
    Bloom.Result quiet = runWithInput("x\n1\n".getBytes(StandardCharsets.UTF_8), "query", "--quiet", f.toString(),
        "--input", "-");
    assertThat(quiet.exitCode()).isEqualTo(2);
    assertThat(quiet.stderr()).isEqualTo("bloom: error: line 1 of standard input: 'x' " + LONG_MESSAGE + "\n");
    // A bad KEY argument: no answer at all, exit 2.
    Bloom.Result arg = run("query", f.toString(), "1", " 2");
    assertThat(arg.exitCode()).isEqualTo(2);
    assertThat(arg.out()).isEmpty();

    Path counting = dir.resolve("counting.bloom");
    run("create", "--counting", "-n", "100", "-p", "0.01", "-k", "long", "-o", counting.toString()).ok();
    run("add", counting.toString(), "1", "3").ok();
    byte[] full = Files.readAllBytes(counting);
    Bloom.Result remove = runWithInput(lines, "remove", counting.toString(), "--input", "-");
    assertThat(remove.exitCode()).isEqualTo(1);
    assertThat(remove.stderr()).isEqualTo(message);
    assertThat(Files.readAllBytes(counting)).isEqualTo(full);
  }
}
