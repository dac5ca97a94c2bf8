package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InfoTest {
  @TempDir
  Path dir;

  @Test
  void infoPrintsEveryField() throws IOException {
    Path keys = dir.resolve("keys.txt");
    Files.writeString(keys, IntStream.range(0, 1000).mapToObj(i -> "key-" + i).collect(Collectors.joining("\n")));
    Path filter = dir.resolve("f.bloom");
    assertThat(CliRunner.run("create", "-n", "1000", "-p", "0.01", "-o", filter.toString(),
        "-i", keys.toString()).exitCode()).isZero();

    Result info = CliRunner.run("info", filter.toString());

    assertThat(info.exitCode()).isZero();
    assertThat(info.err()).isEmpty();
    Map<String, String> fields = parse(info.out());
    assertThat(fields).containsOnlyKeys("file", "type", "format", "hash strategy", "key type", "bits (m)",
        "hash functions (k)",
        "expected insertions", "target fpp", "fill ratio", "estimated fpp", "distinct keys (est.)",
        "adds counted", "file size", "memory (bit array)");
    assertThat(fields.get("format")).isEqualTo("version 2");
    assertThat(fields.get("hash strategy")).isEqualTo("4 (XXH3_64_ENHANCED_DOUBLE)");
    assertThat(fields.get("key type")).startsWith("UTF-8 strings");
    assertThat(fields.get("file")).isEqualTo(filter.toString());
    assertThat(fields.get("type")).startsWith("standard Bloom filter");
    // m = ceil(-1000 ln 0.01 / ln^2 2) = 9586 rounded up to whole words; k = round(-log2 0.01) = 7
    assertThat(fields.get("bits (m)")).isEqualTo("9600");
    assertThat(fields.get("hash functions (k)")).isEqualTo("7");
    long count = Long.parseLong(fields.get("adds counted").split(" ", -1)[0]);
    assertThat(count).isBetween(990L, 1000L); // a few adds may find all their bits already set
    assertThat(fields.get("expected insertions")).isEqualTo("1000");
    assertThat(fields.get("target fpp")).isEqualTo("0.01");
    double fill = Double.parseDouble(fields.get("fill ratio").split(" ", -1)[0]);
    assertThat(fill).isBetween(0.45, 0.55); // about 1 - e^(-kn/m) = 0.518
    assertThat(fields.get("fill ratio")).endsWith("of 9600 bits set)");
    double estimated = Double.parseDouble(fields.get("estimated fpp").split(" ", -1)[0]);
    assertThat(estimated).isBetween(0.005, 0.015);
    assertThat(Long.parseLong(fields.get("distinct keys (est.)").split(" ", -1)[0])).isBetween(900L, 1100L);
    assertThat(fields.get("file size")).startsWith(Files.size(filter) + " bytes");
    assertThat(fields.get("memory (bit array)")).startsWith("1200 bytes");
    assertThat(Files.size(filter)).isEqualTo(52 + 1200 + 4); // header + payload + CRC, see FilterFormat
  }

  /** The "field: value" lines of {@code bloom info}, in order. */
  static Map<String, String> parse(String out) {
    Map<String, String> fields = new LinkedHashMap<>();
    out.lines().forEach(line -> {
      int colon = line.indexOf(": ");
      fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
    });
    return fields;
  }
}
