package org.concurrentbloom.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader on gc-profiler-result.json, a file in the form JMH 1.37 writes with {@code -prof gc -rf json}
 * (numbers made up): one result with parameters and the profiler's secondary metrics, one without either.
 */
class JmhResultsTest {
  @TempDir
  Path dir;

  private JmhResults.Run sample() throws IOException {
    Path file = dir.resolve("gc-profiler-result.json");
    try (InputStream in = JmhResultsTest.class.getResourceAsStream("gc-profiler-result.json")) {
      Files.copy(in, file);
    }
    return JmhResults.read(file);
  }

  @Test
  void readsAResultWithParametersAndSecondaryMetrics() throws IOException {
    JmhResults.Run run = sample();
    assertThat(run.results()).hasSize(2);
    Result r = run.results().get(0);
    assertThat(r.benchmark()).isEqualTo("org.concurrentbloom.benchmarks.MightContainBenchmark.mightContain");
    assertThat(r.mode()).isEqualTo("avgt");
    assertThat(r.threads()).isEqualTo(2);
    assertThat(r.params().keySet()).containsExactly("impl", "keys", "n"); // file order
    assertThat(r.params()).containsEntry("impl", "GUAVA").containsEntry("keys", "STRING")
        .containsEntry("n", "1000000");
    assertThat(r.score()).isEqualTo(212.5);
    assertThat(r.error()).isEqualTo(7.25);
    assertThat(r.median()).isEqualTo(211.75);
    assertThat(r.unit()).isEqualTo("ns/op");

    // JMH 1.37 names -prof gc's metrics plainly; older releases began them with a middle dot (next test).
    assertThat(r.secondaryMetrics().keySet()).containsExactly("gc.alloc.rate", "gc.alloc.rate.norm", "gc.count");
    assertThat(r.secondaryMetrics().get("gc.alloc.rate.norm"))
        .isEqualTo(new Result.Metric(256.0, 0.001, "B/op"));
    assertThat(r.secondaryMetrics().get("gc.alloc.rate")).isEqualTo(new Result.Metric(1150.5, 40.5, "MB/sec"));
    Result.Metric count = r.secondaryMetrics().get("gc.count");
    assertThat(count.score()).isEqualTo(12.0);
    assertThat(count.error()).isNaN(); // written as the string "NaN"
    assertThat(count.unit()).isEqualTo("counts");
  }

  @Test
  void leavesOutTheProfileBenchmarks() throws IOException {
    // They have keys and n but no impl parameter, so in a library table they would be a row named "?".
    Path file = Files.writeString(dir.resolve("with-profile.json"), """
        [ { "benchmark" : "org.concurrentbloom.benchmarks.profile.ProfileBenchmark.mightContain", "mode" : "avgt",
            "threads" : 1, "params" : { "keys" : "STRING", "n" : "1000000" },
            "primaryMetric" : { "score" : 59.1, "scoreError" : 1.0, "scoreUnit" : "ns/op" } },
          { "benchmark" : "org.concurrentbloom.benchmarks.MightContainBenchmark.mightContain", "mode" : "avgt",
            "threads" : 1, "params" : { "impl" : "GUAVA", "keys" : "STRING", "n" : "1000000" },
            "primaryMetric" : { "score" : 212.5, "scoreError" : 7.25, "scoreUnit" : "ns/op" } } ]
        """, StandardCharsets.UTF_8);
    assertThat(JmhResults.read(file).results()).singleElement()
        .satisfies(r -> assertThat(r.params()).containsEntry("impl", "GUAVA"));
  }

  @Test
  void readsTheMiddleDotOfOlderJmhReleasesMetricNames() throws IOException {
    // Older JMH releases, 1.32 for one, wrote "·gc.alloc.rate.norm" (U+00B7, two bytes in the UTF-8 file).
    Path file = Files.writeString(dir.resolve("jmh-1.32.json"), """
        [ { "jmhVersion" : "1.32", "benchmark" : "a.B.c", "mode" : "avgt", "threads" : 1, "forks" : 1,
            "params" : { "n" : "10000000" },
            "primaryMetric" : { "score" : 10.5, "scoreError" : 0.5, "scoreUnit" : "ns/op" },
            "secondaryMetrics" : {
              "\u00b7gc.alloc.rate.norm" : { "score" : 48.0, "scoreError" : 0.25, "scoreUnit" : "B/op" } } } ]
        """, StandardCharsets.UTF_8);
    Result r = JmhResults.read(file).results().get(0);
    assertThat(r.params()).containsExactly(entry("n", "10000000"));
    assertThat(r.secondaryMetrics())
        .containsExactly(entry("\u00b7gc.alloc.rate.norm", new Result.Metric(48.0, 0.25, "B/op")));
  }

  @Test
  void readsAResultWithoutParametersOrSecondaryMetrics() throws IOException {
    Result r = sample().results().get(1);
    assertThat(r.mode()).isEqualTo("thrpt");
    assertThat(r.threads()).isEqualTo(1);
    assertThat(r.params()).isEmpty();
    assertThat(r.secondaryMetrics()).isEmpty();
    assertThat(r.score()).isEqualTo(4.5);
    assertThat(r.error()).isNaN();
    assertThat(r.median()).isEqualTo(4.5);
    assertThat(r.unit()).isEqualTo("ops/us");
    assertThat(r.nanosPerOp()).isEqualTo(1000.0 / 4.5);
  }

  @Test
  void settingsComeFromTheFirstResult() throws IOException {
    assertThat(sample().settings()).isEqualTo(
        "JMH 1.37, JDK 17.0.15 (OpenJDK 64-Bit Server VM), 2 forks, warm-up 1 × 1 s, measurement 3 × 1 s");
  }

  @Test
  void missingMembersReadAsNaNOrNullAsBefore() {
    Result r = JmhResults.parse("[{\"benchmark\": \"a.B.c\", \"primaryMetric\": {\"score\": 3}}]")
        .results().get(0);
    assertThat(r.mode()).isEqualTo("null");
    assertThat(r.threads()).isZero();
    assertThat(r.score()).isEqualTo(3.0);
    assertThat(r.median()).isEqualTo(3.0); // no percentiles: the score stands in
    assertThat(r.error()).isNaN();
    assertThat(r.params()).isEmpty();
    assertThat(r.secondaryMetrics()).isEmpty();
    assertThat(JmhResults.parse("[]").results()).isEmpty();
  }

  @Test
  void rejectsWhatIsNotAJmhResultFile() {
    assertThatThrownBy(() -> JmhResults.parse("[{\"benchmark\": ")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("malformed JSON");
    assertThatThrownBy(() -> JmhResults.parse("[1] x")).hasMessageStartingWith("malformed JSON");
    assertThatThrownBy(() -> JmhResults.parse("{\"benchmark\": \"a.B.c\"}"))
        .hasMessage("a JMH JSON result file holds an array of results");
    assertThatThrownBy(() -> JmhResults.parse(""))
        .hasMessage("a JMH JSON result file holds an array of results");
    assertThatThrownBy(() -> JmhResults.parse("[{\"benchmark\": \"a.B.c\"}]"))
        .hasMessageContaining("primaryMetric");
    assertThatThrownBy(() -> JmhResults.parse("[null]")).hasMessageContaining("found null");
    assertThatThrownBy(() -> JmhResults.parse("[{\"primaryMetric\": 5}]"))
        .hasMessageStartingWith("malformed JSON");
  }
}
