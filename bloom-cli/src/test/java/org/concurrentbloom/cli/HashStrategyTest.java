package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.ScalableBloomFilter;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hash strategies on the command line: create writes the new default (4, or 5 for --blocked) unless
 * --hash-strategy says otherwise, info names every file's strategy, files of strategy 1 written before
 * it keep answering exactly, and a merge of two strategies is refused.
 */
class HashStrategyTest {
  @TempDir
  Path dir;

  private static BloomFilter<CharSequence> read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return BloomFilter.readFrom(in, Funnels.stringFunnel());
    }
  }

  private static List<String> keys(String prefix, int n) {
    List<String> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(prefix + i);
    }
    return keys;
  }

  /** A file of strategy 1, as releases before strategy 4 wrote, holding {@code keys}. */
  private Path oldFile(String name, List<String> keys) throws IOException {
    BloomFilter<CharSequence> f = oldFilter();
    keys.forEach(f::add);
    Path file = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }

  private static BloomFilter<CharSequence> oldFilter() {
    return BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(1_000).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
  }

  private Path create(String name, String... options) {
    Path file = dir.resolve(name);
    List<String> args = new ArrayList<>(List.of("create", "-n", "1000", "-p", "0.01", "-o", file.toString()));
    args.addAll(List.of(options));
    Result r = CliRunner.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    return file;
  }

  private static String infoStrategy(Path file) {
    Result info = CliRunner.run("info", file.toString());
    assertThat(info.exitCode()).as(info.err()).isZero();
    return InfoTest.parse(info.out()).get("hash strategy");
  }

  @Test
  void createWritesStrategyFourByDefaultAndSixWhenBlocked() throws IOException {
    Path standard = create("s.bloom");
    Path blocked = create("b.bloom", "--blocked");
    assertThat(read(standard).hashStrategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(read(blocked).hashStrategy()).isEqualTo(HashStrategy.XXH3_64_WORD_PAIR);
    assertThat(infoStrategy(standard)).isEqualTo("4 (XXH3_64_ENHANCED_DOUBLE)");
    assertThat(infoStrategy(blocked)).isEqualTo("6 (XXH3_64_WORD_PAIR)");
  }

  @ParameterizedTest
  @CsvSource({
      "1, standard, MURMUR3_128_ENHANCED_DOUBLE",
      "murmur3, standard, MURMUR3_128_ENHANCED_DOUBLE",
      "MURMUR3_128_ENHANCED_DOUBLE, standard, MURMUR3_128_ENHANCED_DOUBLE",
      "4, standard, XXH3_64_ENHANCED_DOUBLE",
      "xxh3, standard, XXH3_64_ENHANCED_DOUBLE",
      "murmur3, blocked, MURMUR3_128_BLOCKED",
      "2, blocked, MURMUR3_128_BLOCKED",
      "xxh3, blocked, XXH3_64_WORD_PAIR",
      "6, blocked, XXH3_64_WORD_PAIR",
      "5, blocked, XXH3_64_BLOCKED"})
  void hashStrategySelectsTheStrategyOfTheLayout(String value, String type, HashStrategy expected)
      throws IOException {
    Path file = type.equals("blocked") ? create("f.bloom", "--blocked", "--hash-strategy", value)
        : create("f.bloom", "--hash-strategy", value);
    BloomFilter<CharSequence> f = read(file);
    assertThat(f.hashStrategy()).isEqualTo(expected);
    assertThat(infoStrategy(file)).isEqualTo(expected.id() + " (" + expected + ")");
  }

  @Test
  void scalableLayersTakeTheStandardStrategies() throws IOException {
    Path file = dir.resolve("sc.bloom");
    Result r = CliRunner.run("create", "--scalable", "-p", "0.01", "--hash-strategy", "murmur3", "-o", file.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    try (InputStream in = Files.newInputStream(file)) {
      assertThat(ScalableBloomFilter.readFrom(in, Funnels.stringFunnel()).hashStrategy())
          .isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    }
    assertThat(infoStrategy(file)).isEqualTo("1 (MURMUR3_128_ENHANCED_DOUBLE)");
    Path fresh = create("sc4.bloom", "--scalable");
    assertThat(infoStrategy(fresh)).isEqualTo("4 (XXH3_64_ENHANCED_DOUBLE)");
  }

  @Test
  void infoNamesTheStrategyOfGuavaAndCountingFiles() {
    assertThat(infoStrategy(create("g.bloom", "--guava"))).isEqualTo("3 (GUAVA_MURMUR128_MITZ_64)");
    assertThat(infoStrategy(create("c.bloom", "--counting"))).isEqualTo("4 (XXH3_64_ENHANCED_DOUBLE)");
    assertThat(infoStrategy(create("c1.bloom", "--counting", "--hash-strategy", "murmur3")))
        .isEqualTo("1 (MURMUR3_128_ENHANCED_DOUBLE)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"sha1", "0", "murmur", "-32"})
  void anUnknownValueIsAUsageErrorNamingIt(String value) {
    Path file = dir.resolve("bad.bloom");
    Result r = CliRunner.run("create", "-n", "1000", "-p", "0.01", "--hash-strategy", value, "-o", file.toString());
    assertThat(r.exitCode()).isEqualTo(BloomCli.EXIT_USAGE);
    assertThat(r.errLines()).singleElement().asString().contains("--hash-strategy").contains("'" + value + "'")
        .contains("xxh3 or murmur3");
    assertThat(file).doesNotExist();
  }

  @ParameterizedTest
  @CsvSource({
      "1, --blocked, 'not for blocked filters: they take 6 (XXH3_64_WORD_PAIR) or 2 (MURMUR3_128_BLOCKED) or 5 (XXH3_64_BLOCKED)'",
      "5, --scalable, 'not for scalable filters: they take 4 (XXH3_64_ENHANCED_DOUBLE) or 1'",
      "5, --counting, 'not for counting filters: they take 4 (XXH3_64_ENHANCED_DOUBLE) or 1'",
      "murmur3, --guava, 'not for Guava-compatible filters: they take 3 (GUAVA_MURMUR128_MITZ_64)'"})
  void aStrategyTheTypeDoesNotTakeIsAUsageError(String value, String type, String message) {
    Path file = dir.resolve("bad.bloom");
    Result r = CliRunner.run("create", "-n", "1000", "-p", "0.01", type, "--hash-strategy", value, "-o",
        file.toString());
    assertThat(r.exitCode()).isEqualTo(BloomCli.EXIT_USAGE);
    assertThat(r.errLines()).singleElement().asString().contains("--hash-strategy " + value).contains(message);
    assertThat(file).doesNotExist();
  }

  @Test
  void aStrategyOneFileKeepsAnsweringExactlyThroughQueryAndAdd() throws IOException {
    List<String> in = keys("in-", 600);
    List<String> more = keys("more-", 300);
    Path file = oldFile("old.bloom", in);
    BloomFilter<CharSequence> twin = oldFilter();
    in.forEach(twin::add);
    assertThat(infoStrategy(file)).isEqualTo("1 (MURMUR3_128_ENHANCED_DOUBLE)");

    List<String> probes = new ArrayList<>(in);
    probes.addAll(more);
    probes.addAll(keys("never-", 3_000));
    Path probeFile = dir.resolve("probes.txt");
    Files.write(probeFile, probes);
    assertQueryAnswersAs(file, probeFile, probes, twin);

    Path moreFile = dir.resolve("more.txt");
    Files.write(moreFile, more);
    Result add = CliRunner.run("add", file.toString(), "--input", moreFile.toString());
    assertThat(add.exitCode()).as(add.err()).isZero();
    more.forEach(twin::add);
    BloomFilter<CharSequence> after = read(file);
    assertThat(after.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    assertThat(after.count()).isEqualTo(twin.count());
    assertQueryAnswersAs(file, probeFile, probes, twin);
    for (String key : probes) {
      assertThat(after.mightContain(key)).as(key).isEqualTo(twin.mightContain(key));
    }
  }

  private static void assertQueryAnswersAs(Path file, Path probeFile, List<String> probes,
      BloomFilter<CharSequence> twin) {
    Result q = CliRunner.run("query", file.toString(), "--input", probeFile.toString());
    assertThat(q.exitCode()).as(q.err()).isZero();
    List<String> expected = new ArrayList<>(probes.size());
    for (String key : probes) {
      expected.add(key + "\t" + (twin.mightContain(key) ? "maybe" : "no"));
    }
    assertThat(q.outLines()).containsExactlyElementsOf(expected);
  }

  @Test
  void aMergeOfStrategiesOneAndFourIsRefusedNamingBothAndWritesNothing() throws IOException {
    Path old = oldFile("old.bloom", keys("a", 100));
    Path fresh = create("new.bloom");
    assertThat(read(old).bitSize()).isEqualTo(read(fresh).bitSize());
    assertThat(read(old).hashFunctions()).isEqualTo(read(fresh).hashFunctions());
    byte[] freshBefore = Files.readAllBytes(fresh);

    Result intoFresh = CliRunner.run("merge", "-o", fresh.toString(), fresh.toString(), old.toString());
    assertThat(intoFresh.exitCode()).isEqualTo(1);
    assertThat(intoFresh.out()).isEmpty();
    assertThat(intoFresh.errLines()).singleElement().asString()
        .startsWith("bloom: error: cannot merge " + old + " into " + fresh)
        .contains(old + " has hash strategy 1 (MURMUR3_128_ENHANCED_DOUBLE)")
        .contains(fresh + " has hash strategy 4 (XXH3_64_ENHANCED_DOUBLE)")
        .contains("--hash-strategy");
    assertThat(Files.readAllBytes(fresh)).isEqualTo(freshBefore);

    Path out = dir.resolve("out.bloom");
    Result intoNew = CliRunner.run("merge", "-o", out.toString(), old.toString(), fresh.toString());
    assertThat(intoNew.exitCode()).isEqualTo(1);
    assertThat(intoNew.errLines()).singleElement().asString()
        .contains(fresh + " has hash strategy 4 (XXH3_64_ENHANCED_DOUBLE)")
        .contains(old + " has hash strategy 1 (MURMUR3_128_ENHANCED_DOUBLE)");
    assertThat(out).doesNotExist();
    AddTest.assertNoTemporaryFilesIn(dir);
  }

  @Test
  void filesOfTheSameOldStrategyStillMerge() throws IOException {
    Path a = oldFile("a.bloom", keys("a", 100));
    Path b = create("b.bloom", "--hash-strategy", "murmur3");
    Result merge = CliRunner.run("merge", "-o", b.toString(), a.toString(), b.toString());
    assertThat(merge.exitCode()).as(merge.err()).isZero();
    BloomFilter<CharSequence> merged = read(b);
    assertThat(merged.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    for (String key : keys("a", 100)) {
      assertThat(merged.mightContain(key)).as(key).isTrue();
    }
  }
}
