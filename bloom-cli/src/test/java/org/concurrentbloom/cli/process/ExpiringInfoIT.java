package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, point 7: what {@code bloom info} says of an expiring file. Re-adding the same 1,000 keys in
 * three slots was reported as about 3,000 distinct keys, with an estimated false-positive rate three times
 * the measured one; a file whose every key was past its time said "remembered: 8 of 8 generations".
 */
class ExpiringInfoIT {
  /** Never-added keys to measure the rate with: at about 1%, a standard error of about 2% of it. */
  private static final int PROBES = 200_000;

  @TempDir
  Path dir;

  /** The value of {@code bloom info}'s line {@code name} (the name is padded to 23 columns, then a space). */
  private static String field(List<String> info, String name) {
    return info.stream().filter(l -> l.startsWith(name + " ")).map(l -> l.substring(24)).findFirst()
        .orElseThrow(() -> new AssertionError("no line " + name + " in " + info));
  }

  /**
   * W = 1 h (slots of 8m 34.286s), 5,000 keys per window at p = 1%: each generation is sized for 715 keys,
   * m = 9,984 bits, k = 10. The same 1,000 keys went in 25, 15 and 5 minutes ago (slots 0, 1 and 2 of a
   * filter begun 30 minutes ago, written 5 minutes ago); the wall clock is in slot 3. Each generation has
   * about 63% of its bits set and alone answers falsely at about 1.03%; as they hold the same keys, so does
   * the filter. The bounds and their reasons are those of bloom-core's ExpiringEstimatesTest: the distinct
   * estimate within 4% (three of its standard deviations), the rate within 10% + 3 standard errors of the
   * rate measured over 200,000 never-added keys through bloom query.
   */
  @Test
  void keysReAddedInThreeSlotsAreCountedOnceAndTheRateReadOffTheirOr() throws IOException {
    List<String> keys = Bloom.keys("same", 1_000);
    Path f = dir.resolve("same.bloom");
    AgedFilter.write(f, Duration.ofHours(1), 5_000, Duration.ofMinutes(30), List.of(
        new AgedFilter.Batch(Duration.ofMinutes(25), keys), new AgedFilter.Batch(Duration.ofMinutes(15), keys),
        new AgedFilter.Batch(Duration.ofMinutes(5), keys)), Duration.ofMinutes(5));

    Bloom.Result r = Bloom.run("info", f.toString()).ok();
    assertThat(r.stderr()).isEmpty();
    List<String> info = r.outLines();
    assertThat(field(info, "bits per generation:")).isEqualTo("9984 (m)");
    assertThat(field(info, "hash functions (k):")).isEqualTo("10");

    long distinct = Long.parseLong(field(info, "distinct keys (est.):").split(" ", -1)[0]);
    assertThat((double) distinct).as("distinct keys").isCloseTo(1_000, within(40.0));

    List<String> fresh = Bloom.keys("fresh", PROBES);
    long absent = Bloom.absent(f, Bloom.keysFile(dir.resolve("fresh.txt"), fresh)).size();
    double measured = (double) (PROBES - absent) / PROBES;
    double se = Math.sqrt(measured * (1 - measured) / PROBES);
    double estimated = Double.parseDouble(field(info, "estimated fpp:").split(" ", -1)[0]);
    assertThat(measured).as("measured rate").isBetween(0.008, 0.013);
    assertThat(estimated).as("estimated fpp against %s measured", measured)
        .isCloseTo(measured, within(0.10 * measured + 3 * se));

    // The clock is in slot 3: its generation (current, empty) and the three of the keys.
    assertThat(field(info, "remembered:")).isEqualTo("4 of 8 generations, newest first");
    assertThat(field(info, "generation 0:")).contains("(current)").endsWith(", 0 adds counted, 0 of 9,984 bits set");
    for (int i = 1; i <= 3; i++) {
      assertThat(field(info, "generation " + i + ":")).doesNotContain("(current)")
          .doesNotEndWith(" 0 of 9,984 bits set");
    }
    assertThat(info).noneMatch(l -> l.startsWith("generation 4:"));
  }

  /**
   * A file whose keys were all added two days ago, with a window of an hour: every generation is past its
   * time. info lists only the current generation, empty, and says that none holds a key (and, on standard
   * error, that the clock is more than a window past the file's last write).
   */
  @Test
  void aFileWhoseKeysAreAllPastTheirTimeRemembersNone() throws IOException {
    Path f = dir.resolve("gone.bloom");
    AgedFilter.write(f, Duration.ofHours(1), 5_000, Duration.ofDays(2),
        List.of(new AgedFilter.Batch(Duration.ofDays(2), Bloom.keys("gone", 1_000))), Duration.ofDays(2));

    Bloom.Result r = Bloom.run("info", f.toString()).ok();
    List<String> info = r.outLines();
    assertThat(field(info, "remembered:")).isEqualTo("1 of 8 generations, newest first (none holds a key: none was "
        + "added, or every one is past its time)");
    assertThat(field(info, "generation 0:")).contains("(current)").endsWith(", 0 adds counted, 0 of 9,984 bits set");
    assertThat(info).noneMatch(l -> l.startsWith("generation 1:"));
    assertThat(field(info, "distinct keys (est.):")).startsWith("0 ");
    assertThat(field(info, "adds counted:")).startsWith("0 ");
    assertThat(r.stderr().lines().toList()).singleElement().asString().startsWith("bloom: warning: the clock reads ")
        .contains(", more than its window (1h) after " + f + " was last written (before ");
  }
}
