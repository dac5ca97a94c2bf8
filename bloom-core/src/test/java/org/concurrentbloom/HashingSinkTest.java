package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HashingSinkTest {

  private static long[] hashOf(byte[] bytes) {
    HashValue128 h = Hashing.xxh3_128().hashBytesTo128Bits(bytes);
    return new long[] {h.getLeastSignificantBits(), h.getMostSignificantBits()};
  }

  private static <T> long[] sinkHash(T item, Funnel<? super T> funnel) {
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(item, funnel);
      return new long[] {sink.hashLow, sink.hashHigh};
    } finally {
      sink.release();
    }
  }

  @Test
  void emptyInputMatchesThePublishedXxh3Vector() {
    // XXH3_128bits("") with seed 0 = 0x99aa06d3014798d8_6001c324468d497f (xxHash reference test vector).
    long[] h = sinkHash(new byte[0], Funnels.byteArrayFunnel());
    assertThat(h[0]).isEqualTo(0x6001c324468d497fL);
    assertThat(h[1]).isEqualTo(0x99aa06d3014798d8L);
  }

  @Property(tries = 500)
  void stringFunnelHashesExactlyTheUtf8Bytes(@ForAll String s) {
    assertThat(sinkHash(s, Funnels.stringFunnel())).isEqualTo(hashOf(s.getBytes(StandardCharsets.UTF_8)));
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
