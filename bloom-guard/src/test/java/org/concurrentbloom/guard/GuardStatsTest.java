package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** GuardStats is a value: equal figures make equal stats, and it prints as the record it replaced did. */
class GuardStatsTest {

  private static GuardStats.Values values() {
    GuardStats.Values v = new GuardStats.Values();
    v.checks = 10;
    v.definiteNegatives = 7;
    v.positives = 3;
    v.observedFpr = Double.NaN;
    v.targetFpp = 0.01;
    v.ready = true;
    v.lastRebuildDuration = Duration.ofMillis(5);
    v.lastRebuildAt = Instant.ofEpochSecond(1_700_000_000L);
    v.lastError = "java.io.IOException: gone";
    return v;
  }

  @Test
  void equalFiguresMakeEqualStats() {
    GuardStats a = new GuardStats(values());
    GuardStats b = new GuardStats(values());
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b); // NaN observedFpr included, as in a record
    GuardStats.Values other = values();
    other.snapshotFailures = 1;
    assertThat(new GuardStats(other)).isNotEqualTo(a);
    assertThat(a).isNotEqualTo(null).isNotEqualTo("GuardStats");
  }

  @Test
  void laterChangesToTheValuesAreNotSeen() {
    GuardStats.Values v = values();
    GuardStats stats = new GuardStats(v);
    v.checks = 99;
    v.lastError = null;
    assertThat(stats.checks()).isEqualTo(10);
    assertThat(stats.lastError()).isEqualTo("java.io.IOException: gone");
  }

  @Test
  void accessorsAndToStringShowEveryFigure() {
    GuardStats s = new GuardStats(values());
    assertThat(s.definiteNegatives()).isEqualTo(7);
    assertThat(s.savedFraction()).isEqualTo(0.7);
    assertThat(s.lastRebuildDuration()).isEqualTo(Duration.ofMillis(5));
    assertThat(new GuardStats(new GuardStats.Values()).lastRebuildDuration()).isEqualTo(Duration.ZERO);
    assertThat(s.toString()).startsWith("GuardStats[checks=10, definiteNegatives=7, positives=3, lookups=0, ")
        .contains(", observedFpr=NaN, targetFpp=0.01, ready=true, ")
        .contains(", lastRebuildDuration=PT0.005S, lastRebuildAt=2023-11-14T22:13:20Z, ")
        .endsWith(", snapshotFailures=0, lastSnapshotError=null]");
  }
}
