package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 23, point 9b: {@code bloom query --guava} answers from the bytes Guava's {@code BloomFilter.writeTo}
 * wrote, of either strategy, exactly as Guava's own {@code mightContain}; {@code import --guava} refuses a
 * {@code MURMUR128_MITZ_32} file, pointing there. The files are written by Guava itself (a test
 * dependency), for each funnel {@code --key-type} names. Before: {@code query} had no {@code --guava}
 * ("Unknown option"), and import of a MITZ_32 file failed only when writing its result.
 */
@Tag("jdk-independent") // reads the bytes Guava wrote: the same on every JDK (.ci/run)
class GuavaQueryIT {
  private static final int ADDED = 2_000;
  private static final int OTHERS = 10_000;

  @TempDir
  Path dir;

  /** One of Guava's funnels, and how the same key is written for bloom (--key-type) and given to Guava. */
  private record KeyKind(String cliName, Funnel<Object> funnel, IntFunction<String> text, IntFunction<Object> item) {
    static KeyKind of(String cliName) {
      return switch (cliName) {
        case "string" -> new KeyKind(cliName, cast(Funnels.stringFunnel(StandardCharsets.UTF_8)),
            i -> "user-ü" + i + "@example.com", i -> "user-ü" + i + "@example.com");
        case "long" -> new KeyKind(cliName, cast(Funnels.longFunnel()),
            i -> Long.toString(i * 1_000_003L - 5_000_000_000L), i -> i * 1_000_003L - 5_000_000_000L);
        case "int" -> new KeyKind(cliName, cast(Funnels.integerFunnel()),
            i -> Integer.toString(i * 7_919 - 50_000_000), i -> i * 7_919 - 50_000_000);
        case "bytes" -> new KeyKind(cliName, cast(Funnels.byteArrayFunnel()),
            i -> HexFormat.of().formatHex(bytes(i)), GuavaQueryIT::bytes);
        default -> throw new IllegalArgumentException(cliName);
      };
    }
  }

  /** Bytes of varying length for key i, the empty string excluded. */
  private static byte[] bytes(int i) {
    return Integer.toString(i, 7).repeat(1 + i % 3).getBytes(StandardCharsets.US_ASCII);
  }

  @SuppressWarnings("unchecked")
  private static Funnel<Object> cast(Funnel<?> funnel) {
    return (Funnel<Object>) funnel;
  }

  /** A Guava filter of the strategy named, built by Guava (MITZ_32 through its package-private factory). */
  @SuppressWarnings("unchecked")
  private static BloomFilter<Object> guava(String strategy, Funnel<Object> funnel) throws ReflectiveOperationException {
    if (strategy.equals("MURMUR128_MITZ_64")) {
      return BloomFilter.create(funnel, ADDED, 0.03);
    }
    Class<?> strategies = Class.forName("com.google.common.hash.BloomFilterStrategies");
    Object mitz32 = strategies.getEnumConstants()[0];
    assertThat(mitz32).hasToString(strategy);
    Method create = BloomFilter.class.getDeclaredMethod("create", Funnel.class, long.class, double.class,
        Class.forName("com.google.common.hash.BloomFilter$Strategy"));
    create.setAccessible(true);
    return (BloomFilter<Object>) create.invoke(null, funnel, (long) ADDED, 0.03, mitz32);
  }

  /** The Guava file of {@code keys} (items 0 until ADDED), and its first byte checked to be the strategy's. */
  private Path guavaFile(String strategy, KeyKind kind, BloomFilter<Object> guava) throws IOException {
    for (int i = 0; i < ADDED; i++) {
      guava.put(kind.item().apply(i));
    }
    Path file = dir.resolve(strategy + "-" + kind.cliName() + ".guava");
    try (OutputStream out = Files.newOutputStream(file)) {
      guava.writeTo(out);
    }
    assertThat(Files.readAllBytes(file)[0]).isEqualTo((byte) (strategy.equals("MURMUR128_MITZ_64") ? 1 : 0));
    return file;
  }

  private Path keys(String name, KeyKind kind, int from, int to) throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = from; i < to; i++) {
      lines.add(kind.text().apply(i));
    }
    return Bloom.keysFile(dir.resolve(name), lines);
  }

  @ParameterizedTest
  @CsvSource({
      "MURMUR128_MITZ_64, string", "MURMUR128_MITZ_64, long", "MURMUR128_MITZ_64, int", "MURMUR128_MITZ_64, bytes",
      "MURMUR128_MITZ_32, string", "MURMUR128_MITZ_32, long", "MURMUR128_MITZ_32, int", "MURMUR128_MITZ_32, bytes"})
  void queryGuavaAnswersExactlyAsGuavasMightContain(String strategy, String keyType) throws Exception {
    KeyKind kind = KeyKind.of(keyType);
    BloomFilter<Object> guava = guava(strategy, kind.funnel());
    Path file = guavaFile(strategy, kind, guava);
    Path added = keys("added.txt", kind, 0, ADDED);
    Path others = keys("others.txt", kind, ADDED, ADDED + OTHERS);

    // Every key added answers maybe.
    assertThat(Bloom.run("query", "--guava", "--key-type", keyType, file.toString(), "--absent", "--input",
        added.toString()).ok().out()).isEmpty();
    assertThat(Bloom.run("query", "--guava", "-k", keyType, file.toString(), "--", kind.text().apply(0)).ok().out())
        .isEqualTo(kind.text().apply(0) + "\tmaybe\n");

    // 10,000 others answer as Guava's own mightContain, false positives included.
    List<String> lines = Bloom.run("query", "--guava", "--key-type", keyType, file.toString(), "--input",
        others.toString()).ok().outLines();
    assertThat(lines).hasSize(OTHERS);
    int maybes = 0;
    for (int i = 0; i < OTHERS; i++) {
      boolean mightContain = guava.mightContain(kind.item().apply(ADDED + i));
      maybes += mightContain ? 1 : 0;
      assertThat(lines.get(i)).isEqualTo(kind.text().apply(ADDED + i) + "\t" + (mightContain ? "maybe" : "no"));
    }
    assertThat(maybes).as("false positives at p = 3%%: some, not many").isBetween(50, 1_000);

    // import: a MITZ_64 file becomes a filter file with the same answers; a MITZ_32 one is refused.
    Path imported = dir.resolve("imported.bloom");
    Bloom.Result r = Bloom.run("import", "--guava", "--key-type", keyType, file.toString(), "-o",
        imported.toString());
    if (strategy.equals("MURMUR128_MITZ_64")) {
      r.ok();
      assertThat(Bloom.run("query", imported.toString(), "--input", others.toString()).ok().outLines())
          .isEqualTo(lines);
    } else {
      assertThat(r.exitCode()).isEqualTo(1);
      assertThat(r.stderr()).isEqualTo("bloom: error: cannot import " + file + ": it was written with Guava's older "
          + "strategy MURMUR128_MITZ_32, which a filter file cannot hold; query it as it is with 'bloom query --guava "
          + (keyType.equals("string") ? "" : "--key-type " + keyType + " ") + file + " KEY...'\n");
      assertThat(imported).doesNotExist();
    }
  }

  /** Without --guava a Guava file is recognised and both ways are named; with it, a file of ours is. */
  @Test
  void theWrongFileForEachWaySaysWhichWayIsRight() throws Exception {
    KeyKind kind = KeyKind.of("string");
    Path file = guavaFile("MURMUR128_MITZ_32", kind, guava("MURMUR128_MITZ_32", kind.funnel()));
    Bloom.Result plain = Bloom.run("query", file.toString(), "k");
    assertThat(plain.exitCode()).isEqualTo(1);
    assertThat(plain.stderr()).contains("written by Guava's BloomFilter.writeTo")
        .contains("query it as it is with 'bloom query --guava " + file + " KEY...'").hasLineCount(1);

    Path ours = dir.resolve("ours.bloom");
    Bloom.run("create", "-n", "100", "-p", "0.01", "-o", ours.toString()).ok();
    Bloom.Result r = Bloom.run("query", "--guava", ours.toString(), "k");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr()).isEqualTo("bloom: error: cannot load filter " + ours + ": it is already a concurrent-bloom "
        + "filter file (it starts with CBLM), not one written by Guava: query it without --guava\n");
  }
}
