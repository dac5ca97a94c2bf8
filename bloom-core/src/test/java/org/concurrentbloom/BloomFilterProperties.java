package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Scale;
import net.jqwik.api.constraints.Size;

/** Properties that must hold for every set of items and every reasonable shape. Seeds are fixed. */
class BloomFilterProperties {

  private static BloomFilter<CharSequence> filterOf(List<String> items, long n, double p) {
    BloomFilter<CharSequence> f = BloomFilter.create(Funnels.stringFunnel(), n, p);
    items.forEach(f::add);
    return f;
  }

  @Property(tries = 300, seed = "20261129")
  void noFalseNegatives(@ForAll @Size(max = 500) List<String> items,
      @ForAll @LongRange(min = 1, max = 2_000) long n, @ForAll @DoubleRange(min = 0.0001, max = 0.5) @Scale(6) double p) {
    BloomFilter<CharSequence> f = filterOf(items, n, p);
    for (String item : items) {
      assertThat(f.mightContain(item)).isTrue();
    }
  }

  @Property(tries = 200, seed = "20261130")
  void mergeContainsBothSides(@ForAll @Size(max = 300) List<String> a, @ForAll @Size(max = 300) List<String> b,
      @ForAll @LongRange(min = 1, max = 1_000) long n) {
    BloomFilter<CharSequence> left = filterOf(a, n, 0.01);
    BloomFilter<CharSequence> right = filterOf(b, n, 0.01);
    left.merge(right);
    for (String item : a) {
      assertThat(left.mightContain(item)).isTrue();
    }
    for (String item : b) {
      assertThat(left.mightContain(item)).isTrue();
    }
  }

  @Property(tries = 200, seed = "20261131")
  void writeReadRoundTripAnswersIdentically(@ForAll @Size(max = 300) List<String> items,
      @ForAll @Size(min = 1, max = 300) List<String> probes, @ForAll @LongRange(min = 1, max = 1_000) long n,
      @ForAll @DoubleRange(min = 0.001, max = 0.3) @Scale(6) double p) throws IOException {
    BloomFilter<CharSequence> f = filterOf(items, n, p);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    BloomFilter<CharSequence> g = BloomFilter.readFrom(new ByteArrayInputStream(out.toByteArray()),
        Funnels.stringFunnel());
    for (String probe : probes) {
      assertThat(g.mightContain(probe)).isEqualTo(f.mightContain(probe));
    }
    for (String item : items) {
      assertThat(g.mightContain(item)).isTrue();
    }
    assertThat(g.count()).isEqualTo(f.count());
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    g.writeTo(again);
    assertThat(again.toByteArray()).isEqualTo(out.toByteArray());
  }

  @Property(tries = 200, seed = "20261132")
  void copyIsIndependentOfTheOriginal(@ForAll @Size(max = 200) List<String> before,
      @ForAll @Size(min = 1, max = 200) List<String> after) {
    BloomFilter<CharSequence> original = filterOf(before, 500, 0.01);
    BloomFilter<CharSequence> copy = original.copy();
    long[] originalWords = original.currentWords().clone();
    after.forEach(copy::add);
    assertThat(original.currentWords()).isEqualTo(originalWords);
    long[] copyWords = copy.currentWords().clone();
    after.forEach(item -> original.add(item + "\u0000original"));
    assertThat(copy.currentWords()).isEqualTo(copyWords);
    for (String item : before) {
      assertThat(copy.mightContain(item)).isTrue();
    }
  }
}
