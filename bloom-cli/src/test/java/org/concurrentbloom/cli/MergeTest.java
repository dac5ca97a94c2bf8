package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeTest {
  @TempDir
  Path dir;

  private Path filterOf(String name, String expected, String fpp, String... keys) throws IOException {
    Path input = dir.resolve(name + ".txt");
    Files.write(input, List.of(keys));
    Path filter = dir.resolve(name + ".bloom");
    Result created = CliRunner.run("create", "--expected", expected, "--fpp", fpp, "-o", filter.toString(),
        "--input", input.toString());
    assertThat(created.exitCode()).as(created.err()).isZero();
    return filter;
  }

  @Test
  void mergedFilterContainsBothKeySets() throws IOException {
    Path a = filterOf("a", "1000", "0.01", "a1", "a2", "a3");
    Path b = filterOf("b", "1000", "0.01", "b1", "b2");
    Path out = dir.resolve("out.bloom");

    Result merge = CliRunner.run("merge", "-o", out.toString(), a.toString(), b.toString());

    assertThat(merge.exitCode()).isZero();
    assertThat(merge.err()).isEmpty();
    assertThat(merge.out()).startsWith("merged 2 filters into " + out).contains("standard filter of UTF-8 strings");
    assertThat(CliRunner.run("query", out.toString(), "a1", "a2", "a3", "b1", "b2", "c1").outLines())
        .containsExactly("a1\tmaybe", "a2\tmaybe", "a3\tmaybe", "b1\tmaybe", "b2\tmaybe", "c1\tno");
    // the inputs are not modified
    assertThat(CliRunner.run("query", a.toString(), "b1").outLines()).containsExactly("b1\tno");
  }

  @Test
  void outputMayBeOneOfTheInputs() throws IOException {
    Path a = filterOf("a", "1000", "0.01", "a1");
    Path b = filterOf("b", "1000", "0.01", "b1");
    Path c = filterOf("c", "1000", "0.01", "c1");

    Result merge = CliRunner.run("merge", "-o", a.toString(), a.toString(), b.toString(), c.toString());

    assertThat(merge.exitCode()).isZero();
    assertThat(CliRunner.run("query", a.toString(), "a1", "b1", "c1").outLines())
        .containsExactly("a1\tmaybe", "b1\tmaybe", "c1\tmaybe");
    AddTest.assertNoTemporaryFilesIn(dir);
  }

  @Test
  void incompatibleFiltersFailWithOneLineAndLeaveOutputUntouched() throws IOException {
    Path a = filterOf("a", "1000", "0.01", "a1");
    Path b = filterOf("b", "5000", "0.01", "b1");
    byte[] aBefore = Files.readAllBytes(a);

    Result intoA = CliRunner.run("merge", "-o", a.toString(), a.toString(), b.toString());

    assertThat(intoA.exitCode()).isEqualTo(1);
    assertThat(intoA.out()).isEmpty();
    assertThat(intoA.errLines()).singleElement().asString()
        .startsWith("bloom: error: cannot merge " + b + " into " + a)
        .contains("m=9600")
        .contains("same --expected and --fpp");
    assertThat(Files.readAllBytes(a)).isEqualTo(aBefore);

    Path fresh = dir.resolve("fresh.bloom");
    Result intoFresh = CliRunner.run("merge", "-o", fresh.toString(), a.toString(), b.toString());
    assertThat(intoFresh.exitCode()).isEqualTo(1);
    assertThat(fresh).doesNotExist();
    AddTest.assertNoTemporaryFilesIn(dir);
  }

  @Test
  void mergeNeedsAtLeastTwoInputs() throws IOException {
    Path a = filterOf("a", "1000", "0.01", "a1");
    Result merge = CliRunner.run("merge", "-o", dir.resolve("out.bloom").toString(), a.toString());
    assertThat(merge.exitCode()).isEqualTo(2);
    assertThat(merge.errLines()).singleElement().asString().startsWith("bloom: error: ");
    assertThat(dir.resolve("out.bloom")).doesNotExist();
  }
}
