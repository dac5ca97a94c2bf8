package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.cli.CliRunner.Result;
import org.concurrentbloom.cli.process.AgedFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** create --window, and add, query, info, merge, remove on expiring files, in-process. */
class ExpiringCommandsTest {
  private static final Pattern GENERATION = Pattern.compile(
      "(\\S+) to (\\S+)( \\(current\\))?, forgotten from (\\S+), ([\\d,]+) adds counted, ([\\d,]+) of ([\\d,]+) bits set");

  @TempDir
  Path dir;

  @Test
  void createAddQueryAndInfo() throws IOException {
    Path f = dir.resolve("e.bloom");
    Instant before = Instant.now();
    Result create = CliRunner.run("create", "--window", "24h", "-n", "1000", "-p", "0.01", "-o", f.toString(),
        "-i", keysFile("first.txt", keys("a", 60)).toString());
    assertThat(create.exitCode()).as(create.err()).isZero();
    assertThat(create.out()).startsWith("created " + f + ": 60 keys read, expiring filter of UTF-8 strings, "
        + "window 1d, 8 generations of m=");
    assertThat(Files.readAllBytes(f)[5]).as("type byte").isEqualTo((byte) 6);
    Result add = CliRunner.run("add", f.toString(), "-i", keysFile("second.txt", keys("b", 60)).toString());
    assertThat(add.exitCode()).as(add.err()).isZero();

    assertThat(query(f, keys("a", 60))).containsOnly("maybe");
    assertThat(query(f, keys("b", 60))).containsOnly("maybe");
    long falsePositives = query(f, keys("never", 2000)).stream().filter("maybe"::equals).count();
    assertThat(falsePositives).as("false positives of 2,000 at p = 1%%: mean 20").isLessThan(50);

    Result info = CliRunner.run("info", f.toString());
    assertThat(info.exitCode()).as(info.err()).isZero();
    Map<String, String> fields = InfoTest.parse(info.out());
    assertThat(fields.get("type")).isEqualTo("expiring Bloom filter (rotating generations)");
    assertThat(fields.get("hash strategy")).isEqualTo("4 (XXH3_64_ENHANCED_DOUBLE)");
    assertThat(fields.get("window")).startsWith("1d (PT24H): ");
    // s = ceil(24 h / 7) = 12,342,858 ms; the retention is 8 s
    assertThat(fields.get("generation span")).startsWith("3h 25m 42.858s (PT3H25M42.858S)");
    assertThat(fields.get("max retention")).startsWith("1d 3h 25m 42.864s (PT27H25M42.864S)");
    assertThat(fields.get("generations (G)")).isEqualTo("8");
    assertThat(fields.get("expected insertions")).isEqualTo("1000 per window");
    assertThat(fields.get("target fpp")).isEqualTo("0.01");
    long m = Long.parseLong(fields.get("bits per generation").split(" ", -1)[0]);
    assertThat(fields.get("bits (all generations)")).isEqualTo(Long.toString(8 * m));
    assertThat(Long.parseLong(fields.get("adds counted").split(" ", -1)[0])).isBetween(115L, 120L);
    assertThat(fields.get("remembered")).isEqualTo("1 of 8 generations, newest first"); // a new filter: one slot so far

    Matcher current = generation(fields, 0);
    assertThat(current.group(3)).isNotNull();
    Instant start = Instant.parse(current.group(1));
    Instant end = Instant.parse(current.group(2));
    assertThat(start).isBetween(before.minusMillis(1), Instant.now());
    assertThat(Duration.between(start, end)).isEqualTo(Duration.ofMillis(12_342_858));
    assertThat(Instant.parse(current.group(4))).isAfterOrEqualTo(start.plus(Duration.ofMillis(8 * 12_342_858L)));
    assertThat(Long.parseLong(current.group(5))).isBetween(115L, 120L);
    assertThat(Long.parseLong(current.group(7).replace(",", ""))).isEqualTo(m);
    assertThat(fields.keySet()).as("no generation before the filter was built is listed")
        .doesNotContain("generation 1");
  }

  @Test
  void aBurstPastOneSpansShareIsWarnedAbout() throws IOException {
    // n = 700 per day: each generation is sized for one span's share, ceil(700 * 12,342,858 ms / 1 d) = 101
    // keys; 500 at once overfill it.
    Path f = dir.resolve("burst.bloom");
    Result r = CliRunner.run("create", "--window", "24h", "-n", "700", "-p", "0.01", "-o", f.toString(), "-i",
        keysFile("burst.txt", keys("burst", 500)).toString());
    assertThat(r.exitCode()).isZero();
    assertThat(r.errLines()).singleElement().asString().startsWith("bloom: warning: " + f
        + " has a false-positive rate of about ").contains("a generation holds more than the 101 keys it is sized "
        + "for (one generation span, 3h 25m 42.858s, of 700 per window at a steady rate)");
    // The same keys within one span's share: no warning.
    Result calm = CliRunner.run("create", "--window", "24h", "-n", "7000", "-p", "0.01", "-o", f.toString(), "-i",
        dir.resolve("burst.txt").toString());
    assertThat(calm.err()).isEmpty();
  }

  @Test
  void generationsSetHowSoonAKeyIsForgotten() throws IOException {
    Path f = dir.resolve("g16.bloom");
    assertThat(CliRunner.run("create", "--window", "PT24H", "--generations", "16", "-n", "1000", "-p", "0.01",
        "-o", f.toString()).exitCode()).isZero();
    Map<String, String> fields = InfoTest.parse(CliRunner.run("info", f.toString()).out());
    assertThat(fields.get("generations (G)")).isEqualTo("16");
    // s = 24 h / 15 = 96 min exactly; 16 of them
    assertThat(fields.get("generation span")).startsWith("1h 36m (PT1H36M)");
    assertThat(fields.get("max retention")).startsWith("1d 1h 36m (PT25H36M)");
    assertThat(fields.get("remembered")).startsWith("1 of 16");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0h    | invalid --window 0h: window must be positive, was PT0S",
      "500ms | invalid --window 500ms: window must be at least 1000 ms, was 500 ms",
      "PT0.5S| invalid --window PT0.5S: window must be at least 1000 ms, was 500 ms",
      "-PT1H | invalid --window -PT1H: window must be positive, was PT-1H",
      "abc   | Invalid value for option '--window': invalid window 'abc': use a whole number and a unit",
      "1.5h  | Invalid value for option '--window': invalid window '1.5h': use a whole number and a unit",
      "9999999999999999d | Invalid value for option '--window': window '9999999999999999d' is too long"})
  void aBadWindowIsAUsageErrorNamingItAndLeavesNoFile(String value, String message) throws IOException {
    Path f = dir.resolve("bad.bloom");
    Result r = CliRunner.run("create", "--window", value, "-n", "1000", "-p", "0.01", "-o", f.toString());
    assertThat(r.exitCode()).isEqualTo(BloomCli.EXIT_USAGE);
    assertThat(r.errLines()).singleElement().asString().startsWith("bloom: error: " + message);
    try (var files = Files.list(dir)) {
      assertThat(files).as("no filter and no lock file").isEmpty();
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--blocked                  | --window cannot be combined with --blocked: an expiring filter has a layout",
      "--guava                    | --window cannot be combined with --guava",
      "--counting                 | --window cannot be combined with --counting",
      "--scalable                 | --window cannot be combined with --scalable",
      "--initial=10               | --initial is for --scalable filters only",
      "--hash-strategy=murmur3    | --hash-strategy murmur3 is not for expiring filters: they take 4 (XXH3_64",
      "--hash-strategy=5          | --hash-strategy 5 (XXH3_64_BLOCKED) is not for expiring filters",
      "--generations=3            | invalid --generations 3: generations must be a power of two in [2, 64], was 3",
      "--generations=128          | invalid --generations 128: generations must be a power of two"})
  void optionsThatMakeNoSenseWithAWindowAreRefusedAndTheFileKept(String option, String message) throws IOException {
    Path f = dir.resolve("kept.bloom");
    assertThat(CliRunner.run("create", "-n", "100", "-p", "0.01", "-o", f.toString(), "-i",
        keysFile("k.txt", keys("k", 10)).toString()).exitCode()).isZero();
    byte[] before = Files.readAllBytes(f);
    Result r = CliRunner.run("create", "--window", "1h", "-n", "1000", "-p", "0.01", option, "-o", f.toString());
    assertThat(r.exitCode()).isEqualTo(BloomCli.EXIT_USAGE);
    assertThat(r.errLines()).singleElement().asString().startsWith("bloom: error: " + message);
    assertThat(Files.readAllBytes(f)).isEqualTo(before);
  }

  @Test
  void aBadSizeWithAWindowNamesTheValues() {
    Result r = CliRunner.run("create", "--window", "1h", "-n", "0", "-p", "0.01", "-o",
        dir.resolve("x.bloom").toString());
    assertThat(r.exitCode()).isEqualTo(BloomCli.EXIT_USAGE);
    assertThat(r.err()).startsWith("bloom: error: invalid --expected 0 / --fpp 0.01 with --window 1h: "
        + "expectedInsertionsPerWindow must be >= 1, was 0");
    assertThat(dir.resolve("x.bloom")).doesNotExist();
  }

  @Test
  void generationsWithoutAWindowIsRefused() {
    Result r = CliRunner.run("create", "--generations", "8", "-n", "10", "-p", "0.01", "-o",
        dir.resolve("x.bloom").toString());
    assertThat(r.exitCode()).isEqualTo(BloomCli.EXIT_USAGE);
    assertThat(r.err()).contains("--generations is for expiring filters (--window) only");
  }

  @Test
  void xxh3AsTheHashStrategyIsAccepted() {
    Result r = CliRunner.run("create", "--window", "1h", "--hash-strategy", "xxh3", "-n", "10", "-p", "0.01", "-o",
        dir.resolve("x.bloom").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
  }

  @Test
  void keysPastTheirTimeAreForgottenByTheWallClockAndDroppedOnWrite() throws IOException {
    Path f = dir.resolve("aged.bloom");
    List<String> old = keys("old", 50);
    List<String> recent = keys("recent", 50);
    // W = 1 h, G = 8: an add is forgotten by 8/7 h; 2 h ago is past that, 10 min ago within the window.
    AgedFilter.write(f, Duration.ofHours(1), 1000, Duration.ofHours(3), List.of(
        new AgedFilter.Batch(Duration.ofHours(2), old), new AgedFilter.Batch(Duration.ofMinutes(10), recent)),
        Duration.ofMinutes(10));
    assertThat(query(f, recent)).containsOnly("maybe");
    assertThat(query(f, old)).containsOnly("no");

    Result add = CliRunner.run("add", f.toString(), "fresh");
    assertThat(add.exitCode()).as(add.err()).isZero();
    assertThat(query(f, List.of("fresh"))).containsOnly("maybe");
    assertThat(query(f, recent)).containsOnly("maybe");
    assertThat(query(f, old)).containsOnly("no");
    // The count covers the remembered generations: the old keys' one is gone, in memory and in the file.
    try (InputStream in = Files.newInputStream(f)) {
      ExpiringBloomFilter<CharSequence> read = ExpiringBloomFilter.readFrom(in, Funnels.stringFunnel());
      assertThat(read.count()).isBetween(48L, 51L);
    }
    Map<String, String> fields = InfoTest.parse(CliRunner.run("info", f.toString()).out());
    // No generation listed holds the old keys' time: theirs was dropped.
    Instant oldAdds = Instant.now().minus(Duration.ofHours(2));
    for (int i = 0; fields.containsKey("generation " + i); i++) {
      assertThat(Instant.parse(generation(fields, i).group(2))).isAfter(oldAdds);
    }
    assertThat(Long.parseLong(fields.get("adds counted").split(" ", -1)[0])).isBetween(48L, 51L);
  }

  @Test
  void aFilterWhoseGenerationsAreAllPastForgetsEveryKey() throws IOException {
    Path f = dir.resolve("gone.bloom");
    AgedFilter.write(f, Duration.ofMinutes(1), 100, Duration.ofDays(400),
        List.of(new AgedFilter.Batch(Duration.ofDays(365), keys("gone", 20))), Duration.ofDays(365));
    assertThat(query(f, keys("gone", 20))).containsOnly("no");
    // The wall clock's step gives the filter G fresh generations for the slots up to now, all empty; info
    // lists the current one only, as the older empty ones hold nothing (issue 23, point 7).
    Result r = CliRunner.run("info", f.toString());
    Map<String, String> fields = InfoTest.parse(r.out());
    assertThat(fields.get("adds counted")).startsWith("0 ");
    assertThat(fields.get("fill ratio")).startsWith("0.000000 (0 of ");
    assertThat(fields.get("remembered")).isEqualTo("1 of 8 generations, newest first (none holds a key: none was "
        + "added, or every one is past its time)");
    Matcher g = generation(fields, 0);
    assertThat(g.group(3)).isNotNull();
    assertThat(g.group(5)).isEqualTo("0");
    assertThat(g.group(6)).isEqualTo("0");
    assertThat(Instant.parse(g.group(1))).isAfter(Instant.now().minus(Duration.ofDays(364)));
    assertThat(fields.keySet()).doesNotContain("generation 1");
    // The clock is more than a window past the file's last write: info says so, naming both times.
    assertThat(r.errLines()).singleElement().asString().startsWith("bloom: warning: the clock reads ")
        .contains("more than its window (1m) after " + f + " was last written (before ");
  }

  /**
   * The clock check of add, in-process: the wall clock is right here, so the files are made to disagree
   * with it instead. One last written two days ago, with a window of one minute, looks to add exactly as a
   * fresh file does to a clock two days fast: bloom cannot tell a long pause from a wrong clock, and
   * refuses unless told. One written by a clock two days ahead is refused as well. The process tests
   * (ExpiringClockIT) move the clock itself.
   */
  @Test
  void addRefusesAClockFarPastOrBehindTheFilesLastWriteUnlessAccepted() throws IOException {
    Path old = dir.resolve("old.bloom");
    AgedFilter.write(old, Duration.ofMinutes(1), 100, Duration.ofDays(2),
        List.of(new AgedFilter.Batch(Duration.ofDays(2), keys("old", 20))), Duration.ofDays(2));
    byte[] oldBytes = Files.readAllBytes(old);
    Result refused = CliRunner.run("add", old.toString(), "new");
    assertThat(refused.exitCode()).isEqualTo(BloomCli.EXIT_FAILURE);
    assertThat(refused.out()).isEmpty();
    assertThat(refused.errLines()).singleElement().asString().startsWith("bloom: error: cannot add to " + old
        + ": the clock reads ").contains(", more than its window (1m) after " + old + " was last written (before ")
        .endsWith("; writing it now would forget every key it holds (for good, if the clock is wrong). If the clock "
            + "is right, run again with --accept-clock-jump");
    assertThat(Files.readAllBytes(old)).isEqualTo(oldBytes);
    Result accepted = CliRunner.run("add", "--accept-clock-jump", old.toString(), "new");
    assertThat(accepted.exitCode()).as(accepted.err()).isZero();
    assertThat(accepted.err()).isEmpty();
    assertThat(query(old, List.of("new", "old-0"))).containsExactly("maybe", "no");

    Path ahead = dir.resolve("ahead.bloom");
    AgedFilter.write(ahead, Duration.ofHours(1), 100, Duration.ofDays(-2),
        List.of(new AgedFilter.Batch(Duration.ofDays(-2), keys("ahead", 20))), Duration.ofDays(-2));
    byte[] aheadBytes = Files.readAllBytes(ahead);
    Result behind = CliRunner.run("add", ahead.toString(), "new");
    assertThat(behind.exitCode()).isEqualTo(BloomCli.EXIT_FAILURE);
    assertThat(behind.errLines()).singleElement().asString().startsWith("bloom: error: cannot add to " + ahead
        + ": the clock reads ").contains(", before " + ahead + " was last written (at or after ")
        .contains(", by a clock ahead of this one); keys added now would be kept until ");
    assertThat(Files.readAllBytes(ahead)).isEqualTo(aheadBytes);
    Result query = CliRunner.run("query", ahead.toString(), "ahead-0");
    assertThat(query.out()).isEqualTo("ahead-0\tmaybe\n");
    assertThat(query.errLines()).singleElement().asString().startsWith("bloom: warning: the clock reads ")
        .endsWith("it answers as written, keeping keys that this clock may already have forgotten");
    Result acceptedBehind = CliRunner.run("add", "--accept-clock-jump", ahead.toString(), "new");
    assertThat(acceptedBehind.exitCode()).as(acceptedBehind.err()).isZero();
    assertThat(query(ahead, List.of("new", "ahead-0"))).containsExactly("maybe", "maybe");
  }

  @Test
  void mergeRemoveAndExportRefuseAnExpiringFileAndLeaveTheOutput() throws IOException {
    Path e = dir.resolve("e.bloom");
    Path s = dir.resolve("s.bloom");
    assertThat(CliRunner.run("create", "--window", "1h", "-n", "100", "-p", "0.01", "-o", e.toString())
        .exitCode()).isZero();
    assertThat(CliRunner.run("create", "-n", "100", "-p", "0.01", "-o", s.toString()).exitCode()).isZero();
    byte[] eBytes = Files.readAllBytes(e);
    byte[] sBytes = Files.readAllBytes(s);

    for (List<String> inputs : List.of(List.of(e.toString(), e.toString()), List.of(s.toString(), e.toString()))) {
      Path out = inputs.get(0).equals(s.toString()) ? s : dir.resolve("m.bloom");
      List<String> args = new ArrayList<>(List.of("merge", "-o", out.toString()));
      args.addAll(inputs);
      Result r = CliRunner.run(args.toArray(String[]::new));
      assertThat(r.exitCode()).isEqualTo(BloomCli.EXIT_FAILURE);
      assertThat(r.errLines()).singleElement().asString().isEqualTo("bloom: error: cannot merge " + e
          + ": expiring filters cannot be merged (their generations are slots of different clocks, so no union "
          + "keeps each key's forgetting time); add the keys of one to the other with bloom add instead");
    }
    assertThat(dir.resolve("m.bloom")).doesNotExist();
    assertThat(Files.readAllBytes(s)).isEqualTo(sBytes);

    Result remove = CliRunner.run("remove", e.toString(), "x");
    assertThat(remove.exitCode()).isEqualTo(BloomCli.EXIT_FAILURE);
    assertThat(remove.err()).contains("it is an expiring filter, and only counting filters");
    Result export = CliRunner.run("export", "--guava", e.toString(), "-o", dir.resolve("g.bin").toString());
    assertThat(export.exitCode()).isEqualTo(BloomCli.EXIT_FAILURE);
    assertThat(export.err()).contains("it is an expiring filter");
    assertThat(Files.readAllBytes(e)).isEqualTo(eBytes);
  }

  private static Matcher generation(Map<String, String> fields, int i) {
    String line = fields.get("generation " + i);
    assertThat(line).as("generation %d", i).isNotNull();
    Matcher m = GENERATION.matcher(line);
    assertThat(m.matches()).as(line).isTrue();
    return m;
  }

  /** The answers ("maybe" or "no") of {@code bloom query} for {@code keys}, in order. */
  private List<String> query(Path f, List<String> keys) throws IOException {
    Result r = CliRunner.run("query", f.toString(), "-i", keysFile("q.txt", keys).toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    return r.outLines().stream().map(line -> line.substring(line.indexOf('\t') + 1)).toList();
  }

  private Path keysFile(String name, List<String> keys) throws IOException {
    return Files.writeString(dir.resolve(name), String.join("\n", keys) + "\n");
  }

  private static List<String> keys(String prefix, int n) {
    return IntStream.range(0, n).mapToObj(i -> prefix + "-" + i).collect(Collectors.toList());
  }
}
