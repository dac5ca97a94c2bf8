package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of docs/FORMAT.md, read from the document itself: the bytes of every example block
 * are what the call its caption names writes after the adds the caption lists, and they are the bytes
 * the format tests freeze. So an example cannot drift from the library, nor a caption name a call that
 * writes other bytes (the counting and scalable examples were once captioned with {@code create}, which
 * writes strategy 4, above strategy-1 bytes).
 */
final class FormatDocTest {
  /** The bytes of a line in an example block: hex groups separated by single spaces, before the comment. */
  private static final Pattern HEX_GROUPS = Pattern.compile("[0-9a-f]+( [0-9a-f]+)*");

  /** An example block and the paragraph just above it. */
  record Example(String caption, byte[] bytes) {}

  /** The text of a file of docs/, found from Maven's working directory (the module) or any directory above. */
  static String doc(String name) throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path file = dir.resolve("docs").resolve(name);
      if (Files.isRegularFile(file)) {
        return Files.readString(file);
      }
    }
    throw new AssertionError("docs/" + name + " not found in " + Path.of("").toAbsolutePath() + " or above");
  }

  /** Every fenced block of FORMAT.md whose first line starts with the magic, in the document's order. */
  static List<Example> examples(String doc) {
    List<String> lines = doc.lines().toList();
    List<Example> examples = new ArrayList<>();
    boolean inBlock = false;
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).startsWith("```")) {
        continue;
      }
      inBlock = !inBlock;
      if (!inBlock || i + 1 == lines.size() || !lines.get(i + 1).startsWith("43424c4d")) {
        continue;
      }
      int last = i - 1;
      while (last >= 0 && lines.get(last).isBlank()) {
        last--;
      }
      int first = last;
      while (first > 0 && !lines.get(first - 1).isBlank()) {
        first--;
      }
      String caption = String.join(" ", lines.subList(first, last + 1));
      StringBuilder hex = new StringBuilder();
      int end = i + 1;
      while (!lines.get(end).startsWith("```")) {
        hex.append(hexOf(lines.get(end)));
        end++;
      }
      i = end; // the closing fence
      inBlock = false;
      examples.add(new Example(caption, HexFormat.of().parseHex(hex)));
    }
    return examples;
  }

  /** The hex of one line of an example: nothing for a line that starts with a space (a comment only). */
  private static String hexOf(String line) {
    if (line.isEmpty() || line.charAt(0) == ' ') {
      return "";
    }
    int comment = line.indexOf("  ");
    String data = comment < 0 ? line : line.substring(0, comment);
    assertThat(data).as("the bytes of the example line '%s'", line).matches(HEX_GROUPS);
    return data.replace(" ", "");
  }

  private static Example example(int type) throws IOException {
    List<Example> all = examples(doc("FORMAT.md"));
    assertThat(all).as("the example blocks, by filter type (byte 5)").extracting(e -> (int) e.bytes()[5])
        .containsExactly(1, 4, 5, 6);
    return all.stream().filter(e -> e.bytes()[5] == type).findFirst().orElseThrow();
  }

  /** The caption names {@code call} exactly, line breaks aside. */
  private static void assertCaptionNames(Example e, String call) {
    assertThat(e.caption().replaceAll("\\s", "")).as("caption: %s", e.caption()).contains(call.replaceAll("\\s", ""));
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static byte[] bytes(MembershipFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  /** {@code other} is {@code example} but for byte 6 of the headers at {@code starts}, which is 4 there. */
  private static void assertSameHeadersButStrategyFour(byte[] example, byte[] other, int headerBytes, int... starts) {
    assertThat(other).hasSameSizeAs(example);
    for (int start : starts) {
      for (int i = start; i < start + headerBytes; i++) {
        if (i == start + 6) {
          assertThat(other[i]).as("strategy byte at %d", i).isEqualTo((byte) 4);
        } else {
          assertThat(other[i]).as("header byte %d", i).isEqualTo(example[i]);
        }
      }
    }
    assertThat(other).isNotEqualTo(example);
  }

  @Test
  void theStandardExampleIsWhatItsCaptionedBuilderWrites() throws IOException {
    Example e = example(1);
    assertCaptionNames(e, "BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10).fpp(0.1)"
        + ".hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build()");
    BloomFilter<CharSequence> f = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10).fpp(0.1)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    for (String key : List.of("alpha", "beta", "gamma")) {
      f.add(key);
    }
    assertThat(hex(e.bytes())).isEqualTo(hex(bytes(f))).isEqualTo(FilterFormatGoldenTest.GOLDEN_HEX);
  }

  @Test
  void theCountingExampleIsWhatItsCaptionedBuilderWritesAndCreateDiffersOnlyInTheStrategy() throws IOException {
    Example e = example(4);
    assertCaptionNames(e, "CountingBloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10).fpp(0.1)"
        + ".hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build()");
    CountingBloomFilter<CharSequence> f = CountingBloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10)
        .fpp(0.1).hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    CountingBloomFilter<CharSequence> created = CountingBloomFilter.create(Funnels.stringFunnel(), 10, 0.1);
    for (String key : List.of("alpha", "beta", "gamma", "alpha")) {
      f.add(key);
      created.add(key);
    }
    assertThat(hex(e.bytes())).isEqualTo(hex(bytes(f))).isEqualTo(CountingFormatTest.GOLDEN_HEX);
    // The text after the block: create writes the same header but for the strategy, other counters.
    assertThat(hex(bytes(created))).isEqualTo(CountingFormatTest.GOLDEN_XXH3_HEX);
    assertSameHeadersButStrategyFour(e.bytes(), bytes(created), 52, 0);
  }

  @Test
  void theScalableExampleIsWhatItsCaptionedBuilderWritesAndCreateDiffersOnlyInTheStrategy() throws IOException {
    Example e = example(5);
    assertCaptionNames(e, "ScalableBloomFilter.builder(Funnels.stringFunnel()).initialCapacity(4).fpp(0.1)"
        + ".hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build()");
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.builder(Funnels.stringFunnel()).initialCapacity(4)
        .fpp(0.1).hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    ScalableBloomFilter<CharSequence> created = ScalableBloomFilter.create(Funnels.stringFunnel(), 4, 0.1);
    for (String key : List.of("apple", "banana", "cherry", "damson", "elder")) {
      f.add(key);
      created.add(key);
    }
    assertThat(hex(e.bytes())).isEqualTo(hex(bytes(f))).isEqualTo(ScalableFormatTest.GOLDEN_HEX);
    assertThat(hex(bytes(created))).isEqualTo(ScalableFormatTest.GOLDEN_XXH3_HEX);
    // The 48-byte header, then each layer's 52-byte header: layer 0 at 48, layer 1 after its payload and CRC.
    int layer1 = 48 + 52 + (int) ByteBuffer.wrap(e.bytes()).getLong(48 + 44) + 4;
    assertSameHeadersButStrategyFour(e.bytes(), bytes(created), 48, 0);
    assertSameHeadersButStrategyFour(e.bytes(), bytes(created), 52, 48, layer1);
  }

  @Test
  void theExpiringExampleIsWhatItsCaptionedBuilderWrites() throws IOException {
    Example e = example(6);
    assertCaptionNames(e, "ExpiringBloomFilter.builder(Funnels.stringFunnel()).window(Duration.ofSeconds(3))"
        + ".expectedInsertionsPerWindow(6).fpp(0.1).generations(4).clock(clock).build()");
    assertThat(e.caption()).contains("2025-12-02T00:00Z");
    long origin = Instant.parse("2025-12-02T00:00:00Z").toEpochMilli();
    TestClock clock = new TestClock(origin);
    ExpiringBloomFilter<CharSequence> f = ExpiringBloomFilter.builder(Funnels.stringFunnel())
        .window(Duration.ofSeconds(3)).expectedInsertionsPerWindow(6).fpp(0.1).generations(4).clock(clock).build();
    clock.set(origin + 100);
    f.add("apple");
    f.add("banana");
    clock.set(origin + 2_500);
    f.mightContain("a query");
    f.add("cherry");
    assertThat(hex(e.bytes())).isEqualTo(hex(bytes(f))).isEqualTo(ExpiringFormatTest.GOLDEN_HEX);
  }
}
