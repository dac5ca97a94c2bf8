package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ErrorHandlingTest {
  @TempDir
  Path dir;

  private Path filter;

  @BeforeEach
  void createFilter() {
    filter = dir.resolve("f.bloom");
    assertThat(CliRunner.runWithStdin("x\ny\n", "create", "-n", "100", "-p", "0.01", "-o", filter.toString(),
        "-i", "-").exitCode()).isZero();
  }

  /** Exactly one line on stderr, in the bloom: error: form, with no trace of a stack trace. */
  private static void assertOneLineError(Result result, int exitCode) {
    assertThat(result.exitCode()).isEqualTo(exitCode);
    assertThat(result.errLines()).singleElement().asString().startsWith("bloom: error: ");
    assertThat(result.err()).doesNotContain("at org.").doesNotContain("at java.").doesNotContain("Exception");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 5, 20, 60, 150, -1})
  void corruptFileIsReportedInOneLine(int offset) throws IOException {
    byte[] bytes = Files.readAllBytes(filter);
    int at = offset < 0 ? bytes.length - 1 : offset;
    bytes[at] ^= 0x5A;
    Files.write(filter, bytes);

    for (String[] args : new String[][] {
        {"query", filter.toString(), "x"}, {"info", filter.toString()}, {"add", filter.toString(), "z"}}) {
      Result result = CliRunner.run(args);
      assertOneLineError(result, 1);
      assertThat(result.err()).contains("cannot load filter " + filter);
      assertThat(result.out()).isEmpty();
    }
    assertThat(Files.readAllBytes(filter)).isEqualTo(bytes); // the failed add wrote nothing
  }

  @Test
  void truncatedAndOverlongFilesAreReported() throws IOException {
    byte[] bytes = Files.readAllBytes(filter);
    Path truncated = dir.resolve("truncated.bloom");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 10));
    Result t = CliRunner.run("info", truncated.toString());
    assertOneLineError(t, 1);
    assertThat(t.err()).contains("truncated");

    Path overlong = dir.resolve("overlong.bloom");
    Files.write(overlong, Arrays.copyOf(bytes, bytes.length + 3));
    Result o = CliRunner.run("query", overlong.toString(), "x");
    assertOneLineError(o, 1);
    assertThat(o.err()).contains("unexpected bytes after the end of the filter");
  }

  @Test
  void missingFilterFileIsReported() {
    Path missing = dir.resolve("nope.bloom");
    Result result = CliRunner.run("query", missing.toString(), "x");
    assertOneLineError(result, 1);
    assertThat(result.errLines().get(0))
        .isEqualTo("bloom: error: cannot load filter " + missing + ": no such file or directory");
  }

  @Test
  void fppOutOfRangeNamesTheValue() {
    Path out = dir.resolve("bad.bloom");
    Result result = CliRunner.run("create", "--expected", "1000", "--fpp", "2", "-o", out.toString());
    assertOneLineError(result, 2);
    assertThat(result.err()).contains("--fpp 2.0").contains("fpp must be in the open interval (0, 1), was 2.0");
    assertThat(out).doesNotExist();
  }

  @Test
  void zeroExpectedNamesTheValue() {
    Path out = dir.resolve("bad.bloom");
    Result result = CliRunner.run("create", "--expected", "0", "--fpp", "0.01", "-o", out.toString());
    assertOneLineError(result, 2);
    assertThat(result.err()).contains("expectedInsertions must be >= 1, was 0");
    assertThat(out).doesNotExist();
  }

  @Test
  void nonNumericValueIsAUsageError() {
    Result result = CliRunner.run("create", "--expected", "1000", "--fpp", "abc", "-o", "x.bloom");
    assertOneLineError(result, 2);
    assertThat(result.err()).contains("'abc'").contains("bloom create --help");
  }

  @Test
  void unknownCommandsOptionsAndMissingArgumentsAreUsageErrors() {
    assertOneLineError(CliRunner.run("frobnicate"), 2);
    assertOneLineError(CliRunner.run("query", filter.toString(), "--bogus"), 2);
    assertOneLineError(CliRunner.run("create", "--expected", "10"), 2);
    assertOneLineError(CliRunner.run(), 2);
    assertThat(CliRunner.run("qeury").err()).contains("did you mean").contains("query");
  }

  @Test
  void writingIntoAMissingDirectoryIsReported() {
    Path out = dir.resolve("no-such-dir").resolve("f.bloom");
    Result result = CliRunner.run("create", "-n", "10", "-p", "0.1", "-o", out.toString());
    assertOneLineError(result, 1);
    assertThat(result.err()).contains("cannot write " + out);
  }

  @Test
  void helpAndVersionSucceed() {
    Result version = CliRunner.run("--version");
    assertThat(version.exitCode()).isZero();
    assertThat(version.out()).startsWith("bloom ").doesNotContain("${").doesNotContain("unknown");

    for (String command : new String[] {"create", "add", "query", "info", "merge", "demo"}) {
      Result help = CliRunner.run(command, "--help");
      assertThat(help.exitCode()).isZero();
      assertThat(help.out()).startsWith("Usage: bloom " + command);
      assertThat(CliRunner.run("help", command).out()).isEqualTo(help.out());
    }
    assertThat(CliRunner.run("query", "--help").out()).contains("<TAB>maybe").contains("--absent");
    assertThat(CliRunner.run("--help").out()).contains("create", "add", "query", "info", "merge", "demo");
  }
}
