package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What every {@link BloomFilter} layout shares beyond {@link MembershipFilterContractTest}: exact
 * statistics, merge, copy, batches and the hash function count in files. Each layout subclasses this
 * with its factory.
 */
abstract class BloomFilterContractTest extends MembershipFilterContractTest {

  /** Creates an empty filter of the layout under test. */
  @Override
  protected abstract <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp);

  @Override
  protected <T> BloomFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException {
    return BloomFilter.readFrom(in, funnel);
  }

  private BloomFilter<CharSequence> strings(long n, double p) {
    return create(Funnels.stringFunnel(), n, p);
  }

  @Test
  void countFillRatioAndEstimatesAgreeWithTheLoad() {
    BloomFilter<Integer> f = create(Funnels.integerFunnel(), 20_000, 0.01);
    assertThat(f.fillRatio()).isZero();
    assertThat(f.approximateElementCount()).isZero();
    int added = (int) IntStream.range(0, 20_000).filter(i -> f.add(i)).count();
    assertThat(f.count()).isEqualTo(added);
    // A few adds may return false (their bits were already set: a false positive), never many.
    assertThat(added).isGreaterThan(20_000 - 20_000 / 50);
    double expectedFill = -Math.expm1(-(double) f.hashFunctions() * added / f.bitSize());
    assertThat(f.fillRatio()).isCloseTo(expectedFill, within(0.01));
    // Filled to its expected insertions, the filter estimates about its target rate from its bits.
    assertThat(f.estimatedFpp()).isBetween(0.8 * f.fpp(), 1.2 * f.fpp());
    assertThat((double) f.approximateElementCount()).isCloseTo(20_000, within(20_000 * 0.03));
  }

  @Test
  void mergeIsUnionAndSumsCounts() {
    BloomFilter<CharSequence> a = strings(1_000, 0.01);
    BloomFilter<CharSequence> b = strings(1_000, 0.01);
    for (int i = 0; i < 300; i++) {
      a.add("a" + i);
      b.add("b" + i);
    }
    assertThat(a.isCompatible(b)).isTrue();
    a.merge(b);
    for (int i = 0; i < 300; i++) {
      assertThat(a.mightContain("a" + i)).isTrue();
      assertThat(a.mightContain("b" + i)).isTrue();
    }
    assertThat(a.count()).isEqualTo(600);
    assertThat(b.mightContain("a0") && b.mightContain("a1") && b.mightContain("a2")).isFalse();
    a.merge(a);
    assertThat(a.count()).isEqualTo(600);
  }

  @Test
  void mergeOfIncompatibleFiltersNamesBothShapes() {
    BloomFilter<CharSequence> a = strings(1_000, 0.01);
    BloomFilter<CharSequence> b = strings(2_000, 0.01);
    a.add("kept");
    assertThat(a.isCompatible(b)).isFalse();
    assertThatThrownBy(() -> a.merge(b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bits=" + a.bitSize())
        .hasMessageContaining("bits=" + b.bitSize());
    assertThat(a.mightContain("kept")).isTrue();
  }

  @Test
  void copyIsIndependent() {
    BloomFilter<CharSequence> original = strings(1_000, 0.01);
    original.add("shared");
    BloomFilter<CharSequence> copy = original.copy();
    copy.add("only-in-copy");
    original.add("only-in-original");
    assertThat(copy.mightContain("shared")).isTrue();
    assertThat(original.mightContain("only-in-copy")).isFalse();
    assertThat(copy.mightContain("only-in-original")).isFalse();
    assertThat(copy.count()).isEqualTo(2);
    assertThat(original.count()).isEqualTo(2);
  }

  @Test
  @Override
  void writeThenReadAnswersIdentically() throws IOException {
    BloomFilter<CharSequence> f = strings(5_000, 0.02);
    for (int i = 0; i < 5_000; i++) {
      f.add("user" + i + "@example.com");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    BloomFilter<CharSequence> loaded = BloomFilter.readFrom(new ByteArrayInputStream(out.toByteArray()),
        Funnels.stringFunnel());
    assertThat(loaded.bitSize()).isEqualTo(f.bitSize());
    assertThat(loaded.hashFunctions()).isEqualTo(f.hashFunctions());
    assertThat(loaded.count()).isEqualTo(f.count());
    assertThat(loaded.expectedInsertions()).isEqualTo(5_000);
    assertThat(loaded.fpp()).isEqualTo(0.02);
    for (int i = 0; i < 20_000; i++) {
      String key = "user" + i + "@example.com";
      assertThat(loaded.mightContain(key)).isEqualTo(f.mightContain(key));
    }
  }

  @Test
  @Override
  void rejectsBadSizingArgumentsNamingTheValue() {
    assertThatThrownBy(() -> strings(0, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions").hasMessageContaining("was 0");
    assertThatThrownBy(() -> strings(-5, 0.01)).hasMessageContaining("was -5");
    for (double p : new double[] {0.0, 1.0, -0.1, 1.5, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> strings(100, p)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("fpp").hasMessageContaining("was " + p);
    }
    assertThatThrownBy(() -> strings(Long.MAX_VALUE / 2, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions=" + Long.MAX_VALUE / 2)
        .hasMessageContaining("limit of " + Sizing.MAX_BITS);
  }

  @Test
  void batchesAnswerExactlyAsSingleOperations() {
    BloomFilter<CharSequence> batched = strings(5_000, 0.01);
    BloomFilter<CharSequence> single = strings(5_000, 0.01);
    java.util.List<String> keys = new java.util.ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      keys.add("key" + i);
    }
    int changed = batched.addAll(keys);
    keys.forEach(single::add);
    assertThat(changed).isEqualTo(single.count()).isEqualTo(batched.count());
    assertThat(batched.currentWords()).isEqualTo(single.currentWords());
    java.util.List<String> probes = new java.util.ArrayList<>(keys);
    for (int i = 0; i < 20_000; i++) {
      probes.add("probe" + i);
    }
    boolean[] answers = batched.mightContainAll(probes);
    assertThat(answers).hasSize(probes.size());
    for (int i = 0; i < probes.size(); i++) {
      assertThat(answers[i]).as(probes.get(i)).isEqualTo(single.mightContain(probes.get(i)));
    }
    assertThat(batched.mightContainAll(java.util.List.of())).isEmpty();
  }

  @Test
  void longBatchesMatchBoxedOperationsAndNeedTheLongFunnel() {
    BloomFilter<Long> batched = create(Funnels.longFunnel(), 3_000, 0.01);
    BloomFilter<Long> boxed = create(Funnels.longFunnel(), 3_000, 0.01);
    // A lambda funnel writing the same bytes takes the generic (buffered) hashing path.
    BloomFilter<Long> generic = create((Long v, Sink sink) -> sink.putLong(v), 3_000, 0.01);
    long[] keys = new long[3_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i * 0x9E3779B97F4A7C15L;
      boxed.add(keys[i]);
      generic.add(keys[i]);
    }
    assertThat(batched.addAll(keys)).isEqualTo(boxed.count());
    assertThat(batched.currentWords()).isEqualTo(boxed.currentWords()).isEqualTo(generic.currentWords());
    long[] probes = new long[10_000];
    for (int i = 0; i < probes.length; i++) {
      probes[i] = i < 3_000 ? keys[i] : -i;
    }
    boolean[] answers = batched.mightContainAll(probes);
    for (int i = 0; i < probes.length; i++) {
      assertThat(answers[i]).isEqualTo(generic.mightContain(probes[i]));
    }
    BloomFilter<CharSequence> strings = strings(10, 0.01);
    assertThatThrownBy(() -> strings.addAll(new long[] {1})).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Funnels.longFunnel()");
  }
}
