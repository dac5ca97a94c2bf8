package org.concurrentbloom.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * LongPathBenchmark's rows (what {@code bloom bench}'s third run makes) get tables of their own, each
 * compared with FastFilter on the same operation, its batch rows too (FastFilter's batch is a loop of
 * its single calls), and long keys in the keys column.
 */
class LongPathReportTest {
  private static String entry(String method, int threads, String impl, double score) {
    return "{ \"jmhVersion\" : \"1.37\", \"benchmark\" : \"org.concurrentbloom.benchmarks.LongPathBenchmark." + method
        + "\", \"mode\" : \"avgt\", \"threads\" : " + threads + ", \"forks\" : 1, \"params\" : { \"impl\" : \""
        + impl + "\", \"n\" : \"1000000\" }, \"primaryMetric\" : { \"score\" : " + score
        + ", \"scoreError\" : \"NaN\", \"scoreUnit\" : \"ns/op\" } }";
  }

  @Test
  void longPathRowsAreComparedWithFastFilterOperationByOperation() {
    String json = "[" + String.join(",", entry("mightContainLong", 1, "FASTFILTER", 8),
        entry("mightContainLong", 1, "OURS_BLOCKED", 16), entry("mightContainAll", 1, "FASTFILTER", 8),
        entry("mightContainAll", 1, "OURS_BLOCKED", 4), entry("addLong", 1, "FASTFILTER", 10),
        entry("addLong", 1, "OURS_BLOCKED", 40), entry("mightContainLongShared", 2, "FASTFILTER", 9),
        entry("mightContainLongShared", 2, "OURS_BLOCKED", 18)) + "]";
    JmhResults.Run run = JmhResults.parse(json);
    String md = MarkdownTables.render(run, "Results", "jmh-result.json");
    List<String> headings = md.lines().filter(l -> l.startsWith("#### ")).toList();
    assertThat(headings).containsExactly("#### Long keys, primitive path: `mightContainLong`, 1 thread",
        "#### Long keys, primitive path: `mightContainLong`, 2 threads, one shared filter",
        "#### Long keys, primitive path: `mightContainAll` (per key), 1 thread",
        "#### Long keys, primitive path: `addLong`, 1 thread");
    assertThat(md).contains("| long | 1M | ours blocked | 16.0 |").contains("| long | 1M | FastFilter | 8.0 |")
        .contains("0.50× |").contains("2.00× |").contains("0.25× |").doesNotContain("| vs fastest peer |");
    assertThat(Cases.panel(run.results().get(0))).startsWith("Long keys, primitive path");
  }
}
