package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyInputTest {
  @TempDir
  Path dir;

  private final StringWriter err = new StringWriter();

  private CliStreams streams(String stdin, boolean stderrTerminal) {
    return streams(stdin.getBytes(StandardCharsets.UTF_8), stderrTerminal, false);
  }

  private CliStreams streams(byte[] stdin, boolean stderrTerminal, boolean stdoutTerminal) {
    return new CliStreams(new PrintWriter(new StringWriter()), new ByteArrayOutputStream(), new PrintWriter(err),
        new ByteArrayInputStream(stdin), stderrTerminal, stdoutTerminal);
  }

  @Test
  void readsLinesSkippingEmptyOnesAndKeepingOtherWhitespace() throws Exception {
    Path file = dir.resolve("keys.txt");
    Files.writeString(file, "a\r\n\n b \nü€😀\nlast-without-newline");
    List<String> keys = new ArrayList<>();

    long n = new KeyInput(streams("", false), false).forEach(file.toString(), keys::add);

    assertThat(n).isEqualTo(4);
    assertThat(keys).containsExactly("a", " b ", "ü€😀", "last-without-newline");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void readsStandardInputForDash() throws Exception {
    List<String> keys = new ArrayList<>();
    long n = new KeyInput(streams("x\ny\n", false), false).forEach("-", keys::add);
    assertThat(n).isEqualTo(2);
    assertThat(keys).containsExactly("x", "y");
  }

  @Test
  void drawsAProgressBarOnErrOnlyWhenEnabled() throws Exception {
    Path file = dir.resolve("big.txt");
    StringBuilder content = new StringBuilder();
    for (int i = 0; i < 50_000; i++) {
      content.append("key-").append(i).append('\n');
    }
    Files.writeString(file, content);

    long quiet = new KeyInput(streams("", false), false, 0).forEach(file.toString(), k -> { });
    assertThat(quiet).isEqualTo(50_000);
    assertThat(err.toString()).isEmpty();

    List<String> keys = new ArrayList<>();
    long drawn = new KeyInput(streams("", true), false, 0).forEach(file.toString(), keys::add);
    assertThat(drawn).isEqualTo(50_000);
    assertThat(keys).hasSize(50_000).startsWith("key-0").endsWith("key-49999");
    assertThat(err.toString()).contains("big.txt").contains("50,000 keys").contains("\r");
  }

  /** Results printed to a terminal as they come would have the bar drawn into them: no bar then. */
  @Test
  void noBarWhenResultsStreamToATerminal() throws Exception {
    Path file = dir.resolve("big.txt");
    Files.writeString(file, "key\n".repeat(10_000));
    new KeyInput(streams(new byte[0], true, true), true, 0).forEach(file.toString(), k -> { });
    assertThat(err.toString()).isEmpty();
    new KeyInput(streams(new byte[0], true, true), false, 0).forEach(file.toString(), k -> { });
    assertThat(err.toString()).contains("10,000 keys"); // create/add print only at the end
  }

  /** A byte-order mark is an encoding mark, not part of the first key (Windows editors write one). */
  @Test
  void aLeadingByteOrderMarkIsNotPartOfTheFirstKey() throws Exception {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    byte[] text = "alice\n\uFEFFbob\n".getBytes(StandardCharsets.UTF_8);
    byte[] input = new byte[bom.length + text.length];
    System.arraycopy(bom, 0, input, 0, 3);
    System.arraycopy(text, 0, input, 3, text.length);
    List<String> keys = new ArrayList<>();
    new KeyInput(streams(input, false, false), false).forEach("-", keys::add);
    // Only the mark at the very start is dropped; one inside the input is a character of a key.
    assertThat(keys).containsExactly("alice", "\uFEFFbob");
    Path file = dir.resolve("bom.txt");
    Files.write(file, bom);
    assertThat(new KeyInput(streams("", false), false).forEach(file.toString(), k -> { })).isZero();
  }

  /** An argument the JVM could not decode arrives with U+FFFD; it is refused, pointing to --input. */
  @Test
  void undecodableArgumentsAreRefusedWithAPointerToInput() {
    KeyInput.checkArguments(List.of("alice", "café", " "));
    assertThatThrownBy(() -> KeyInput.checkArguments(List.of("ok", "caf\uFFFD\uFFFD")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("KEY argument 2")
        .hasMessageContaining("--input");
  }

  @Test
  void keysOfTheWrongTypeAreRefusedNamingTheLine() throws Exception {
    Path file = dir.resolve("longs.txt");
    Files.writeString(file, "1\n2\nthree\n");
    KeyInput input = new KeyInput(streams("", false), false);
    assertThatThrownBy(() -> input.forEach(file.toString(), key -> KeyCodec.LONG.parse(key)))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("line 3 of " + file)
        .hasMessageContaining("'three' is not a 64-bit integer");
  }

  @Test
  void smallFilesGetNoBarEvenWhenEnabled() throws Exception {
    Path file = dir.resolve("small.txt");
    Files.writeString(file, "a\nb\n");
    new KeyInput(streams("", true), false).forEach(file.toString(), k -> { });
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void failuresNameTheInput() throws IOException {
    KeyInput input = new KeyInput(streams("", false), false);
    assertThatThrownBy(() -> input.forEach(dir.resolve("missing.txt").toString(), k -> { }))
        .isInstanceOf(CliException.class)
        .hasMessage("cannot read keys from " + dir.resolve("missing.txt") + ": no such file or directory");

    Path latin1 = dir.resolve("latin1.txt");
    Files.write(latin1, "ok\ncaf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> input.forEach(latin1.toString(), k -> { }))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("not valid UTF-8 text at line 2");

    assertThatThrownBy(() -> input.forEach(dir.toString(), k -> { }))
        .isInstanceOf(CliException.class)
        .hasMessageStartingWith("cannot read keys from " + dir + ": ");
  }
}
