package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * count() saturates at Long.MAX_VALUE instead of wrapping: a file may hold any count up to it, and an
 * add or merge past it must not produce a negative count, which the writer would write and every reader
 * (this library's included) would refuse.
 */
class CountSaturationTest {
  private static byte[] bytes(MembershipFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  /** The filter's file with its count field (offset 36) set to Long.MAX_VALUE and the CRC fixed. */
  private static byte[] withMaxCount(MembershipFilter<?> f) throws IOException {
    byte[] b = bytes(f);
    ByteBuffer.wrap(b).putLong(36, Long.MAX_VALUE);
    return FilterFormatRejectionTest.withFixedCrc(b);
  }

  @Test
  void addsAndMergesPastTheLargestCountStayReadable() throws IOException {
    BloomFilter<CharSequence> full = BloomFilter.readFrom(
        new ByteArrayInputStream(withMaxCount(BloomFilter.create(Funnels.stringFunnel(), 100, 0.01))),
        Funnels.stringFunnel());
    assertThat(full.add("one more")).isTrue();
    assertThat(full.count()).isEqualTo(Long.MAX_VALUE);
    BloomFilter<CharSequence> other = BloomFilter.create(Funnels.stringFunnel(), 100, 0.01);
    other.add("x");
    full.merge(other);
    assertThat(full.count()).isEqualTo(Long.MAX_VALUE);
    BloomFilter<CharSequence> reread = BloomFilter.readFrom(new ByteArrayInputStream(bytes(full)),
        Funnels.stringFunnel());
    assertThat(reread.count()).isEqualTo(Long.MAX_VALUE);
    assertThat(reread.mightContain("one more")).isTrue();
  }

  @Test
  void countingMergesPastTheLargestCountStayAtIt() throws IOException {
    CountingBloomFilter<CharSequence> full = CountingBloomFilter.readFrom(
        new ByteArrayInputStream(withMaxCount(CountingBloomFilter.create(Funnels.stringFunnel(), 100, 0.01))),
        Funnels.stringFunnel());
    CountingBloomFilter<CharSequence> other = CountingBloomFilter.create(Funnels.stringFunnel(), 100, 0.01);
    other.add("x");
    full.merge(other);
    assertThat(full.count()).isEqualTo(Long.MAX_VALUE);
  }
}
