package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hash strategies through the launcher: bloom create writes strategy 4 unless --hash-strategy asks for
 * the MurmurHash3 one that older releases read, bloom info names the strategy, a file of strategy 1
 * written by the library still answers exactly, and a merge of strategies 1 and 4 is refused.
 */
@Tag("jdk-independent") // which hash a file records and answers with: the same on every JDK (.ci/run)
class HashStrategyIT {
  @TempDir
  Path dir;

  private static String strategyLine(Path file) {
    return Bloom.run("info", file.toString()).ok().outLines().stream().filter(l -> l.startsWith("hash strategy:"))
        .findFirst().orElseThrow(() -> new AssertionError("bloom info printed no hash strategy"));
  }

  private Path oldFile(List<String> keys) throws IOException {
    BloomFilter<CharSequence> f = oldFilter();
    keys.forEach(f::add);
    Path file = dir.resolve("old.bloom");
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }

  private static BloomFilter<CharSequence> oldFilter() {
    return BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(5_000).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
  }

  @Test
  void createWritesStrategyFourByDefaultAndInfoSaysSo() {
    Path f = dir.resolve("new.bloom");
    Bloom.run("create", "-n", "5000", "-p", "0.01", "-o", f.toString()).ok();
    assertThat(strategyLine(f)).isEqualTo("hash strategy:          4 (XXH3_64_ENHANCED_DOUBLE)");
    Path blocked = dir.resolve("blocked.bloom");
    Bloom.run("create", "-n", "5000", "-p", "0.01", "--blocked", "-o", blocked.toString()).ok();
    assertThat(strategyLine(blocked)).isEqualTo("hash strategy:          6 (XXH3_64_WORD_PAIR)");
  }

  @Test
  void hashStrategyOneWritesAFileOfStrategyOne() throws IOException {
    Path f = dir.resolve("one.bloom");
    Bloom.run("create", "-n", "5000", "-p", "0.01", "--hash-strategy", "1", "-o", f.toString()).ok();
    assertThat(strategyLine(f)).isEqualTo("hash strategy:          1 (MURMUR3_128_ENHANCED_DOUBLE)");
    // byte 6 of the file header is the strategy (docs/FORMAT.md): what an older release checks
    assertThat(Files.readAllBytes(f)[6]).isEqualTo((byte) 1);
    Path blocked = dir.resolve("two.bloom");
    Bloom.run("create", "-n", "5000", "-p", "0.01", "--blocked", "--hash-strategy", "murmur3", "-o",
        blocked.toString()).ok();
    assertThat(strategyLine(blocked)).isEqualTo("hash strategy:          2 (MURMUR3_128_BLOCKED)");
  }

  @Test
  void aBadValueIsAUsageErrorNamingIt() {
    Path f = dir.resolve("bad.bloom");
    Bloom.Result r = Bloom.run("create", "-n", "5000", "-p", "0.01", "--hash-strategy", "md5", "-o", f.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).contains("--hash-strategy").contains("'md5'");
    assertThat(f).doesNotExist();
  }

  @Test
  void aMergeOfStrategiesOneAndFourIsRefusedAndTheOutputUntouched() throws IOException {
    Path old = oldFile(Bloom.keys("old", 1_000));
    Path fresh = dir.resolve("new.bloom");
    Path freshKeys = Bloom.keysFile(dir.resolve("new.txt"), Bloom.keys("new", 1_000));
    Bloom.run("create", "-n", "5000", "-p", "0.01", "-o", fresh.toString(), "--input", freshKeys.toString()).ok();
    byte[] before = Files.readAllBytes(fresh);

    Bloom.Result r = Bloom.run("merge", "-o", fresh.toString(), fresh.toString(), old.toString());
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.stderr()).contains("cannot merge " + old + " into " + fresh)
        .contains(old + " has hash strategy 1 (MURMUR3_128_ENHANCED_DOUBLE)")
        .contains(fresh + " has hash strategy 4 (XXH3_64_ENHANCED_DOUBLE)");
    assertThat(Files.readAllBytes(fresh)).isEqualTo(before);
    assertThat(Bloom.absent(fresh, freshKeys)).isEmpty();
  }

  @Test
  void aQueryOfAnOldFileAnswersExactlyAsTheLibrary() throws IOException {
    List<String> in = Bloom.keys("in", 3_000);
    Path old = oldFile(in);
    BloomFilter<CharSequence> twin = oldFilter();
    in.forEach(twin::add);
    List<String> probes = new ArrayList<>(in);
    probes.addAll(Bloom.keys("out", 3_000));
    Path probeFile = Bloom.keysFile(dir.resolve("probes.txt"), probes);

    List<String> expected = new ArrayList<>();
    for (String key : probes) {
      expected.add(key + "\t" + (twin.mightContain(key) ? "maybe" : "no"));
    }
    assertThat(Bloom.run("query", old.toString(), "--input", probeFile.toString()).ok().outLines())
        .containsExactlyElementsOf(expected);
    assertThat(strategyLine(old)).isEqualTo("hash strategy:          1 (MURMUR3_128_ENHANCED_DOUBLE)");
  }
}
