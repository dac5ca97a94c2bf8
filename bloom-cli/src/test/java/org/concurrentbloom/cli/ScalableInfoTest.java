package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.ScalableBloomFilter;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScalableInfoTest {
  @TempDir
  Path dir;

  /** n0 = 100, p = 1%, s = 2, r = 0.9, grown past three layers (100 + 200 + 400) into a fourth. */
  private Path scalableFile() throws IOException {
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .initialCapacity(100).fpp(0.01).maxBitSize(1 << 20).build();
    for (int i = 0; f.count() < 1_000; i++) {
      f.add("key-" + i);
    }
    Path file = dir.resolve("s.bloom");
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }

  @Test
  void infoDescribesTheGrowthAndEveryLayer() throws IOException {
    Path file = scalableFile();

    Result info = CliRunner.run("info", file.toString());

    assertThat(info.exitCode()).isZero();
    assertThat(info.err()).isEmpty();
    Map<String, String> fields = InfoTest.parse(info.out());
    assertThat(fields).containsOnlyKeys("file", "type", "layers", "initial capacity", "growth factor",
        "tightening ratio", "capacity", "count", "target fpp", "fpp bound", "estimated fpp", "bits (all layers)",
        "memory cap", "fill ratio", "approx. element count", "file size", "layer 0", "layer 1", "layer 2", "layer 3");
    assertThat(fields.get("type")).isEqualTo("scalable Bloom filter of strings (standard layers)");
    assertThat(fields.get("layers")).isEqualTo("4");
    assertThat(fields.get("initial capacity")).isEqualTo("100");
    assertThat(fields.get("growth factor")).isEqualTo("2");
    assertThat(fields.get("tightening ratio")).isEqualTo("0.9");
    assertThat(fields.get("capacity")).startsWith("1,500 ");
    assertThat(fields.get("count")).isEqualTo("1000");
    assertThat(fields.get("target fpp")).isEqualTo("0.01");
    // 0.01 * 0.1 * (1 + 0.9 + 0.81 + 0.729)
    assertThat(fields.get("fpp bound")).startsWith("0.003439 ");
    assertThat(Double.parseDouble(fields.get("estimated fpp").split(" ")[0])).isBetween(0.0005, 0.003439);
    assertThat(fields.get("memory cap")).isEqualTo((1 << 20) + " bits");
    assertThat(fields.get("file size")).startsWith(Files.size(file) + " bytes");
    // Layer 0: 100 items at 0.001: m = ceil(100 * ln(1000) / ln(2)^2) = 1438, rounded up to 1472; k = 10.
    assertThat(fields.get("layer 0")).isEqualTo("capacity 100, fpp 0.001000, 1,472 bits, k=10, count 100");
    assertThat(fields.get("layer 1")).startsWith("capacity 200, fpp 0.0009000, ").endsWith(", count 200");
    assertThat(fields.get("layer 3")).startsWith("capacity 800, fpp 0.0007290, ").endsWith(", count 300");
    long layerBits = 0;
    for (int i = 0; i < 4; i++) {
      layerBits += Long.parseLong(fields.get("layer " + i).split(", ")[2].replace(" bits", "").replace(",", ""));
    }
    assertThat(fields.get("bits (all layers)")).isEqualTo(Long.toString(layerBits));
    assertThat(fields.get("fill ratio")).endsWith("of " + layerBits + " bits set)");
  }

  @Test
  void aCorruptScalableFileIsReportedInOneLine() throws IOException {
    Path file = scalableFile();
    byte[] bytes = Files.readAllBytes(file);
    bytes[30] ^= 0x5A; // inside the tightening ratio
    Files.write(file, bytes);

    Result info = CliRunner.run("info", file.toString());

    assertThat(info.exitCode()).isEqualTo(1);
    assertThat(info.out()).isEmpty();
    assertThat(info.errLines()).singleElement().asString()
        .startsWith("bloom: error: cannot load filter " + file);
  }
}
