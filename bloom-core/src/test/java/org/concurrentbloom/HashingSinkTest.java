package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
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
    BloomFilter<CharSequence> inner = BloomFilter.create(Funnels.stringFunnel(), 10, 0.01);
    inner.add("inner");
    Funnel<String> reentrant = (s, sink) -> {
      sink.putString(s);
      sink.putBoolean(inner.mightContain("inner")); // re-enters the hashing code on this thread
      sink.putString(s);
    };
    byte[] expected = ("ab" + "\u0001" + "ab").getBytes(StandardCharsets.UTF_8);
    assertThat(sinkHash("ab", reentrant)).isEqualTo(hashOf(expected));
  }
}
