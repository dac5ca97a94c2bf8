package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HashingSinkTest {

  /** Guava's MurmurHash3 x64 128 (seed 0): h1 and h2 are its output bytes 0..7 and 8..15, little-endian. */
  static long[] hashOf(byte[] bytes) {
    ByteBuffer out = ByteBuffer.wrap(Hashing.murmur3_128().hashBytes(bytes).asBytes()).order(ByteOrder.LITTLE_ENDIAN);
    return new long[] {out.getLong(), out.getLong()};
  }

  private static <T> long[] sinkHash(T item, Funnel<? super T> funnel) {
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(item, funnel);
      return new long[] {sink.h1, sink.h2};
    } finally {
      sink.release();
    }
  }

  @Test
  void emptyInputHashesToZero() {
    // MurmurHash3 x64 128 with seed 0 maps the empty input to 0: every mixing step starts from zero.
    assertThat(sinkHash(new byte[0], Funnels.byteArrayFunnel())).containsExactly(0L, 0L);
  }

  /** Every length from 0 to 100 exercises every tail size and several 16-byte blocks. */
  @Property(tries = 1000)
  void murmur3MatchesGuavaForAnyBytes(@ForAll @net.jqwik.api.constraints.Size(max = 100) byte[] bytes) {
    assertThat(sinkHash(bytes, Funnels.byteArrayFunnel())).isEqualTo(hashOf(bytes));
  }

  @Test
  void murmur3MatchesGuavaForEveryTailLength() {
    byte[] bytes = new byte[64];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 37 + 200);
    }
    for (int len = 0; len <= bytes.length; len++) {
      byte[] prefix = java.util.Arrays.copyOf(bytes, len);
      assertThat(sinkHash(prefix, Funnels.byteArrayFunnel())).as("length %d", len).isEqualTo(hashOf(prefix));
    }
  }

  @Property(tries = 500)
  void stringFunnelHashesExactlyTheUtf8Bytes(@ForAll String s) {
    assertThat(sinkHash(s, Funnels.stringFunnel())).isEqualTo(hashOf(s.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Strings take an ASCII fast path and fall back to full UTF-8 at the first char past 0x7F: every
   * length from 0 to 100 (across the buffer's first growth and every tail length), all ASCII and with
   * one Latin-1, one 3-byte and one surrogate-pair char at the start, middle and end, and as a
   * StringBuilder (which skips the fast path) too.
   */
  @Test
  void stringsHashTheirUtf8BytesOnBothPaths() {
    StringBuilder ascii = new StringBuilder();
    for (int len = 0; len <= 100; len++) {
      String plain = ascii.toString();
      assertThat(sinkHash(plain, Funnels.stringFunnel())).as("ascii length %d", len)
          .isEqualTo(hashOf(plain.getBytes(StandardCharsets.UTF_8)));
      assertThat(sinkHash(new StringBuilder(plain), Funnels.stringFunnel())).as("builder length %d", len)
          .isEqualTo(hashOf(plain.getBytes(StandardCharsets.UTF_8)));
      for (String odd : new String[] {"\u00e9", "\u4e2d", "\uD83D\uDE00"}) {
        for (int at : new int[] {0, len / 2, len}) {
          String s = plain.substring(0, at) + odd + plain.substring(at);
          assertThat(sinkHash(s, Funnels.stringFunnel())).as("%s at %d of %d", odd, at, len)
              .isEqualTo(hashOf(s.getBytes(StandardCharsets.UTF_8)));
        }
      }
      ascii.append((char) ('!' + len % 90));
    }
  }

  @Test
  void unpairedSurrogatesEncodeLikeTheJdk() {
    for (String s : new String[] {"\uD800", "a\uDC00b", "\uD83D\uDE00", "\uDE00\uD83D", "é中\uD83D"}) {
      assertThat(sinkHash(s, Funnels.stringFunnel())).as(s).isEqualTo(hashOf(s.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Property(tries = 200)
  void primitivesAreLittleEndian(@ForAll long l, @ForAll int i) {
    byte[] lb = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(l).array();
    byte[] ib = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(i).array();
    assertThat(sinkHash(l, Funnels.longFunnel())).isEqualTo(hashOf(lb));
    assertThat(sinkHash(i, Funnels.integerFunnel())).isEqualTo(hashOf(ib));
  }

  @Test
  void largeItemsGrowTheBufferAndReentrantFunnelsGetTheirOwnSink() {
    byte[] big = new byte[200_000];
    big[123_456] = 42;
    assertThat(sinkHash(big, Funnels.byteArrayFunnel())).isEqualTo(hashOf(big));
    // Strategy 1, whose string funnel goes through the sink (strategy 4's hashes the chars directly).
    BloomFilter<CharSequence> inner = BloomFilter.<CharSequence>builder(Funnels.stringFunnel()).expectedInsertions(10)
        .fpp(0.01).hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    inner.add("inner");
    Funnel<String> reentrant = (s, sink) -> {
      sink.putString(s);
      sink.putBoolean(inner.mightContain("inner")); // re-enters the hashing code on this thread
      sink.putString(s);
    };
    byte[] expected = ("ab" + "\u0001" + "ab").getBytes(StandardCharsets.UTF_8);
    assertThat(sinkHash("ab", reentrant)).isEqualTo(hashOf(expected));
  }

  // ---------------------------------------------------------------- strategies 4 and 5 (XXH3-64)

  /** Writes one of everything a Sink takes, strings included. */
  private record Mixed(String s, long l, int i, short sh, char c, byte b, boolean z, byte[] bytes) {}

  private static final Funnel<Mixed> MIXED = (m, into) -> {
    into.putString(m.s());
    into.putLong(m.l());
    into.putInt(m.i());
    into.putShort(m.sh());
    into.putChar(m.c());
    into.putByte(m.b());
    into.putBoolean(m.z());
    into.putBytes(m.bytes());
    into.putBytes(m.bytes(), 1, m.bytes().length - 1);
    into.putString(new StringBuilder(m.s()).reverse());
  };

  /** The bytes {@link #MIXED} writes for strategies 4 and 5: strings as UTF-16LE code units. */
  private static byte[] xxh3Bytes(Mixed m) {
    String reversed = new StringBuilder(m.s()).reverse().toString();
    ByteBuffer out = ByteBuffer.allocate(4 * m.s().length() + 17 + 2 * m.bytes().length)
        .order(ByteOrder.LITTLE_ENDIAN);
    out.put(Xxh3KeysTest.utf16Le(m.s())).putLong(m.l()).putInt(m.i()).putShort(m.sh()).putChar(m.c()).put(m.b())
        .put((byte) (m.z() ? 1 : 0)).put(m.bytes()).put(m.bytes(), 1, m.bytes().length - 1)
        .put(Xxh3KeysTest.utf16Le(reversed));
    assertThat(out.remaining()).isZero();
    return out.array();
  }

  @Property(tries = 300)
  void xxh3OfHashesTheFunnelsBytesWithStringsAsUtf16(@ForAll String s, @ForAll long l, @ForAll int i,
      @ForAll short sh, @ForAll char c, @ForAll byte b, @ForAll boolean z) {
    Mixed m = new Mixed(s, l, i, sh, c, b, z, new byte[] {b, 7, (byte) i});
    byte[] expected = xxh3Bytes(m);
    long h1 = Xxh3Keys.bytes(expected, 0, expected.length);
    assertThat(HashingSink.xxh3Of(m, MIXED)).isEqualTo(h1);
    HashingSink sink = HashingSink.acquire();
    try {
      for (HashStrategy strategy : List.of(HashStrategy.XXH3_64_ENHANCED_DOUBLE, HashStrategy.XXH3_64_BLOCKED)) {
        sink.hash(m, MIXED, strategy);
        assertThat(sink.h1).isEqualTo(h1);
        assertThat(sink.h2).isEqualTo(Xxh3Keys.second(h1));
      }
      // The same sink, asked for strategy 1 or 2 next, writes strings as UTF-8 again.
      byte[] utf8 = utf8Bytes(m);
      for (HashStrategy strategy : List.of(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE,
          HashStrategy.MURMUR3_128_BLOCKED)) {
        sink.hash(m, MIXED, strategy);
        assertThat(new long[] {sink.h1, sink.h2}).isEqualTo(hashOf(utf8));
      }
    } finally {
      sink.release();
    }
  }

  /** The bytes {@link #MIXED} writes for strategies 1 and 2: strings as UTF-8. */
  private static byte[] utf8Bytes(Mixed m) {
    byte[] s1 = m.s().getBytes(StandardCharsets.UTF_8);
    byte[] s2 = new StringBuilder(m.s()).reverse().toString().getBytes(StandardCharsets.UTF_8);
    ByteBuffer out = ByteBuffer.allocate(s1.length + s2.length + 17 + 2 * m.bytes().length)
        .order(ByteOrder.LITTLE_ENDIAN);
    out.put(s1).putLong(m.l()).putInt(m.i()).putShort(m.sh()).putChar(m.c()).put(m.b())
        .put((byte) (m.z() ? 1 : 0)).put(m.bytes()).put(m.bytes(), 1, m.bytes().length - 1).put(s2);
    assertThat(out.remaining()).isZero();
    return out.array();
  }

  @Property(tries = 300)
  void theStringAndLongFunnelsHashWithoutTheBufferAlike(@ForAll String s, @ForAll long l) {
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(s, Funnels.stringFunnel(), HashStrategy.XXH3_64_ENHANCED_DOUBLE);
      assertThat(sink.h1).isEqualTo(Xxh3Keys.chars(s)).isEqualTo(Xxh3Keys.of(s, Funnels.stringFunnel()));
      assertThat(sink.h2).isEqualTo(Xxh3Keys.second(sink.h1));
      // A funnel of one's own that writes the string: the same key bytes through the buffer.
      assertThat(HashingSink.xxh3Of(s, (CharSequence x, Sink into) -> into.putString(x))).isEqualTo(sink.h1);
      sink.hash(l, Funnels.longFunnel(), HashStrategy.XXH3_64_BLOCKED);
      assertThat(sink.h1).isEqualTo(Xxh3Keys.ofLong(l)).isEqualTo(Xxh3Keys.of(l, Funnels.longFunnel()));
      assertThat(HashingSink.xxh3Of(l, (Long x, Sink into) -> into.putLong(x))).isEqualTo(sink.h1);
    } finally {
      sink.release();
    }
  }

  @Test
  void reentrantFunnelsGetTheirOwnSinkUnderXxh3() {
    Funnel<CharSequence> own = (x, into) -> into.putString(x); // not the string funnel: through the sink
    BloomFilter<CharSequence> inner = BloomFilter.builder(own).expectedInsertions(10).fpp(0.01).build();
    assertThat(inner.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    inner.add("inner");
    Funnel<String> reentrant = (x, sink) -> {
      sink.putString(x);
      sink.putBoolean(inner.mightContain("inner")); // re-enters HashingSink.xxh3Of on this thread
      sink.putString(x);
    };
    byte[] ab = Xxh3KeysTest.utf16Le("ab");
    byte[] expected = ByteBuffer.allocate(2 * ab.length + 1).put(ab).put((byte) 1).put(ab).array();
    assertThat(HashingSink.xxh3Of("ab", reentrant)).isEqualTo(Xxh3Keys.bytes(expected, 0, expected.length));
  }
}
