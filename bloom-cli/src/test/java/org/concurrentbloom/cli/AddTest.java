package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AddTest {
  @TempDir
  Path dir;

  private Path filter;

  @BeforeEach
  void createFilter() throws IOException {
    filter = dir.resolve("f.bloom");
    Path keys = dir.resolve("first.txt");
    Files.writeString(keys, "one\ntwo\n");
    assertThat(CliRunner.run("create", "-n", "1000", "-p", "0.01", "-o", filter.toString(),
        "-i", keys.toString()).exitCode()).isZero();
  }

  @Test
  void addedKeysAreFoundAndEarlierKeysStay() throws IOException {
    Path more = dir.resolve("more.txt");
    Files.writeString(more, "three\nfour\n");

    Result add = CliRunner.run("add", filter.toString(), "--input", more.toString());
    assertThat(add.exitCode()).isZero();
    assertThat(add.err()).isEmpty();
    assertThat(add.out()).startsWith("added 2 keys to " + filter).contains("standard filter of UTF-8 strings, m=9600 bits, k=7");

    Result query = CliRunner.run("query", filter.toString(), "one", "two", "three", "four", "five");
    assertThat(query.outLines()).containsExactly(
        "one\tmaybe", "two\tmaybe", "three\tmaybe", "four\tmaybe", "five\tno");
  }

  @Test
  void addTakesKeyArgumentsAndStandardInput() {
    Result add = CliRunner.runWithStdin("from-stdin\n", "add", filter.toString(), "from-arg", "--input", "-");
    assertThat(add.exitCode()).isZero();
    assertThat(add.out()).startsWith("added 2 keys");

    assertThat(CliRunner.run("query", filter.toString(), "from-arg", "from-stdin").outLines())
        .containsExactly("from-arg\tmaybe", "from-stdin\tmaybe");
  }

  @Test
  void failedAddLeavesTheFileByteForByteUnchanged() throws IOException {
    byte[] before = Files.readAllBytes(filter);

    Result add = CliRunner.run("add", filter.toString(), "new-key", "--input", dir.resolve("missing.txt").toString());

    assertThat(add.exitCode()).isEqualTo(1);
    assertThat(add.errLines()).singleElement().asString()
        .startsWith("bloom: error: cannot read keys from ")
        .contains("missing.txt")
        .contains("no such file");
    assertThat(Files.readAllBytes(filter)).isEqualTo(before);
    assertThat(CliRunner.run("query", filter.toString(), "new-key").outLines()).containsExactly("new-key\tno");
    assertNoTemporaryFilesIn(dir);
  }

  @Test
  void addFailingHalfwayThroughTheInputLeavesTheFileUnchanged() throws IOException {
    byte[] before = Files.readAllBytes(filter);
    Path badInput = dir.resolve("bad.txt");
    byte[] invalidUtf8 = {'o', 'k', '\n', (byte) 0xC3, (byte) 0x28, '\n'};
    Files.write(badInput, invalidUtf8);

    Result add = CliRunner.run("add", filter.toString(), "--input", badInput.toString());

    assertThat(add.exitCode()).isEqualTo(1);
    assertThat(add.errLines()).singleElement().asString().contains("not valid UTF-8").contains("line 2");
    assertThat(Files.readAllBytes(filter)).isEqualTo(before);
    assertNoTemporaryFilesIn(dir);
  }

  @Test
  void addWithoutKeysIsAUsageErrorAndChangesNothing() throws IOException {
    byte[] before = Files.readAllBytes(filter);
    Result add = CliRunner.run("add", filter.toString());
    assertThat(add.exitCode()).isEqualTo(2);
    assertThat(add.errLines()).singleElement().asString().startsWith("bloom: error: no keys to add");
    assertThat(Files.readAllBytes(filter)).isEqualTo(before);
  }

  static void assertNoTemporaryFilesIn(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp"));
    }
  }
}
