package org.concurrentbloom;

import static java.nio.charset.StandardCharsets.UTF_16LE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hash of strategies 4 and 5 ({@link Xxh3Keys}): hash4j's XXH3-64 against the xxHash project's own
 * known answers, the key bytes of strings and longs, the funnels that must agree on them, the h2
 * finalizer's bijection and avalanche, and the batch paths against the single operations.
 */
class Xxh3KeysTest {

  // ---------------------------------------------------------------- (a) XXH3-64 known answers

  private static final long PRIME32 = 2654435761L;
  // As the C source writes it (not XXH64's PRIME64_1, which ends in ...791): 0x9E3779B185EBCA8D.
  private static final long PRIME64 = Long.parseUnsignedLong("11400714785074694797");

  /**
   * The sanity-test input of xxHash: byte i is the top byte of a 64-bit generator that starts at PRIME32
   * and is multiplied by PRIME64 (mod 2^64) after each byte. Written from the description of
   * {@code XSUM_fillTestBuffer} in cli/xsum_sanity_check.c of https://github.com/Cyan4973/xxHash (the
   * same generator as tests/sanity_test_vectors_generator.c).
   */
  static byte[] sanityBuffer(int length) {
    byte[] buffer = new byte[length];
    long gen = PRIME32;
    for (int i = 0; i < length; i++) {
      buffer[i] = (byte) (gen >>> 56);
      gen *= PRIME64;
    }
    return buffer;
  }

  /**
   * (length, XXH3_64bits of the first length bytes of {@link #sanityBuffer}, seed 0): the seed-0 rows of
   * {@code XSUM_XXH3_testdata} in cli/xsum_sanity_check.c of https://github.com/Cyan4973/xxHash (xxHash's
   * self-test, which xxhsum runs on every platform). The comments name the code path of XXH3 each
   * length takes.
   */
  static Stream<Arguments> knownAnswers() {
    return Stream.of(
        Arguments.of(0, 0x2D06800538D394C2L), // empty input
        Arguments.of(1, 0xC44BDFF4074EECDBL), // 1..3
        Arguments.of(6, 0x27B56A84CD2D7325L), // 4..8
        Arguments.of(12, 0xA713DAF0DFBB77E7L), // 9..16
        Arguments.of(24, 0xA3FE70BF9D3510EBL), // 17..128 (17..32)
        Arguments.of(48, 0x397DA259ECBA1F11L), // 17..128 (33..64)
        Arguments.of(80, 0xBCDEFBBB2C47C90AL), // 17..128 (65..96)
        Arguments.of(195, 0xCD94217EE362EC3AL), // 129..240
        Arguments.of(403, 0xCDEB804D65C6DEA4L), // > 240: one block, last stripe overlapping
        Arguments.of(512, 0x617E49599013CB6BL), // > 240: one block, ending at a stripe boundary
        Arguments.of(2048, 0xDD59E2C3A5F038E0L), // > 240: two blocks, ending at a block boundary
        Arguments.of(2099, 0xC6B9D9B3FC9AC765L), // > 240: two blocks and a partial one
        Arguments.of(2240, 0x6E73A90539CF2948L), // > 240: three blocks, ending at a stripe boundary
        Arguments.of(2367, 0xCB37AEB9E5D361EDL)); // > 240: three blocks, last stripe overlapping
  }

  @ParameterizedTest(name = "len {0}")
  @MethodSource("knownAnswers")
  void xxh3AgreesWithTheXxHashSanityVectors(int length, long expected) {
    byte[] input = sanityBuffer(length);
    assertThat(Xxh3Keys.bytes(input, 0, length)).as("XXH3_64bits of %d bytes", length).isEqualTo(expected);
    // The same bytes at an offset inside a larger array hash alike.
    byte[] padded = new byte[length + 7];
    System.arraycopy(input, 0, padded, 3, length);
    assertThat(Xxh3Keys.bytes(padded, 3, length)).isEqualTo(expected);
  }

  // ---------------------------------------------------------------- (b) key bytes of strings and longs

  /** ASCII, Latin-1, other BMP, surrogate pairs; short and long enough for every XXH3 length class. */
  static Stream<String> wellFormedStrings() {
    return Stream.of("", "a", "ab", "abcd", "user42@example.com", "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e",
        "\u00ff\u00fe\u00a0", "\u4e2d\u6587\u5b57\u7b26", "\u20ac\u2603\uffee", "\ud83d\ude00",
        "a\ud83d\ude00b\ud834\udd1e", "x".repeat(100), "\u00e9".repeat(70), "\ud83c\udf89".repeat(40),
        "mixed \u00e9\u4e2d\ud83d\ude00 ".repeat(30));
  }

  @ParameterizedTest
  @MethodSource("wellFormedStrings")
  void aStringHashesAsItsUtf16LittleEndianBytes(String s) {
    byte[] le = s.getBytes(UTF_16LE);
    assertThat(le).isEqualTo(utf16Le(s));
    assertThat(Xxh3Keys.chars(s)).isEqualTo(Xxh3Keys.bytes(le, 0, le.length));
    // Any CharSequence, not only a String.
    assertThat(Xxh3Keys.chars(java.nio.CharBuffer.wrap(s))).isEqualTo(Xxh3Keys.chars(s));
  }

  @ParameterizedTest
  @MethodSource("unpairedSurrogates")
  void anUnpairedSurrogateIsHashedAsItsCodeUnit(String s) {
    // getBytes would replace the surrogate; the key bytes keep it, so build them by hand.
    byte[] le = utf16Le(s);
    assertThat(Xxh3Keys.chars(s)).isEqualTo(Xxh3Keys.bytes(le, 0, le.length));
  }

  static Stream<String> unpairedSurrogates() {
    return Stream.of("\ud800", "\udfff", "a\ud800b", "a\udc00b", "\ude00\ud83d", "ok\ud83d");
  }

  @Test
  void aLongHashesAsItsEightLittleEndianBytes() {
    SplittableRandom random = new SplittableRandom(14);
    List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0102030405060708L));
    for (int i = 0; i < 1000; i++) {
      values.add(random.nextLong());
    }
    for (long v : values) {
      byte[] le = new byte[8];
      for (int i = 0; i < 8; i++) {
        le[i] = (byte) (v >>> (8 * i));
      }
      assertThat(Xxh3Keys.ofLong(v)).as("key %d", v).isEqualTo(Xxh3Keys.bytes(le, 0, 8));
    }
  }

  static byte[] utf16Le(CharSequence s) {
    byte[] out = new byte[2 * s.length()];
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      out[2 * i] = (byte) c;
      out[2 * i + 1] = (byte) (c >>> 8);
    }
    return out;
  }

  // ---------------------------------------------------------------- (c) funnels that must agree

  /** A funnel of the caller's own that writes a string with putString, as the built-in one does. */
  private static final class OwnStringFunnel implements Funnel<CharSequence> {
    @Override
    public void funnel(CharSequence from, Sink into) {
      into.putString(from);
    }
  }

  /** A custom funnel of another item type whose bytes are those of a string. */
  private record Name(String value) {}

  private static BloomFilter<CharSequence> strings(Funnel<CharSequence> funnel, HashStrategy strategy) {
    BloomFilter.Builder<CharSequence> b = BloomFilter.<CharSequence>builder(funnel).expectedInsertions(500)
        .fpp(0.01).hashStrategy(strategy);
    return isBlocked(strategy) ? b.blocked().build() : b.build();
  }

  static boolean isBlocked(HashStrategy strategy) {
    return strategy == HashStrategy.MURMUR3_128_BLOCKED || strategy == HashStrategy.XXH3_64_BLOCKED;
  }

  @ParameterizedTest
  @EnumSource(value = HashStrategy.class, names = {"XXH3_64_ENHANCED_DOUBLE", "XXH3_64_BLOCKED"})
  void theStringFunnelADeclaredOneAndACustomOneSetTheSameBits(HashStrategy strategy) {
    BloomFilter<CharSequence> builtIn = strings(Funnels.stringFunnel(), strategy);
    BloomFilter<CharSequence> declared = strings(Funnels.withKeyType(new OwnStringFunnel(), KeyType.UTF8_STRING),
        strategy);
    BloomFilter<CharSequence> custom = strings(new OwnStringFunnel(), strategy);
    Funnel<Name> names = (name, into) -> into.putString(name.value());
    BloomFilter.Builder<Name> nb = BloomFilter.builder(names).expectedInsertions(500).fpp(0.01)
        .hashStrategy(strategy);
    BloomFilter<Name> byName = isBlocked(strategy) ? nb.blocked().build() : nb.build();
    assertThat(builtIn.hashStrategy()).isEqualTo(strategy);
    assertThat(custom.hashStrategy()).isEqualTo(strategy);

    List<String> keys = Stream.concat(wellFormedStrings(), unpairedSurrogates()).toList();
    for (String k : keys) {
      builtIn.add(k);
      declared.add(k);
      custom.add(k);
      byName.add(new Name(k));
    }
    assertThat(builtIn.fillRatio()).isPositive();
    assertThat(declared.currentWords()).isEqualTo(builtIn.currentWords());
    assertThat(custom.currentWords()).isEqualTo(builtIn.currentWords());
    assertThat(byName.currentWords()).isEqualTo(builtIn.currentWords());
    for (String k : keys) {
      assertThat(custom.mightContain(k)).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(value = HashStrategy.class, names = {"XXH3_64_ENHANCED_DOUBLE", "XXH3_64_BLOCKED"})
  void anUnpairedSurrogateAndAQuestionMarkDifferUnderXxh3(HashStrategy strategy) {
    for (Funnel<CharSequence> funnel : List.of(Funnels.stringFunnel(), new OwnStringFunnel())) {
      assertThat(bitsOf(funnel, strategy, "a\ud800b")).as("%s", funnel)
          .isNotEqualTo(bitsOf(funnel, strategy, "a?b"));
    }
    assertThat(Xxh3Keys.chars("a\ud800b")).isNotEqualTo(Xxh3Keys.chars("a?b"));
  }

  @ParameterizedTest
  @EnumSource(value = HashStrategy.class, names = {"MURMUR3_128_ENHANCED_DOUBLE", "MURMUR3_128_BLOCKED"})
  void anUnpairedSurrogateAndAQuestionMarkAgreeUnderMurmur3(HashStrategy strategy) {
    // UTF-8, as String.getBytes writes it, turns the unpaired surrogate into '?'.
    for (Funnel<CharSequence> funnel : List.of(Funnels.stringFunnel(), new OwnStringFunnel())) {
      assertThat(bitsOf(funnel, strategy, "a\ud800b")).as("%s", funnel)
          .isEqualTo(bitsOf(funnel, strategy, "a?b"));
    }
  }

  private static long[] bitsOf(Funnel<CharSequence> funnel, HashStrategy strategy, String key) {
    BloomFilter<CharSequence> f = strings(funnel, strategy);
    f.add(key);
    return f.currentWords();
  }

  // ---------------------------------------------------------------- (d) the h2 finalizer

  /** The inverse of {@link Xxh3Keys#second}, undone step by step: so second is a bijection of 64 bits. */
  static long inverseOfSecond(long z) {
    z = unXorShift(z, 31);
    z *= inverseMod2To64(0x94D049BB133111EBL);
    z = unXorShift(z, 27);
    z *= inverseMod2To64(0xBF58476D1CE4E5B9L);
    z = unXorShift(z, 30);
    return z - 0x9E3779B97F4A7C15L;
  }

  /** x from {@code y = x ^ (x >>> shift)}: each pass recovers {@code shift} more top bits. */
  static long unXorShift(long y, int shift) {
    long x = y;
    for (int known = shift; known < 64; known += shift) {
      x = y ^ (x >>> shift);
    }
    return x;
  }

  /** The multiplicative inverse of an odd {@code a} modulo 2^64, by Newton's iteration. */
  static long inverseMod2To64(long a) {
    long x = a; // correct to 3 bits for odd a; each step doubles the correct bits
    for (int i = 0; i < 5; i++) {
      x *= 2 - a * x;
    }
    return x;
  }

  @Test
  void secondIsABijection() {
    assertThat(0x94D049BB133111EBL * inverseMod2To64(0x94D049BB133111EBL)).isEqualTo(1L);
    assertThat(0xBF58476D1CE4E5B9L * inverseMod2To64(0xBF58476D1CE4E5B9L)).isEqualTo(1L);
    SplittableRandom random = new SplittableRandom(20261201L);
    int samples = 200_000;
    long[] outputs = new long[samples + 4];
    long[] inputs = new long[samples + 4];
    for (int i = 0; i < samples; i++) {
      inputs[i] = random.nextLong();
    }
    inputs[samples] = 0;
    inputs[samples + 1] = -1;
    inputs[samples + 2] = Long.MIN_VALUE;
    inputs[samples + 3] = -0x9E3779B97F4A7C15L; // second's first step maps it to 0
    for (int i = 0; i < inputs.length; i++) {
      outputs[i] = Xxh3Keys.second(inputs[i]);
      assertThat(inverseOfSecond(outputs[i])).as("inverse of second(%x)", inputs[i]).isEqualTo(inputs[i]);
    }
    // The inverse inverts: distinct inputs give distinct outputs (200,004 random inputs are distinct
    // with probability 1 - 2e-9, and checked here).
    long[] sortedIn = inputs.clone();
    Arrays.sort(sortedIn);
    long[] sortedOut = outputs.clone();
    Arrays.sort(sortedOut);
    assertThat(Arrays.stream(sortedIn).distinct().count()).isEqualTo(inputs.length);
    assertThat(Arrays.stream(sortedOut).distinct().count()).isEqualTo(inputs.length);
  }

  /**
   * Strict avalanche: flipping input bit i flips output bit j with probability 1/2, for all 64 x 64
   * pairs. Over N = 100,000 random inputs (fixed seed) the flip count of a pair is Binomial(N, 1/2) for
   * an ideal mixer: mean N/2, standard deviation sqrt(N)/2 = 158. The bound is 6 standard deviations
   * (a flip rate within 0.5 +/- 0.0095); an ideal mixer exceeds it in a given pair with probability
   * 2e-9, so in any of the 4096 pairs with probability below 1e-5. A mixer missing a multiply or a
   * shift fails by far: such pairs flip never, always, or near 1/4 or 3/4.
   */
  @Test
  void secondAvalanches() {
    int n = 100_000;
    SplittableRandom random = new SplittableRandom(0x5EED_0014L);
    int[][] flips = new int[64][64];
    for (int s = 0; s < n; s++) {
      long x = random.nextLong();
      long y = Xxh3Keys.second(x);
      for (int i = 0; i < 64; i++) {
        long d = y ^ Xxh3Keys.second(x ^ (1L << i));
        for (int j = 0; j < 64; j++) {
          flips[i][j] += (int) ((d >>> j) & 1);
        }
      }
    }
    double mean = n / 2.0;
    double bound = 6 * Math.sqrt(n) / 2;
    double worst = 0;
    for (int i = 0; i < 64; i++) {
      for (int j = 0; j < 64; j++) {
        worst = Math.max(worst, Math.abs(flips[i][j] - mean));
        assertThat((double) flips[i][j]).as("flips of output bit %d by input bit %d", j, i)
            .isBetween(mean - bound, mean + bound);
      }
    }
    assertThat(worst).isPositive(); // the counts vary, as a binomial's do
  }

  // ---------------------------------------------------------------- (e) batches against single operations

  static Stream<Arguments> strategiesAndFunnels() {
    List<Arguments> out = new ArrayList<>();
    for (HashStrategy s : List.of(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE, HashStrategy.MURMUR3_128_BLOCKED,
        HashStrategy.XXH3_64_ENHANCED_DOUBLE, HashStrategy.XXH3_64_BLOCKED)) {
      for (String funnel : List.of("String", "Long", "Integer", "byte[]")) {
        out.add(Arguments.of(s, funnel));
      }
    }
    return out.stream();
  }

  /** 1,001 items (not a multiple of the batch size of 32), half added, all queried. */
  private static final int ITEMS = 1_001;

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("strategiesAndFunnels")
  void batchesSetAndTestTheBitsOfSingleOperations(HashStrategy strategy, String funnel) {
    switch (funnel) {
      case "String" -> checkBatches(Funnels.stringFunnel(), strategy,
          i -> i % 3 == 0 ? "k\u00e9y" + i : i % 3 == 1 ? "key" + i : "\ud83d\ude00" + i);
      case "Long" -> checkBatches(Funnels.longFunnel(), strategy, i -> i * 0x9E3779B97F4A7C15L);
      case "Integer" -> checkBatches(Funnels.integerFunnel(), strategy, i -> (int) (i * 7919));
      case "byte[]" -> checkBatches(Funnels.byteArrayFunnel(), strategy, i -> sanityBuffer((int) (i % 300)));
      default -> throw new AssertionError(funnel);
    }
  }

  private static <T> void checkBatches(Funnel<? super T> funnel, HashStrategy strategy, LongFunction<T> item) {
    List<T> added = new ArrayList<>();
    List<T> all = new ArrayList<>();
    for (long i = 0; i < ITEMS; i++) {
      T t = item.apply(i);
      all.add(t);
      if (i % 2 == 0) {
        added.add(t);
      }
    }
    BloomFilter<T> single = filter(funnel, strategy);
    BloomFilter<T> batched = filter(funnel, strategy);
    assertThat(batched.hashStrategy()).isEqualTo(strategy);
    int changedSingly = 0;
    for (T t : added) {
      if (single.add(t)) {
        changedSingly++;
      }
    }
    assertThat(batched.addAll(added)).isEqualTo(changedSingly);
    assertThat(batched.currentWords()).isEqualTo(single.currentWords());
    assertThat(batched.count()).isEqualTo(single.count());

    boolean[] answers = single.mightContainAll(all);
    assertThat(answers).hasSize(all.size());
    int present = 0;
    for (int i = 0; i < all.size(); i++) {
      assertThat(answers[i]).as("item %d", i).isEqualTo(single.mightContain(all.get(i)));
      if (answers[i]) {
        present++;
      }
    }
    // Every added item is present, and the absent half is not all false positives.
    assertThat(present).isBetween(added.size(), all.size() - 1);

    if (funnel == Funnels.longFunnel()) {
      checkLongBatches(strategy, all, added);
    }
  }

  private static void checkLongBatches(HashStrategy strategy, List<?> all, List<?> added) {
    long[] addedKeys = added.stream().mapToLong(t -> (Long) t).toArray();
    long[] allKeys = all.stream().mapToLong(t -> (Long) t).toArray();
    BloomFilter<Long> single = filter(Funnels.longFunnel(), strategy);
    BloomFilter<Long> batched = filter(Funnels.longFunnel(), strategy);
    int changedSingly = 0;
    for (long k : addedKeys) {
      if (single.add(k)) {
        changedSingly++;
      }
    }
    assertThat(batched.addAll(addedKeys)).isEqualTo(changedSingly);
    assertThat(batched.currentWords()).isEqualTo(single.currentWords());
    boolean[] answers = batched.mightContainAll(allKeys);
    for (int i = 0; i < allKeys.length; i++) {
      assertThat(answers[i]).as("key %d", allKeys[i]).isEqualTo(single.mightContain(allKeys[i]));
    }
  }

  private static <T> BloomFilter<T> filter(Funnel<? super T> funnel, HashStrategy strategy) {
    BloomFilter.Builder<T> b = BloomFilter.<T>builder(funnel).expectedInsertions(ITEMS).fpp(0.05)
        .hashStrategy(strategy);
    return isBlocked(strategy) ? b.blocked().build() : b.build();
  }
}
