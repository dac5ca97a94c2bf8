package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
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

  private CliStreams streams(String stdin, boolean progress) {
    return new CliStreams(new PrintWriter(new StringWriter()), new PrintWriter(err),
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), progress);
  }

  @Test
  void readsLinesSkippingEmptyOnesAndKeepingOtherWhitespace() throws Exception {
    Path file = dir.resolve("keys.txt");
    Files.writeString(file, "a\r\n\n b \nü€😀\nlast-without-newline");
    List<String> keys = new ArrayList<>();

    long n = new KeyInput(streams("", false)).forEach(file.toString(), keys::add);

    assertThat(n).isEqualTo(4);
    assertThat(keys).containsExactly("a", " b ", "ü€😀", "last-without-newline");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void readsStandardInputForDash() throws Exception {
    List<String> keys = new ArrayList<>();
    long n = new KeyInput(streams("x\ny\n", false)).forEach("-", keys::add);
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

    long quiet = new KeyInput(streams("", false), 0).forEach(file.toString(), k -> { });
    assertThat(quiet).isEqualTo(50_000);
    assertThat(err.toString()).isEmpty();

    List<String> keys = new ArrayList<>();
    long drawn = new KeyInput(streams("", true), 0).forEach(file.toString(), keys::add);
    assertThat(drawn).isEqualTo(50_000);
    assertThat(keys).hasSize(50_000).startsWith("key-0").endsWith("key-49999");
    assertThat(err.toString()).contains("big.txt").contains("50,000 keys").contains("\r");
  }

  @Test
  void smallFilesGetNoBarEvenWhenEnabled() throws Exception {
    Path file = dir.resolve("small.txt");
    Files.writeString(file, "a\nb\n");
    new KeyInput(streams("", true)).forEach(file.toString(), k -> { });
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void failuresNameTheInput() throws IOException {
    KeyInput input = new KeyInput(streams("", false));
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
