package org.concurrentbloom.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The "vs fastest peer" column on a hand-written JMH result file (peers-result.json) that holds every
 * library the suite compares: ours, Guava, Commons Collections, DataSketches, and FastFilter from
 * LongKeysBenchmark (long keys, no keys parameter).
 */
class PeersReportTest {
  private static JmhResults.Run run;
  private static String md;

  @BeforeAll
  static void render() throws IOException {
    try (InputStream in = PeersReportTest.class.getResourceAsStream("peers-result.json")) {
      run = JmhResults.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    md = MarkdownTables.render(run, "Peers", "peers-result.json");
  }

  @Test
  void libraryTablesHaveBothTheGuavaAndTheFastestPeerColumn() {
    assertThat(md).contains("| keys | n | implementation | ns/op | ± | median | ops/µs | vs Guava | vs fastest peer |")
        .contains("|---|---:|---|---:|---:|---:|---:|---:|---:|");
  }

  @Test
  void theFastestPeerIsPickedPerCase() {
    // String lookups at 1M: DataSketches 80 ns beats Guava 200 and Commons 250.
    assertThat(md).contains("| string | 1M | ours standard | 60.0 | n/a | 60.0 | 16.67 | 3.33× | 1.33× (DataSketches) |")
        .contains("| string | 1M | Guava | 200 | n/a | 200 | 5.00 | 1.00× | 0.40× (DataSketches) |")
        .contains("| string | 1M | DataSketches | 80.0 | n/a | 80.0 | 12.50 | 2.50× | 1.00× (DataSketches) |")
        // long lookups at 1M: FastFilter (its own benchmark class, no keys parameter) is the fastest
        .contains("| long | 1M | ours standard | 30.0 | n/a | 30.0 | 33.33 | 3.00× | 0.67× (FastFilter) |")
        .contains("| long | 1M | FastFilter | 20.0 | n/a | 20.0 | 50.00 | 4.50× | 1.00× (FastFilter) |")
        // a batch is compared with the fastest peer's single lookup
        .contains("| string | 1M | ours blocked (batch) | 20.0 | n/a | 20.0 | 50.00 | 10.00× | 4.00× (DataSketches) |")
        // two threads: the not thread-safe peers are absent, so Guava is the fastest peer
        .contains("| string | 1M | ours standard | 70.0 | n/a | 70.0 | 28.57 | 2.00× | 2.00× (Guava) |")
        .contains("| string | 1M | ours standard | 100 | n/a | 100 | 10.00 | 3.00× | 1.20× (DataSketches) |")
        .contains("| long | 1M | ours blocked | 50.0 | n/a | 50.0 | 20.00 | 3.00× | 0.25× (FastFilter) |")
        // no peer in the case: n/a, like the Guava column
        .contains("| long | 10M | ours blocked (batch) | 15.0 | n/a | 15.0 | 66.67 | n/a | n/a |");
  }

  @Test
  void fastestPeerIsNeverOneOfOurs() {
    Result oursBlocked = run.results().stream()
        .filter(r -> r.method().equals("mightContain") && r.param("impl", "").equals("OURS_BLOCKED"))
        .findFirst().orElseThrow();
    // ours blocked (55 ns) is quicker than every peer, yet the peer column names DataSketches
    assertThat(Cases.fastestPeer(oursBlocked, run.results()).map(Cases::subject)).hasValue("DATASKETCHES");
  }

  @Test
  void rowsOfACaseComeInLibraryOrderWhateverTheRunOrder() {
    List<String> longLookups = md.lines().filter(l -> l.startsWith("| long | 1M |")).limit(4).toList();
    assertThat(longLookups).extracting(l -> l.split("\\|", -1)[3].trim())
        .containsExactly("ours standard", "Guava", "DataSketches", "FastFilter");
  }

  @Test
  void tablesOfOtherFamiliesHaveNoPeerColumn() {
    String strategies = md.substring(md.indexOf("#### Thread-safety strategies"));
    assertThat(strategies).contains("| vs synchronized |\n").doesNotContain("fastest peer");
  }
}
