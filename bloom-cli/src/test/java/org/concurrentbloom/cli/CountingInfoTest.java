package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bloom info} on a counting filter file, and what the other commands say about one. */
class CountingInfoTest {
  @TempDir
  Path dir;

  /** 1000 keys, "hot" added 20 times (its counters stick at 15), then key-0 .. key-99 removed. */
  private Path countingFile() throws IOException {
    CountingBloomFilter<CharSequence> f = CountingBloomFilter.create(Funnels.stringFunnel(), 1000, 0.01);
    for (int i = 0; i < 1000; i++) {
      f.add("key-" + i);
    }
    for (int i = 0; i < 20; i++) {
      f.add("hot");
    }
    for (int i = 0; i < 100; i++) {
      f.remove("key-" + i);
    }
    Path file = dir.resolve("c.bloom");
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }

  @Test
  void infoDescribesACountingFilter() throws IOException {
    Path file = countingFile();
    Result info = CliRunner.run("info", file.toString());

    assertThat(info.exitCode()).isZero();
    assertThat(info.err()).isEmpty();
    Map<String, String> fields = InfoTest.parse(info.out());
    assertThat(fields).containsOnlyKeys("file", "type", "counters (m)", "hash functions (k)", "count",
        "expected insertions", "target fpp", "fill ratio", "stuck counters", "estimated fpp",
        "approx. element count", "file size", "memory (counters)");
    assertThat(fields.get("type")).startsWith("counting Bloom filter");
    // The standard filter's m and k for n = 1000, p = 0.01 (see InfoTest): 9600 counters, 7 probes.
    assertThat(fields.get("counters (m)")).isEqualTo("9600");
    assertThat(fields.get("hash functions (k)")).isEqualTo("7");
    // About 1000 + 1 adds counted, less the 100 removes that emptied a counter.
    assertThat(Long.parseLong(fields.get("count"))).isBetween(890L, 901L);
    assertThat(fields.get("stuck counters")).startsWith("7 ");
    assertThat(fields.get("fill ratio")).endsWith("of 9600 counters non-zero)");
    assertThat(Double.parseDouble(fields.get("fill ratio").split(" ")[0])).isBetween(0.4, 0.55);
    assertThat(Long.parseLong(fields.get("approx. element count"))).isBetween(800L, 1000L);
    assertThat(fields.get("memory (counters)")).startsWith("4800 bytes");
    assertThat(Files.size(file)).isEqualTo(52 + 4800 + 4);
    assertThat(fields.get("file size")).startsWith(Files.size(file) + " bytes");
  }

  @Test
  void commandsForStandardFiltersRefuseACountingFileAndSayWhy() throws IOException {
    Path file = countingFile();
    Result query = CliRunner.run("query", file.toString(), "key-500");
    assertThat(query.exitCode()).isEqualTo(1);
    assertThat(query.err()).contains("filter type 4 is a counting filter");
  }

  @Test
  void aCorruptCountingFileIsReportedByInfo() throws IOException {
    Path file = countingFile();
    byte[] bytes = Files.readAllBytes(file);
    bytes[100] ^= 1;
    Files.write(file, bytes);
    Result info = CliRunner.run("info", file.toString());
    assertThat(info.exitCode()).isEqualTo(1);
    assertThat(info.err()).startsWith("bloom: error: cannot load filter " + file).contains("checksum mismatch");
  }
}
