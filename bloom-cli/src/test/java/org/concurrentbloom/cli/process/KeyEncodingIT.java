package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys reach the filter exactly as the user gave them, or the command refuses and says how to pass them. */
class KeyEncodingIT {
  @TempDir
  Path dir;

  private Path create() {
    Path f = dir.resolve("f.bloom");
    Bloom.run("create", "-n", "1000", "-p", "0.001", "-o", f.toString()).ok();
    return f;
  }

  /** Before the fix the mark became part of the first key, which then answered "no". */
  @Test
  void aByteOrderMarkIsNotPartOfTheFirstKey() throws IOException {
    Path keys = dir.resolve("keys.txt");
    byte[] text = "alice@example.com\r\nbob@example.com\r\n".getBytes(StandardCharsets.UTF_8);
    byte[] withBom = ByteBuffer.allocate(text.length + 3).put(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF})
        .put(text).array();
    Files.write(keys, withBom);
    Path f = dir.resolve("f.bloom");
    Bloom.run("create", "-n", "1000", "-p", "0.001", "-o", f.toString(), "--input", keys.toString()).ok();
    assertThat(Bloom.run("query", f.toString(), "alice@example.com", "bob@example.com").ok().outLines())
        .containsExactly("alice@example.com\tmaybe", "bob@example.com\tmaybe");
    // The same file on standard input, queried back: the first key has no mark either.
    assertThat(Bloom.runWithInput(withBom, "query", f.toString(), "--input", "-").ok().outLines())
        .containsExactly("alice@example.com\tmaybe", "bob@example.com\tmaybe");
  }

  /**
   * Under LC_ALL=C the JVM decodes arguments as ASCII and every other byte arrives as U+FFFD: before the
   * fix "café" was stored as "caf\uFFFD\uFFFD", so the key given in a file never matched it.
   */
  @Test
  void aNonAsciiArgumentUnderTheCLocaleIsRefusedWithAPointerToInput() {
    Path f = create();
    Bloom.Result refused = Bloom.shell(dir, "LC_ALL=C LANG=C \"$BLOOM\" add f.bloom $'caf\\xc3\\xa9'");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.stderr()).startsWith("bloom: error: KEY argument 1").contains("--input")
        .contains("LC_ALL=C.UTF-8");
    // The way the message suggests works under the same locale, and matches the argument under UTF-8.
    Bloom.shell(dir, "printf 'caf\\xc3\\xa9\\n' | LC_ALL=C \"$BLOOM\" add f.bloom --input -").ok();
    assertThat(Bloom.shell(dir, "LC_ALL=C.UTF-8 \"$BLOOM\" query f.bloom $'caf\\xc3\\xa9'").ok().out())
        .isEqualTo("caf\u00e9\tmaybe\n");
    assertThat(Bloom.run("info", f.toString()).ok().out()).contains("1 (adds that changed");
  }

  /** Invalid UTF-8 in an argument was replaced silently, while --input refused the same bytes. */
  @Test
  void invalidUtf8InAnArgumentIsRefusedLikeInInput() {
    create();
    Bloom.Result arg = Bloom.shell(dir, "LC_ALL=C.UTF-8 \"$BLOOM\" add f.bloom $'caf\\xe9'");
    assertThat(arg.exitCode()).isEqualTo(2);
    assertThat(arg.stderr()).contains("KEY argument 1");
    Bloom.Result input = Bloom.shell(dir, "printf 'caf\\xe9\\n' | \"$BLOOM\" add f.bloom --input -");
    assertThat(input.exitCode()).isEqualTo(1);
    assertThat(input.stderr()).contains("not valid UTF-8 text at line 1");
  }

  /** --help says every non-empty line is a key, spaces included: so a line of spaces is one. */
  @Test
  void whitespaceOnlyLinesAreKeysAsHelpSays() {
    Path f = create();
    Bloom.runWithInput("  \n\n\t\n".getBytes(StandardCharsets.UTF_8), "add", f.toString(), "--input", "-").ok();
    assertThat(Bloom.run("query", f.toString(), "  ", "\t").ok().outLines()).containsExactly("  \tmaybe", "\t\tmaybe");
    assertThat(Bloom.run("--help").ok().out()).contains("a line of spaces is a key");
  }

  /** Before the fix a filter of longs was "a filter of strings" and every inserted key answered "no". */
  @Test
  void aLongKeyedFileIsQueriedAsLongs() throws IOException {
    BloomFilter<Long> longs = BloomFilter.create(Funnels.longFunnel(), 1000, 0.001);
    for (long id = 1; id <= 100; id++) {
      longs.add(id * 1_000_003);
    }
    Path f = dir.resolve("longs.bloom");
    try (OutputStream out = Files.newOutputStream(f)) {
      longs.writeTo(out);
    }
    assertThat(Bloom.run("info", f.toString()).ok().out()).contains("key type:               64-bit integers");
    assertThat(Bloom.run("query", f.toString(), "1000003", "100000300", "-5").ok().outLines())
        .containsExactly("1000003\tmaybe", "100000300\tmaybe", "-5\tno");
    Bloom.Result notALong = Bloom.run("query", f.toString(), "alice");
    assertThat(notALong.exitCode()).isEqualTo(2);
    assertThat(notALong.stderr()).contains("'alice' is not a 64-bit integer");
    Bloom.Result contradicted = Bloom.run("query", f.toString(), "--key-type", "string", "1000003");
    assertThat(contradicted.exitCode()).isEqualTo(1);
    assertThat(contradicted.stderr()).contains("holds 64-bit integers");
    // Added from the command line, read back by the library with its funnel.
    Bloom.run("add", f.toString(), "77").ok();
    try (var in = Files.newInputStream(f)) {
      assertThat(BloomFilter.readFrom(in, Funnels.longFunnel()).mightContain(77L)).isTrue();
    }
  }

  @Test
  void intAndByteKeysAreEncodedAsTheLibraryFunnelsDo() throws IOException {
    Path ints = dir.resolve("ints.bloom");
    Bloom.run("create", "-n", "100", "-p", "0.001", "--key-type", "int", "-o", ints.toString()).ok();
    Bloom.run("add", ints.toString(), "--", "-7", "2147483647").ok();
    try (var in = Files.newInputStream(ints)) {
      BloomFilter<Integer> f = BloomFilter.readFrom(in, Funnels.integerFunnel());
      assertThat(f.mightContain(-7)).isTrue();
      assertThat(f.mightContain(Integer.MAX_VALUE)).isTrue();
    }
    Path bytes = dir.resolve("bytes.bloom");
    Bloom.run("create", "-n", "100", "-p", "0.001", "--key-type", "bytes", "-o", bytes.toString()).ok();
    Bloom.run("add", bytes.toString(), "00ff10").ok();
    try (var in = Files.newInputStream(bytes)) {
      assertThat(BloomFilter.readFrom(in, Funnels.byteArrayFunnel()).mightContain(new byte[] {0, -1, 16})).isTrue();
    }
    assertThat(Bloom.run("query", bytes.toString(), "0g").exitCode()).isEqualTo(2);
  }

  /** A program's own funnel cannot be reproduced: refused unless --key-type says which one it matches. */
  @Test
  void aCustomFunnelFileNeedsKeyType() throws IOException {
    Funnel<CharSequence> own = (s, sink) -> sink.putString(s);
    BloomFilter<CharSequence> custom = BloomFilter.create(own, 100, 0.001);
    custom.add("alice");
    Path f = dir.resolve("custom.bloom");
    try (OutputStream out = Files.newOutputStream(f)) {
      custom.writeTo(out);
    }
    Bloom.Result refused = Bloom.run("query", f.toString(), "alice");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.stderr()).contains("own funnel").contains("--key-type");
    assertThat(Bloom.run("query", f.toString(), "--key-type", "string", "alice").ok().out()).isEqualTo("alice\tmaybe\n");
    Bloom.run("add", f.toString(), "--key-type", "string", "bob").ok();
    assertThat(Bloom.run("info", f.toString()).ok().out()).contains("key type:               custom");
  }

  /** A version 1 file records no key type: its keys are strings, and lookups say so on stderr. */
  @Test
  void aVersionOneFileIsReadAsStringsWithANote() throws IOException {
    Path f = dir.resolve("f.bloom"); // version 1 predates strategy 4: its files are of strategy 1
    Bloom.run("create", "-n", "1000", "-p", "0.001", "--hash-strategy", "1", "-o", f.toString()).ok();
    Bloom.run("add", f.toString(), "alice").ok();
    Bloom.toVersion1(f);
    Bloom.Result r = Bloom.run("query", f.toString(), "alice").ok();
    assertThat(r.out()).isEqualTo("alice\tmaybe\n");
    assertThat(r.stderr()).contains("format version 1").contains("--key-type");
    assertThat(Bloom.run("info", f.toString()).ok().out()).contains("format:                 version 1")
        .contains("hash strategy:          1 (MURMUR3_128_ENHANCED_DOUBLE)");
    Bloom.run("add", f.toString(), "bob").ok();
    assertThat(Files.readAllBytes(f)[4]).as("rewritten as version 2").isEqualTo((byte) 2);
  }
}
