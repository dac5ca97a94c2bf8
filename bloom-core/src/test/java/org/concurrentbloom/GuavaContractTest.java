package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The contracts a Guava user expects (issue 12), each against what Guava does where Guava is the model. */
class GuavaContractTest {
  private static final com.google.common.hash.Funnel<CharSequence> GUAVA_UTF8 =
      com.google.common.hash.Funnels.stringFunnel(StandardCharsets.UTF_8);

  private static BloomFilter<CharSequence> strings(long n, double p) {
    return BloomFilter.create(Funnels.stringFunnel(), n, p);
  }

  // ---------------------------------------------------------------- k and degenerate sizes

  @Test
  void aGuavaCompatibleFilterThatNeedsMoreThan255HashFunctionsIsRefusedNamingK() {
    // -log2(1e-80) = 265.75: Guava refuses, and so do we, instead of clamping k to 255.
    assertThatThrownBy(() -> com.google.common.hash.BloomFilter.create(GUAVA_UTF8, 1000, 1e-80))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(1000).fpp(1e-80)
        .guavaCompatible().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("266")
        .hasMessageContaining("at most 255");
    // The other layouts hold that k: they build (and keep it, not 255).
    assertThat(strings(1000, 1e-80).hashFunctions()).isEqualTo(266);
  }

  /** Every way to build a filter from (n, p). */
  private static List<Supplier<Object>> everyLayout(long n, double p) {
    return List.of(
        () -> strings(n, p),
        () -> BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(n).fpp(p).blocked().build(),
        () -> BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(n).fpp(p).guavaCompatible().build(),
        () -> BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(n).fpp(p).bitSize(),
        () -> CountingBloomFilter.create(Funnels.stringFunnel(), n, p),
        () -> org.concurrentbloom.internal.BitIndexer.sized(Funnels.stringFunnel(), n, p),
        () -> BloomFilter.toBloomFilter(Funnels.stringFunnel(), n, p));
  }

  @ParameterizedTest
  @CsvSource({"1, 0.7", "1, 0.62", "480, 0.999", "1, 0.9999999", "1000, 0.9999"})
  void sizesBelowOneBitAreRefusedByEveryLayoutAsByGuava(long n, double p) {
    assertThatThrownBy(() -> com.google.common.hash.BloomFilter.create(GUAVA_UTF8, n, p))
        .isInstanceOf(IllegalArgumentException.class);
    for (Supplier<Object> build : everyLayout(n, p)) {
      assertThatThrownBy(build::get)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("expectedInsertions=" + n)
          .hasMessageContaining("fpp=" + p)
          .hasMessageContaining("less than one bit");
    }
  }

  @ParameterizedTest
  @CsvSource({"1, 0.6", "481, 0.999", "2, 0.7"})
  void sizesOfAtLeastOneBitAreBuiltByEveryLayoutAsByGuava(long n, double p) {
    assertThat(com.google.common.hash.BloomFilter.create(GUAVA_UTF8, n, p)).isNotNull();
    for (Supplier<Object> build : everyLayout(n, p)) {
      assertThat(build.get()).isNotNull();
    }
  }

  @Test
  void aScalableFilterAppliesTheRuleToEachLayerAtItsOwnRate() {
    // Layer 0 runs at p (1 - r): 0.09 with the default r = 0.9, which is above one bit for n = 1 ...
    assertThat(ScalableBloomFilter.create(Funnels.stringFunnel(), 1, 0.9).layerCount()).isEqualTo(1);
    // ... and 0.8991 with r = 0.001, which is not.
    assertThatThrownBy(() -> ScalableBloomFilter.builder(Funnels.stringFunnel()).initialCapacity(1).fpp(0.9)
        .tighteningRatio(0.001).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions=1")
        .hasMessageContaining("less than one bit");
  }

  @Test
  void expectedInsertionsOfZeroIsRefusedWhereGuavaTakesOne() {
    assertThat(com.google.common.hash.BloomFilter.create(GUAVA_UTF8, 0, 0.01)).isNotNull(); // Guava: as if 1
    assertThatThrownBy(() -> strings(0, 0.01))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
  }

  // ---------------------------------------------------------------- nulls

  private static void npe(ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOf(NullPointerException.class);
  }

  @Test
  void nullArgumentsThrowNullPointerExceptionEverywhere() {
    BloomFilter<CharSequence> s = strings(100, 0.01);
    BloomFilter<Long> l = BloomFilter.create(Funnels.longFunnel(), 100, 0.01);
    // A long[] batch on a filter of strings: the null is the first thing wrong, not the funnel.
    assertThatThrownBy(() -> s.addAll((long[]) null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("keys");
    assertThatThrownBy(() -> s.mightContainAll((long[]) null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("keys");
    npe(() -> l.addAll((long[]) null));
    npe(() -> l.mightContainAll((long[]) null));
    npe(() -> s.addAll((Iterable<CharSequence>) null));
    npe(() -> s.mightContainAll((List<CharSequence>) null));
    npe(() -> s.addAll(Arrays.asList("a", null)));
    npe(() -> s.mightContainAll(Arrays.asList("a", null)));
    npe(() -> s.add(null));
    npe(() -> s.mightContain(null));
    npe(() -> l.add(null));
    npe(() -> l.mightContain(null));
    npe(() -> s.merge(null));
    npe(() -> s.isCompatible(null));
    npe(() -> s.writeTo(null));
    npe(() -> BloomFilter.readFrom(null, Funnels.stringFunnel()));
    npe(() -> BloomFilter.readFrom(new ByteArrayInputStream(new byte[0]), null));
    npe(() -> BloomFilter.create(null, 10, 0.01));
    npe(() -> BloomFilter.builder(null));
    npe(() -> BloomFilter.toBloomFilter(null, 10, 0.01));
    npe(() -> GuavaInterop.writeTo(null, new ByteArrayOutputStream()));
    npe(() -> GuavaInterop.writeTo(BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10)
        .guavaCompatible().build(), null));
    npe(() -> GuavaInterop.readFrom(null, Funnels.stringFunnel()));
    CountingBloomFilter<CharSequence> c = CountingBloomFilter.create(Funnels.stringFunnel(), 100, 0.01);
    npe(() -> c.add(null));
    npe(() -> c.mightContain(null));
    npe(() -> c.remove(null));
    npe(() -> c.merge(null));
    npe(() -> c.writeTo(null));
    ScalableBloomFilter<CharSequence> sc = ScalableBloomFilter.create(Funnels.stringFunnel(), 100, 0.01);
    npe(() -> sc.add(null));
    npe(() -> sc.mightContain(null));
    npe(() -> sc.writeTo(null));
  }

  // ---------------------------------------------------------------- equals and hashCode

  @Test
  void filtersWithTheSameShapeFunnelAndBitsAreEqualLikeGuavas() {
    BloomFilter<CharSequence> a = strings(1000, 0.01);
    BloomFilter<CharSequence> b = strings(1000, 0.01);
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    for (int i = 0; i < 500; i++) {
      a.add(FalsePositiveRateTest.insertedKey(i));
      b.add(FalsePositiveRateTest.insertedKey(499 - i)); // another order: the same bits
    }
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.copy()).isEqualTo(a);
    b.add("one more");
    assertThat(a).isNotEqualTo(b);
    assertThat(a.hashCode()).isNotEqualTo(b.hashCode()); // not promised, but these bits do differ
    // Shape and funnel take part; the recorded n and p do not (they change no answer).
    assertThat(strings(1000, 0.01)).isNotEqualTo(strings(1000, 0.02));
    assertThat(strings(1000, 0.01)).isNotEqualTo(BloomFilter.builder(Funnels.stringFunnel())
        .expectedInsertions(1000).fpp(0.01).guavaCompatible().build());
    Funnel<CharSequence> custom = (s, into) -> into.putString(s);
    assertThat(strings(1000, 0.01)).isNotEqualTo(BloomFilter.create(custom, 1000, 0.01));
    BloomFilter<CharSequence> sizedFor1001 = strings(1001, 0.01);
    assertThat(sizedFor1001.bitSize()).isEqualTo(strings(1000, 0.01).bitSize());
    assertThat(sizedFor1001).isEqualTo(strings(1000, 0.01));
    assertThat(a).isNotEqualTo("a string").isNotEqualTo(null);
  }

  // ---------------------------------------------------------------- merge

  private static final Funnel<CharSequence> SAME_BYTES_AS_STRINGS = (s, into) -> into.putString(s);

  @Test
  void mergeRefusesFunnelsKnownToWriteDifferentKeys() {
    BloomFilter<CharSequence> utf8 = strings(1000, 0.01);
    BloomFilter<CharSequence> bytes =
        BloomFilter.create(Funnels.withKeyType(SAME_BYTES_AS_STRINGS, KeyType.BYTES), 1000, 0.01);
    assertThat(utf8.isCompatible(bytes)).isFalse();
    assertThatThrownBy(() -> utf8.merge(bytes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("UTF-8 strings vs byte arrays");
    // A custom funnel has not said which bytes it writes: it matches no typed one until declared.
    BloomFilter<CharSequence> custom = BloomFilter.create(SAME_BYTES_AS_STRINGS, 1000, 0.01);
    assertThatThrownBy(() -> utf8.merge(custom))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Funnels.withKeyType");
    BloomFilter<CharSequence> declared =
        BloomFilter.create(Funnels.withKeyType(SAME_BYTES_AS_STRINGS, KeyType.UTF8_STRING), 1000, 0.01);
    declared.add("x");
    utf8.merge(declared);
    assertThat(utf8.mightContain("x")).isTrue();
    // Two custom funnels match when equal (here: the same instance), as Guava requires of every funnel.
    BloomFilter<CharSequence> custom2 = BloomFilter.create(SAME_BYTES_AS_STRINGS, 1000, 0.01);
    custom2.add("y");
    custom.merge(custom2);
    assertThat(custom.mightContain("y")).isTrue();
    Funnel<CharSequence> another = (s, into) -> into.putString(s);
    BloomFilter<CharSequence> other = BloomFilter.create(another, 1000, 0.01);
    assertThat(custom.isCompatible(other)).isFalse();
    assertThatThrownBy(() -> custom.merge(other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not equal()");
    // The counting filter keeps the same rule.
    CountingBloomFilter<CharSequence> c1 = CountingBloomFilter.create(Funnels.stringFunnel(), 1000, 0.01);
    CountingBloomFilter<CharSequence> c2 = CountingBloomFilter.create(
        Funnels.withKeyType(SAME_BYTES_AS_STRINGS, KeyType.BYTES), 1000, 0.01);
    assertThat(c1.isCompatible(c2)).isFalse();
    assertThatThrownBy(() -> c1.merge(c2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("UTF-8 strings vs byte arrays");
  }

  @Test
  void mergeWithItselfIsADocumentedNoOp() {
    BloomFilter<CharSequence> f = strings(1000, 0.01);
    for (int i = 0; i < 100; i++) {
      f.add(FalsePositiveRateTest.insertedKey(i));
    }
    BloomFilter<CharSequence> before = f.copy();
    long count = f.count();
    f.merge(f);
    assertThat(f).isEqualTo(before);
    assertThat(f.count()).isEqualTo(count);
    var guava = com.google.common.hash.BloomFilter.create(GUAVA_UTF8, 1000, 0.01);
    assertThatThrownBy(() -> guava.putAll(guava)).isInstanceOf(IllegalArgumentException.class);
  }

  // ---------------------------------------------------------------- Guava files

  /** A Guava filter with strategy MURMUR128_MITZ_32, which Guava's public API no longer builds. */
  @SuppressWarnings("unchecked")
  private static com.google.common.hash.BloomFilter<CharSequence> guavaMitz32(long n, double p) throws Exception {
    Class<?> strategies = Class.forName("com.google.common.hash.BloomFilterStrategies");
    Object mitz32 = strategies.getEnumConstants()[0];
    assertThat(mitz32.toString()).isEqualTo("MURMUR128_MITZ_32");
    Method create = com.google.common.hash.BloomFilter.class.getDeclaredMethod("create",
        com.google.common.hash.Funnel.class, long.class, double.class,
        Class.forName("com.google.common.hash.BloomFilter$Strategy"));
    create.setAccessible(true);
    return (com.google.common.hash.BloomFilter<CharSequence>) create.invoke(null, GUAVA_UTF8, n, p, mitz32);
  }

  @Test
  void aMitz32FileAnswersExactlyAsGuavaForAMillionProbes() throws Exception {
    var guava = guavaMitz32(100_000, 0.01);
    for (int i = 0; i < 100_000; i++) {
      guava.put(FalsePositiveRateTest.insertedKey(i));
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    guava.writeTo(bytes);
    assertThat(bytes.toByteArray()[0]).isZero(); // the ordinal of MURMUR128_MITZ_32
    BloomFilter<CharSequence> ours =
        GuavaInterop.readFrom(new ByteArrayInputStream(bytes.toByteArray()), Funnels.stringFunnel());
    for (int i = 0; i < 100_000; i++) {
      assertThat(ours.mightContain(FalsePositiveRateTest.insertedKey(i))).isTrue();
    }
    int disagreements = 0;
    int falsePositives = 0;
    for (int i = 0; i < 1_000_000; i++) {
      String probe = FalsePositiveRateTest.absentKey(i);
      boolean answer = ours.mightContain(probe);
      if (answer != guava.mightContain(probe)) {
        disagreements++;
      }
      if (answer) {
        falsePositives++;
      }
    }
    System.out.printf("MURMUR128_MITZ_32: 1,000,000 probes, %d disagreements, %d false positives%n",
        disagreements, falsePositives);
    assertThat(disagreements).isZero();
    assertThat(falsePositives).isBetween(5_000, 20_000); // about 1%: the probes reach set bits
    // Adds keep Guava's placement too: a key added on our side is then in Guava's bits.
    ours.add("added after the load");
    guava.put("added after the load");
    assertThat(ours.currentWords()).isEqualTo(guavaWords(guava));
    // Only MURMUR128_MITZ_64 is written; the CBLM format has no strategy id for these probes.
    assertThatThrownBy(() -> GuavaInterop.writeTo(ours, new ByteArrayOutputStream()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MURMUR128_MITZ_32");
    assertThatThrownBy(() -> ours.writeTo(new ByteArrayOutputStream()))
        .isInstanceOf(IOException.class).hasMessageContaining("MURMUR128_MITZ_32");
    // The same shape in MITZ_64 places its bits elsewhere: not compatible, not equal.
    BloomFilter<CharSequence> mitz64 = GuavaInterop.readFrom(new ByteArrayInputStream(
        mitz64Bytes(100_000, 0.01)), Funnels.stringFunnel());
    assertThat(mitz64.bitSize()).isEqualTo(ours.bitSize());
    assertThat(mitz64.hashFunctions()).isEqualTo(ours.hashFunctions());
    assertThat(ours.isCompatible(mitz64)).isFalse();
    assertThat(ours.copy()).isEqualTo(ours);
  }

  private static long[] guavaWords(com.google.common.hash.BloomFilter<?> g) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.writeTo(out);
    var b = java.nio.ByteBuffer.wrap(out.toByteArray());
    b.position(2);
    long[] words = new long[b.getInt()];
    for (int i = 0; i < words.length; i++) {
      words[i] = b.getLong();
    }
    return words;
  }

  private static byte[] mitz64Bytes(long n, double p) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    com.google.common.hash.BloomFilter.create(GUAVA_UTF8, n, p).writeTo(out);
    return out.toByteArray();
  }

  @Test
  void afterAGuavaLoadNAndPAreDerivedFromTheShape() throws IOException {
    BloomFilter<CharSequence> loaded = GuavaInterop.readFrom(new ByteArrayInputStream(
        mitz64Bytes(100_000, 0.01)), Funnels.stringFunnel());
    assertThat(loaded.expectedInsertions()).isEqualTo(94_914);
    assertThat(loaded.fpp()).isCloseTo(0.0078, org.assertj.core.api.Assertions.within(0.00005));
  }

  @Test
  void estimatedFppIsGuavasExpectedFppPastCapacityToo() {
    var guava = com.google.common.hash.BloomFilter.create(GUAVA_UTF8, 1000, 0.01);
    BloomFilter<CharSequence> ours = BloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .expectedInsertions(1000).fpp(0.01).guavaCompatible().build();
    for (int i = 0; i < 4000; i++) { // 4x capacity: many adds find their bits set
      guava.put(FalsePositiveRateTest.insertedKey(i));
      ours.add(FalsePositiveRateTest.insertedKey(i));
    }
    assertThat(guava.expectedFpp()).isGreaterThan(0.6);
    assertThat(ours.estimatedFpp()).isCloseTo(guava.expectedFpp(), org.assertj.core.api.Assertions.within(1e-9));
    assertThat(ours.approximateElementCount()).isEqualTo(guava.approximateElementCount());
  }

  @Test
  void anUnknownGuavaStrategyOrdinalIsRefusedNamingIt() {
    byte[] bytes = {2, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    assertThatThrownBy(() -> GuavaInterop.readFrom(new ByteArrayInputStream(bytes), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("ordinal 2");
  }
}
