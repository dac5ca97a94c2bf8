package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expiring filters (create --window) through the launcher: created, added to, queried and described on
 * the wall clock; keys past their time answer "no"; bad windows are usage errors that leave nothing
 * behind; and a failed command, or several adds at once, never damage or lose what the file holds.
 */
class ExpiringIT {
  @TempDir
  Path dir;

  @Test
  void createAddQueryAndInfo() throws IOException {
    Path first = Bloom.keysFile(dir.resolve("first.txt"), Bloom.keys("a", 2_000));
    Path second = Bloom.keysFile(dir.resolve("second.txt"), Bloom.keys("b", 2_000));
    Path never = Bloom.keysFile(dir.resolve("never.txt"), Bloom.keys("never", 3_000));
    Path f = dir.resolve("recent.bloom");

    // 4,000 keys come within one generation span: n is sized so that one span's share (n/7) holds them.
    Bloom.Result create = Bloom.run("create", "--window", "24h", "-n", "30000", "-p", "0.01", "-o", f.toString(),
        "--input", first.toString()).ok();
    assertThat(create.stderr()).isEmpty();
    assertThat(create.out()).contains("expiring filter of UTF-8 strings, window 1d, 8 generations");
    Bloom.run("add", f.toString(), "--input", second.toString()).ok();

    assertThat(Bloom.absent(f, first)).isEmpty();
    assertThat(Bloom.absent(f, second)).isEmpty();
    int falsePositives = 3_000 - Bloom.absent(f, never).size();
    assertThat(falsePositives).as("false positives of 3,000 at p = 1%%: mean 30 at most").isLessThan(75);
    assertThat(Bloom.run("query", "--quiet", f.toString(), "a0@example.com").exitCode()).isZero();

    List<String> info = Bloom.run("info", f.toString()).ok().outLines();
    assertThat(info).contains("type:                   expiring Bloom filter (rotating generations)",
        "generations (G):        8", "expected insertions:    30000 per window",
        "hash strategy:          4 (XXH3_64_ENHANCED_DOUBLE)", "remembered:             1 of 8 generations, newest first");
    assertThat(info).anyMatch(l -> l.startsWith("window:                 1d (PT24H): "));
    assertThat(info).anyMatch(l -> l.startsWith("max retention:          1d 3h 25m 42.864s (PT27H25M42.864S)"));
    assertThat(info).anyMatch(l -> l.startsWith("generation span:        3h 25m 42.858s"));
    // One generation: the file is seconds old, inside its first slot (the slots before it are not listed).
    assertThat(info.stream().filter(l -> l.startsWith("generation ") && l.contains(" to "))).hasSize(1)
        .first().asString().startsWith("generation 0:").contains("Z (current), forgotten from ")
        .endsWith("bits set");
  }

  @Test
  void keysPastTheirTimeAnswerNoUnderTheWallClock() throws IOException {
    List<String> old = Bloom.keys("old", 1_000);
    List<String> recent = Bloom.keys("recent", 1_000);
    Path oldKeys = Bloom.keysFile(dir.resolve("old.txt"), old);
    Path recentKeys = Bloom.keysFile(dir.resolve("recent.txt"), recent);
    Path f = dir.resolve("aged.bloom");
    // W = 1 h, G = 8: forgotten by 8/7 h. Saved 10 minutes ago, after the recent adds.
    AgedFilter.write(f, Duration.ofHours(1), 10_000, Duration.ofHours(4), List.of(
        new AgedFilter.Batch(Duration.ofHours(3), old), new AgedFilter.Batch(Duration.ofMinutes(10), recent)),
        Duration.ofMinutes(10));

    assertThat(Bloom.absent(f, recentKeys)).isEmpty();
    assertThat(Bloom.absent(f, oldKeys)).containsExactlyElementsOf(old);
    assertThat(Bloom.run("query", "--quiet", f.toString(), old.get(0)).exitCode()).isEqualTo(1);

    // add writes the filter back as of now: the recent keys stay, the old ones stay forgotten.
    Bloom.run("add", f.toString(), "fresh@example.com").ok();
    assertThat(Bloom.run("query", f.toString(), "fresh@example.com").ok().out()).isEqualTo("fresh@example.com\tmaybe\n");
    assertThat(Bloom.absent(f, recentKeys)).isEmpty();
    assertThat(Bloom.absent(f, oldKeys)).containsExactlyElementsOf(old);
  }

  @Test
  void aFileWhoseGenerationsAreAllPastForgetsEveryKey() throws IOException {
    List<String> keys = Bloom.keys("gone", 500);
    Path keysFile = Bloom.keysFile(dir.resolve("gone.txt"), keys);
    Path f = dir.resolve("gone.bloom");
    AgedFilter.write(f, Duration.ofSeconds(1), 1_000, Duration.ofDays(30),
        List.of(new AgedFilter.Batch(Duration.ofDays(30), keys)), Duration.ofDays(30));

    assertThat(Bloom.absent(f, keysFile)).containsExactlyElementsOf(keys);
    List<String> info = Bloom.run("info", f.toString()).ok().outLines();
    assertThat(info).anyMatch(l -> l.startsWith("window:                 1s (PT1S)"));
    assertThat(info).anyMatch(l -> l.startsWith("adds counted:           0 "));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0h    | invalid --window 0h: window must be positive",
      "abc   | invalid window 'abc': use a whole number and a unit",
      "500ms | invalid --window 500ms: window must be at least 1000 ms, was 500 ms"})
  void aBadWindowIsAUsageErrorThatLeavesNoFile(String value, String message) throws IOException {
    Path f = dir.resolve("bad.bloom");
    Bloom.Result r = Bloom.run("create", "--window", value, "-n", "1000", "-p", "0.01", "-o", f.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).startsWith("bloom: error: ").contains(message).contains("--window");
    try (var files = Files.list(dir)) {
      assertThat(files).as("no filter, no lock file, no temporary").isEmpty();
    }
  }

  @Test
  void failedCommandsLeaveAnExistingExpiringFileAsItWas() throws IOException {
    Path keys = Bloom.keysFile(dir.resolve("keys.txt"), Bloom.keys("k", 1_000));
    Path f = dir.resolve("kept.bloom");
    Bloom.run("create", "--window", "1h", "-n", "5000", "-p", "0.01", "-o", f.toString(), "--input",
        keys.toString()).ok();
    byte[] before = Files.readAllBytes(f);

    assertThat(Bloom.run("create", "--window", "abc", "-n", "5000", "-p", "0.01", "-o", f.toString()).exitCode())
        .isEqualTo(2);
    assertThat(Bloom.run("create", "--window", "1h", "--counting", "-n", "5000", "-p", "0.01", "-o", f.toString())
        .exitCode()).isEqualTo(2);
    Bloom.Result merge = Bloom.run("merge", "-o", f.toString(), f.toString(), f.toString());
    assertThat(merge.exitCode()).isEqualTo(1);
    assertThat(merge.stderr()).contains("expiring filters cannot be merged");
    // A key of the wrong type fails the add after loading: nothing is written.
    Bloom.Result add = Bloom.run("add", f.toString(), "--key-type", "long", "42");
    assertThat(add.exitCode()).isNotZero();
    assertThat(add.stderr()).contains("--key-type long");
    Bloom.Result unreadable = Bloom.run("add", f.toString(), "--input", dir.resolve("missing.txt").toString());
    assertThat(unreadable.exitCode()).isEqualTo(1);

    assertThat(Files.readAllBytes(f)).isEqualTo(before);
    assertThat(Bloom.absent(f, keys)).isEmpty();
  }

  @Test
  void concurrentAddsLoseNoKey() throws Exception {
    Path f = dir.resolve("shared.bloom");
    Bloom.run("create", "--window", "24h", "-n", "100000", "-p", "0.01", "-o", f.toString()).ok();
    List<CompletableFuture<Bloom.Result>> runs = new ArrayList<>();
    List<Path> inputs = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      Path keys = Bloom.keysFile(dir.resolve("keys-" + p + ".txt"), Bloom.keys("p" + p + "-", 10_000));
      inputs.add(keys);
      runs.add(async("add", f.toString(), "--input", keys.toString()));
    }
    List<String> single = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      single.add("single-" + i + "@example.com");
      runs.add(async("add", f.toString(), single.get(i)));
    }
    for (CompletableFuture<Bloom.Result> run : runs) {
      Bloom.Result r = run.join();
      assertThat(r.exitCode()).as("stderr: %s", r.stderr()).isZero();
    }
    for (Path keys : inputs) {
      assertThat(Bloom.absent(f, keys)).as("keys of %s answered no", keys.getFileName()).isEmpty();
    }
    assertThat(Bloom.absent(f, Bloom.keysFile(dir.resolve("single.txt"), single))).isEmpty();
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  private static CompletableFuture<Bloom.Result> async(String... args) {
    return CompletableFuture.supplyAsync(() -> Bloom.run(args), r -> new Thread(r, "bloom").start());
  }
}
