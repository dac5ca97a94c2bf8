package org.concurrentbloom.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ExpiringBenchmark's rows get tables of their own, compared with Commons' layered filter; steps in µs convert. */
class ExpiringReportTest {
  private static String entry(String method, String impl, double score, String unit) {
    return "{ \"jmhVersion\" : \"1.37\", \"benchmark\" : \"org.concurrentbloom.benchmarks.ExpiringBenchmark." + method
        + "\", \"mode\" : \"avgt\", \"threads\" : 1, \"forks\" : 1, \"params\" : { \"impl\" : \"" + impl
        + "\", \"keys\" : \"STRING\", \"n\" : \"1000000\" }, \"primaryMetric\" : { \"score\" : " + score
        + ", \"scoreError\" : \"NaN\", \"scoreUnit\" : \"" + unit + "\" } }";
  }

  @Test
  void expiringRowsAreComparedWithCommonsLayered() {
    String json = "[" + String.join(",", entry("mightContain", "OURS_EXPIRING", 40, "ns/op"),
        entry("mightContain", "COMMONS_LAYERED", 400, "ns/op"), entry("expiryStep", "OURS_EXPIRING", 2000, "us/op"),
        entry("expiryStep", "COMMONS_LAYERED", 500, "us/op")) + "]";
    JmhResults.Run run = JmhResults.parse(json);
    String md = MarkdownTables.render(run, "Results", "jmh-result.json");
    List<String> headings = md.lines().filter(l -> l.startsWith("#### ")).toList();
    assertThat(headings).containsExactly("#### Expiring filter: `mightContain`, 1 thread",
        "#### Expiring filter: `expiryStep`, 1 thread");
    assertThat(md).contains("| string | 1M | ours expiring | 40.0 | n/a | 40.0 | 25.00 | 10.00× |")
        .contains("| string | 1M | Commons layered | 400 | n/a | 400 | 2.50 | 1.00× |")
        .contains("| string | 1M | ours expiring | 2000000 | n/a | 2000000 | 0.00 | 0.25× |")
        .doesNotContain("| vs fastest peer |");
    assertThat(Cases.panel(run.results().get(2))).startsWith("Expiring filter: one expiry step");
  }
}
