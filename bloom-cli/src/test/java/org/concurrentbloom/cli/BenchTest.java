package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bloom bench} without running JMH: help, a missing jar, a broken jar, the command it builds. */
class BenchTest {
  @TempDir
  Path dir;

  @Test
  void helpDescribesTheCommandAndHowToGetTheJar() {
    Result help = CliRunner.run("bench", "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("Usage: bloom bench").contains("--jar=FILE").contains("Guava")
        .contains("mvn -B -q -pl bloom-benchmarks -am package -DskipTests");
  }

  @Test
  void isListedInTheTopLevelHelp() {
    assertThat(CliRunner.run("--help").out()).contains("bench");
  }

  @Test
  void aMissingJarSaysHowToBuildIt() {
    Path missing = dir.resolve("benchmarks.jar");
    Result bench = CliRunner.run("bench", "--jar", missing.toString());
    assertThat(bench.exitCode()).isEqualTo(BloomCli.EXIT_FAILURE);
    assertThat(bench.out()).isEmpty();
    assertThat(bench.errLines()).singleElement().asString()
        .startsWith("bloom: error: no benchmarks jar at " + missing)
        .contains("mvn -B -q -pl bloom-benchmarks -am package -DskipTests")
        .contains("--jar");
  }

  @Test
  void aJarThatJavaCannotRunFailsWithJavasMessage() throws IOException {
    Path broken = Files.writeString(dir.resolve("broken.jar"), "not a zip file");
    Result bench = CliRunner.run("bench", "--jar", broken.toString());
    assertThat(bench.exitCode()).isEqualTo(BloomCli.EXIT_FAILURE);
    assertThat(bench.err()).contains("bloom: error: JMH failed with exit status").contains("broken.jar");
  }

  @Test
  void runsTheFixedSubsetWithShortIterationsAndJsonResults() {
    Path java = Path.of("java");
    Path jar = Path.of("b.jar");
    Path result = Path.of("r.json");
    List<String> jmh = BenchCommand.jmhCommand(java, jar, result);
    assertThat(String.join(" ", jmh)).startsWith("java -jar b.jar -f 1 -wi 1 -w 1s -i 1 -r 1s")
        .contains("-rf json -rff r.json").contains("-p n=1000000 -p keys=STRING");
    assertThat(jmh).endsWith("MightContainBenchmark\\.mightContain$", "AddBenchmark\\.add$");
    List<String> longPath = BenchCommand.longPathJmhCommand(java, jar, result);
    assertThat(String.join(" ", longPath)).startsWith("java -jar b.jar -f 1 -wi 1 -w 1s -i 1 -r 1s -p n=1000000")
        .doesNotContain("keys=");
    assertThat(longPath).last().isEqualTo("LongPathBenchmark\\.");
    assertThat(BenchCommand.reportCommand(java, jar, result)).startsWith("java", "-cp", "b.jar",
        "org.concurrentbloom.benchmarks.report.BenchmarkReport", "r.json");
  }

  @Test
  void defaultJarIsInTheCheckoutThisCliWasBuiltIn() {
    // Tests run from bloom-cli/target/test-classes and classes: the checkout is bloom-cli's parent.
    Path expected = Path.of("").toAbsolutePath().getParent().resolve(BenchCommand.JAR_IN_CHECKOUT);
    assertThat(BenchCommand.defaultJar()).isEqualTo(expected);
  }
}
