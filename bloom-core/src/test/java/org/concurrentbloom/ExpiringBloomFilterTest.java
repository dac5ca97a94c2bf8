package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ExpiringBloomFilterTest {
  private static final long W = 70_000; // 7 slots of 10 s with the default 8 generations

  private static ExpiringBloomFilter<Long> longs(TestClock clock, long n, double p) {
    return ExpiringBloomFilter.builder(Funnels.longFunnel()).window(Duration.ofMillis(W))
        .expectedInsertionsPerWindow(n).fpp(p).clock(clock).build();
  }

  @Test
  void remembersForTheWindowAndForgetsByMaxRetention() {
    TestClock clock = new TestClock(1_000_000);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    assertThat(f.generationSpan()).isEqualTo(Duration.ofSeconds(10));
    assertThat(f.maxRetention()).isEqualTo(Duration.ofSeconds(80));
    long t0 = clock.advance(3_333);
    for (long i = 0; i < 1_000; i++) {
      assertThat(f.add(i)).isTrue();
    }
    for (long t = t0; t < t0 + W; t += 997) {
      clock.set(t);
      for (long i = 0; i < 1_000; i++) {
        assertThat(f.mightContain(i)).as("key %d at +%d ms", i, t - t0).isTrue();
      }
    }
    clock.set(t0 + W - 1);
    for (long i = 0; i < 1_000; i++) {
      assertThat(f.mightContain(i)).isTrue();
    }
    clock.set(t0 + 80_000);
    long found = 0;
    for (long i = 0; i < 1_000; i++) {
      found += f.mightContain(i) ? 1 : 0;
    }
    assertThat(found).isLessThanOrEqualTo(5);
    assertThat(f.count()).isZero();
  }

  @Test
  void roundTrip() throws IOException {
    TestClock clock = new TestClock(0);
    ExpiringBloomFilter<Long> f = longs(clock, 10_000, 0.01);
    for (long i = 0; i < 20_000; i++) {
      f.add(i);
      clock.advance(7);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    ExpiringBloomFilter<Long> g = ExpiringBloomFilter.readFrom(new ByteArrayInputStream(out.toByteArray()),
        Funnels.longFunnel(), clock);
    for (long i = 0; i < 40_000; i++) {
      assertThat(g.mightContain(i)).isEqualTo(f.mightContain(i));
    }
    assertThat(g.count()).isEqualTo(f.count());
    assertThat(g.generations()).isEqualTo(f.generations());
    System.out.println(f.generations());
    System.out.println(f + " fill " + f.fillRatio() + " fpp " + f.estimatedFpp() + " n~" + f.approximateElementCount());
  }

  @Test
  void builderErrors() {
    assertThatThrownBy(() -> ExpiringBloomFilter.builder(Funnels.longFunnel()).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("window");
  }
}
