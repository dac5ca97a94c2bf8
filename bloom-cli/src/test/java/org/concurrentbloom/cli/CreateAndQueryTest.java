package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CreateAndQueryTest {
  @TempDir
  Path dir;

  private Path keysFile(String name, List<String> keys) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, String.join("\n", keys) + "\n");
    return file;
  }

  private static List<String> keys(String prefix, int n) {
    return IntStream.range(0, n).mapToObj(i -> prefix + i + "@example.com").collect(Collectors.toList());
  }

  @Test
  void createFromFileThenQueryPrintsMaybeForInsertedKeys() throws IOException {
    Path input = keysFile("keys.txt", List.of("alice@example.com", "bob@example.com", "carol@example.com"));
    Path filter = dir.resolve("f.bloom");

    Result created = CliRunner.run("create", "--expected", "1000", "--fpp", "0.01", "-o", filter.toString(),
        "--input", input.toString());

    assertThat(created.exitCode()).isZero();
    assertThat(created.err()).isEmpty();
    assertThat(created.out()).contains("3 keys read");
    assertThat(filter).isRegularFile();

    Result query = CliRunner.run("query", filter.toString(), "alice@example.com", "bob@example.com",
        "carol@example.com");
    assertThat(query.exitCode()).isZero();
    assertThat(query.outLines()).containsExactly(
        "alice@example.com\tmaybe", "bob@example.com\tmaybe", "carol@example.com\tmaybe");
  }

  @Test
  void blockedFiltersAreCreatedQueriedAndDescribed() throws IOException {
    Path input = keysFile("keys.txt", keys("user", 500));
    Path filter = dir.resolve("b.bloom");
    assertThat(CliRunner.run("create", "--blocked", "-n", "1000", "-p", "0.01", "-o", filter.toString(),
        "-i", input.toString()).exitCode()).isZero();
    Result query = CliRunner.run("query", filter.toString(), "user7@example.com");
    assertThat(query.outLines()).containsExactly("user7@example.com\tmaybe");
    Result info = CliRunner.run("info", filter.toString());
    assertThat(info.out()).contains("blocked Bloom filter").contains("UTF-8 strings");
    long bits = info.outLines().stream().filter(line -> line.startsWith("bits (m):"))
        .map(line -> Long.parseLong(line.substring("bits (m):".length()).strip())).findFirst().orElseThrow();
    assertThat(bits % 512).as("whole 512-bit blocks").isZero();
  }

  @Test
  void queryAnswersNoForMostNeverAddedKeysAndAbsentPrintsOnlyThose() throws IOException {
    List<String> inserted = keys("in", 500);
    List<String> others = keys("out", 500);
    Path filter = dir.resolve("f.bloom");
    assertThat(CliRunner.run("create", "-n", "500", "-p", "0.01", "-o", filter.toString(),
        "-i", keysFile("in.txt", inserted).toString()).exitCode()).isZero();
    Path mixed = keysFile("mixed.txt", concat(inserted, others));

    Result all = CliRunner.run("query", filter.toString(), "--input", mixed.toString());
    assertThat(all.exitCode()).isZero();
    List<String> lines = all.outLines();
    assertThat(lines).hasSize(1000);
    assertThat(lines.subList(0, 500)).allSatisfy(line -> assertThat(line).endsWith("\tmaybe"));
    long noAnswers = lines.subList(500, 1000).stream().filter(l -> l.endsWith("\tno")).count();
    assertThat(noAnswers).isGreaterThan(470); // fpp 1%: a handful of false positives at most

    Result absent = CliRunner.run("query", filter.toString(), "--absent", "--input", mixed.toString());
    assertThat(absent.exitCode()).isZero();
    assertThat(absent.outLines()).hasSize((int) noAnswers)
        .allSatisfy(key -> assertThat(others).contains(key))
        .doesNotContainAnyElementsOf(inserted);
    List<String> expectedAbsent = lines.stream().filter(l -> l.endsWith("\tno"))
        .map(l -> l.substring(0, l.indexOf('\t'))).toList();
    assertThat(absent.outLines()).containsExactlyElementsOf(expectedAbsent);
  }

  @Test
  void createReadsStandardInputWithDash() {
    Path filter = dir.resolve("stdin.bloom");
    Result created = CliRunner.runWithStdin("a\nb\r\n\nc\n", "create", "--expected", "100", "--fpp", "0.001",
        "-o", filter.toString(), "--input", "-");
    assertThat(created.exitCode()).isZero();
    assertThat(created.out()).contains("3 keys read"); // the empty line is skipped, CRLF is a line end

    Result query = CliRunner.run("query", filter.toString(), "a", "b", "c", "zzz");
    assertThat(query.outLines()).containsExactly("a\tmaybe", "b\tmaybe", "c\tmaybe", "zzz\tno");
  }

  @Test
  void createWithoutInputMakesAnEmptyFilter() {
    Path filter = dir.resolve("empty.bloom");
    assertThat(CliRunner.run("create", "-n", "10", "-p", "0.1", "-o", filter.toString()).exitCode()).isZero();

    Result absent = CliRunner.run("query", "--absent", filter.toString(), "x", "y");
    assertThat(absent.outLines()).containsExactly("x", "y");
  }

  @Test
  void queryKeysMayComeFromArgumentsAndStandardInputTogether() throws IOException {
    Path filter = dir.resolve("f.bloom");
    CliRunner.run("create", "-n", "10", "-p", "0.01", "-o", filter.toString(),
        "-i", keysFile("k.txt", List.of("k1", "k2")).toString());

    Result query = CliRunner.runWithStdin("k2\nnope\n", "query", filter.toString(), "k1", "--input", "-");
    assertThat(query.outLines()).containsExactly("k1\tmaybe", "k2\tmaybe", "nope\tno");
  }

  @Test
  void overfillingAFilterSucceedsWithAOneLineWarning() throws IOException {
    Path filter = dir.resolve("small.bloom");
    Result created = CliRunner.run("create", "-n", "10", "-p", "0.01", "-o", filter.toString(),
        "-i", keysFile("many.txt", keys("k", 100)).toString());

    assertThat(created.exitCode()).isZero();
    assertThat(created.errLines()).singleElement().asString()
        .startsWith("bloom: warning: " + filter + " has a false-positive rate of about")
        .contains("more than the 10 it was sized for");
  }

  @Test
  void queryWithoutKeysIsAUsageError() throws IOException {
    Path filter = dir.resolve("f.bloom");
    CliRunner.run("create", "-n", "10", "-p", "0.01", "-o", filter.toString());

    Result query = CliRunner.run("query", filter.toString());
    assertThat(query.exitCode()).isEqualTo(2);
    assertThat(query.errLines()).singleElement().asString().startsWith("bloom: error: no keys to query");
    assertThat(query.out()).isEmpty();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
