package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/FORMAT.md and docs/HASHING.md are a specification: {@link SpecReader}, written from them alone,
 * must agree with the library on every probe, every golden file and every rejection. The worked
 * examples of the documents are hard-coded here, so a change to either the documents' numbers or the
 * library's behaviour fails this test. Fixed seeds throughout.
 */
@Tag("jdk-independent") // file bytes and hash arithmetic against the spec: the same on every JDK (.ci/run)
class SpecReaderTest {
  private static final HexFormat HEX = HexFormat.of();

  // ------------------------------------------------------------------ keys

  /** A key of one of the built-in key types, with the bytes the documents say it hashes as (strategies 1 to 3). */
  record Key(Object value, byte[] bytes) {
    /** The key's bytes under a strategy: a string is UTF-16LE under 4 and 5; other keys keep their bytes. */
    byte[] bytesFor(int strategy) {
      return value instanceof CharSequence cs ? SpecReader.stringBytes(cs, strategy) : bytes;
    }
  }

  /** Key types 1 (UTF-8 string), 2 (long), 3 (int), 4 (bytes). */
  private static Key randomKey(SplittableRandom rnd, int keyType) {
    switch (keyType) {
      case 1: {
        String s = randomString(rnd);
        return new Key(s, SpecReader.utf8(s));
      }
      case 2: {
        long v = rnd.nextLong();
        return new Key(v, SpecReader.longBytes(v));
      }
      case 3: {
        int v = rnd.nextInt();
        return new Key(v, SpecReader.intBytes(v));
      }
      default: {
        byte[] b = new byte[rnd.nextInt(40)];
        for (int i = 0; i < b.length; i++) {
          b[i] = (byte) rnd.nextInt(256);
        }
        return new Key(b, b.clone());
      }
    }
  }

  /** Strings of 0 to 39 UTF-16 units: ASCII, 2- and 3-byte chars, pairs, and unpaired surrogates. */
  static String randomString(SplittableRandom rnd) {
    StringBuilder sb = new StringBuilder();
    int n = rnd.nextInt(40);
    for (int i = 0; i < n; i++) {
      int kind = rnd.nextInt(10);
      if (kind < 5) {
        sb.append((char) (0x20 + rnd.nextInt(0x5F)));
      } else if (kind == 5) {
        sb.append((char) (0x80 + rnd.nextInt(0x780)));
      } else if (kind == 6) {
        sb.append((char) (0x800 + rnd.nextInt(0xD000)));
      } else if (kind == 7) {
        sb.appendCodePoint(0x10000 + rnd.nextInt(0x100000));
      } else if (kind == 8) {
        sb.append((char) (0xD800 + rnd.nextInt(0x800))); // a lone surrogate, high or low
      } else {
        sb.append((char) (0xE000 + rnd.nextInt(0x2000)));
      }
    }
    return sb.toString();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Funnel<Object> funnelOf(int keyType) {
    switch (keyType) {
      case 1:
        return (Funnel) Funnels.stringFunnel();
      case 2:
        return (Funnel) Funnels.longFunnel();
      case 3:
        return (Funnel) Funnels.integerFunnel();
      default:
        return (Funnel) Funnels.byteArrayFunnel();
    }
  }

  static byte[] bytes(MembershipFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  // ------------------------------------------------------------------ 1. probes: spec vs library

  /** The keys compared per layout: each query is a full probe sequence of k positions. */
  private static final int QUERIES_PER_LAYOUT = 300_000;

  private record Shape(long m, int k) {}

  @Test
  void standardLayoutAgreesOnEveryProbe() throws Exception {
    List<Shape> shapes = List.of(new Shape(1, 1), new Shape(7, 3), new Shape(1000, 7), new Shape(4099, 2),
        new Shape(100_003, 10), new Shape(64 * 4801, 13), new Shape(3_000_017, 5), new Shape(64, 2048));
    assertThat(compareLayout(shapes, sh -> new StandardLayout(sh.m(), sh.k()), 0x5EED01L)).isZero();
  }

  @Test
  void blockedLayoutAgreesOnEveryProbe() throws Exception {
    List<Shape> shapes = List.of(new Shape(512, 1), new Shape(512, 8), new Shape(512 * 3, 6), new Shape(512 * 1000, 7),
        new Shape(512 * 4097, 9), new Shape(512 * 30_011, 4), new Shape(512 * 7, 64), new Shape(512 * 11, 300));
    assertThat(compareLayout(shapes, sh -> new BlockedLayout(sh.m(), sh.k()), 0x5EED02L)).isZero();
  }

  @Test
  void standardLayoutOfStrategyFourAgreesOnEveryProbe() throws Exception {
    List<Shape> shapes = List.of(new Shape(1, 1), new Shape(7, 3), new Shape(1000, 7), new Shape(4099, 2),
        new Shape(100_003, 10), new Shape(64 * 4801, 13), new Shape(3_000_017, 5), new Shape(64, 2048));
    assertThat(compareLayout(shapes,
        sh -> new StandardLayout(sh.m(), sh.k(), HashStrategy.XXH3_64_ENHANCED_DOUBLE), 0x5EED11L)).isZero();
  }

  @Test
  void blockedLayoutOfStrategyFiveAgreesOnEveryProbe() throws Exception {
    List<Shape> shapes = List.of(new Shape(512, 1), new Shape(512, 8), new Shape(512 * 3, 6), new Shape(512 * 1000, 7),
        new Shape(512 * 4097, 9), new Shape(512 * 30_011, 4), new Shape(512 * 7, 64), new Shape(512 * 11, 300));
    assertThat(compareLayout(shapes, sh -> new BlockedLayout(sh.m(), sh.k(), HashStrategy.XXH3_64_BLOCKED),
        0x5EED12L)).isZero();
  }

  @Test
  void guavaLayoutAgreesOnEveryProbe() throws Exception {
    List<Shape> shapes = List.of(new Shape(64, 1), new Shape(64, 5), new Shape(960, 7), new Shape(64 * 1001, 3),
        new Shape(64 * 100_003, 10), new Shape(64 * 7, 255), new Shape(64 * 12_345, 13));
    assertThat(compareLayout(shapes, sh -> new GuavaLayout(sh.m(), sh.k()), 0x5EED03L)).isZero();
  }

  /**
   * For each shape: adds keys to a library filter, writes it, and checks that (1) the spec reader
   * parses the file, (2) the payload is exactly the bits the spec's probes of those keys set, and (3)
   * spec and library give the same answer for fresh and added keys. Returns the disagreements.
   */
  private static long compareLayout(List<Shape> shapes, java.util.function.Function<Shape, Layout> layoutOf,
      long seed) throws Exception {
    SplittableRandom rnd = new SplittableRandom(seed);
    int perShape = QUERIES_PER_LAYOUT / shapes.size() + 1;
    long queries = 0;
    long disagreements = 0;
    for (int s = 0; s < shapes.size(); s++) {
      Shape sh = shapes.get(s);
      Layout layout = layoutOf.apply(sh);
      int strategy = layout.strategy().id();
      int keyType = 1 + s % 4;
      BloomFilter<Object> lib = BloomFilter.withLayout(funnelOf(keyType), layout);
      long[] expected = new long[(int) ((sh.m() + 63) / 64)];
      int adds = (int) Math.min(20_000, Math.max(1, sh.m() * 0.7 / sh.k()));
      List<Key> added = new ArrayList<>();
      for (int i = 0; i < adds; i++) {
        Key key = randomKey(rnd, keyType);
        added.add(key);
        lib.add(key.value());
        long[] h = SpecReader.hash(strategy, key.bytesFor(strategy));
        for (long x : SpecReader.probesOfStrategy(strategy, h, sh.m(), sh.k())) {
          expected[(int) (x / 64)] |= 1L << (x % 64);
        }
      }
      SpecReader.Record r = (SpecReader.Record) SpecReader.readFile(bytes(lib));
      assertThat(r.type()).isEqualTo(layout.type().id());
      assertThat(r.strategy()).isEqualTo(strategy);
      assertThat(r.keyType()).isEqualTo(keyType);
      assertThat(r.m()).isEqualTo(sh.m());
      assertThat(r.count()).isEqualTo(lib.count());
      assertThat(r.payload()).as("payload of %s", layout.shape()).isEqualTo(expected);
      for (int i = 0; i < perShape; i++) {
        Key key = i % 4 == 0 ? added.get(rnd.nextInt(added.size())) : randomKey(rnd, keyType);
        queries++;
        if (r.mightContain(key.bytesFor(strategy)) != lib.mightContain(key.value())) {
          disagreements++;
        }
      }
    }
    assertThat(queries).isGreaterThanOrEqualTo(QUERIES_PER_LAYOUT);
    return disagreements;
  }

  /**
   * m past 2^32 (and past 2^35, the largest counting filter): the spec's probe positions equal the
   * positions the library's own counter grouping (CounterProbes, the standard probe loop) and its
   * reductions compute, without allocating such a filter.
   */
  @Test
  void probeMathIsExactPastTwoToThe32() {
    SplittableRandom rnd = new SplittableRandom(0x5EED04L);
    long[] ms = {(1L << 32) + 1, (1L << 33) + 12_345, 16 * SpecReader.MAX_WORDS, 64 * SpecReader.MAX_WORDS - 1};
    long compared = 0;
    for (long m : ms) {
      for (int i = 0; i < 20_000; i++) {
        String s = randomString(rnd);
        int k = 1 + rnd.nextInt(20);
        long[] h = SpecReader.murmur3(SpecReader.utf8(s));
        long[] spec = SpecReader.standardProbes(h[0], h[1], m, k);
        // The library's one standard probe loop, which every strategy-1 caller runs.
        long[] walked = new long[k];
        Probes.positions(h[0], h[1], m, k, walked);
        assertThat(walked).isEqualTo(spec);
        if (m <= CounterWords.MAX_COUNTERS) {
          CounterProbes p = CounterProbes.hashed(s, Funnels.stringFunnel()).group(m, k);
          TreeSet<String> lib = new TreeSet<>();
          for (int w = 0; w < p.size; w++) {
            for (int nibble = 0; nibble < 16; nibble++) {
              if ((p.masks[w] >>> (4 * nibble) & 1) != 0) {
                lib.add(Long.toString(16L * p.words[w] + nibble));
              }
            }
          }
          TreeSet<String> mine = new TreeSet<>();
          for (long v : spec) {
            mine.add(Long.toString(v));
          }
          assertThat(lib).isEqualTo(mine);
        }
        // The blocked layout's block choice for as many blocks.
        assertThat(Probes.reduce(h[0], m / 512)).isEqualTo(SpecReader.blockOf(h[0], m));
        compared++;
      }
    }
    assertThat(compared).isEqualTo(80_000);
  }

  // ------------------------------------------------------------------ 2. counting filters

  /** Counters are the standard probes; a counter probed twice by one key goes up by one; 15 sticks. */
  @Test
  void countingFilterCountersFollowTheSpec() throws Exception {
    SplittableRandom rnd = new SplittableRandom(0x5EED05L);
    for (long m : new long[] {37, 1000, 64 * 301}) {
      for (int k : new int[] {3, 8}) {
        CountingBloomFilter<Object> lib = CountingBloomFilter.withShape(funnelOf(1), m, k);
        int[] expected = new int[(int) m];
        int adds = (int) (m * 1.5 / k); // overfilled, so that some counters reach 15
        List<Key> added = new ArrayList<>();
        for (int i = 0; i < adds; i++) {
          Key key = randomKey(rnd, 1);
          added.add(key);
          lib.add(key.value());
          long[] h = SpecReader.murmur3(key.bytes());
          for (long x : Arrays.stream(SpecReader.standardProbes(h[0], h[1], m, k)).distinct().toArray()) {
            expected[(int) x] = Math.min(15, expected[(int) x] + 1);
          }
        }
        SpecReader.Record r = (SpecReader.Record) SpecReader.readFile(bytes(lib));
        assertThat(r.type()).isEqualTo(4);
        for (int i = 0; i < m; i++) {
          assertThat(r.counter(i)).as("counter %d of m=%d, k=%d", i, m, k).isEqualTo(expected[i]);
        }
        for (int i = 0; i < 5000; i++) {
          Key key = i % 2 == 0 ? added.get(rnd.nextInt(added.size())) : randomKey(rnd, 1);
          assertThat(r.mightContain(key.bytes())).isEqualTo(lib.mightContain(key.value()));
        }
      }
    }
  }

  // ------------------------------------------------------------------ 3. scalable filters

  /** Strategies 1 and 2 (pinned), and 4 and 5, the defaults of new standard and blocked layers. */
  @Test
  void scalableFilterAnswersAsAnyLayer() throws Exception {
    SplittableRandom rnd = new SplittableRandom(0x5EED06L);
    for (int strategy : new int[] {1, 2, 4, 5}) {
      boolean blocked = strategy == 2 || strategy == 5;
      ScalableBloomFilter.Builder<Object> b = ScalableBloomFilter.builder(funnelOf(1)).initialCapacity(50).fpp(0.05);
      if (blocked) {
        b = b.blocked();
      }
      if (strategy < 4) {
        b = b.hashStrategy(HashStrategy.ofId(strategy));
      }
      ScalableBloomFilter<Object> lib = b.build();
      List<Key> added = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        Key key = randomKey(rnd, 1);
        added.add(key);
        lib.add(key.value());
      }
      SpecReader.Scalable s = (SpecReader.Scalable) SpecReader.readFile(bytes(lib));
      assertThat(s.layers()).hasSize(lib.layerStats().size()).hasSizeGreaterThan(3);
      assertThat(s.strategy()).isEqualTo(strategy);
      assertThat(s.layers()).extracting(SpecReader.Record::strategy).containsOnly(strategy);
      long count = 0;
      for (SpecReader.Record layer : s.layers()) {
        count += layer.count();
      }
      assertThat(count).isEqualTo(lib.count());
      for (int i = 0; i < 20_000; i++) {
        Key key = i % 4 == 0 ? added.get(rnd.nextInt(added.size())) : randomKey(rnd, 1);
        assertThat(s.mightContain(key.bytesFor(strategy))).isEqualTo(lib.mightContain(key.value()));
      }
      for (Key key : added) {
        assertThat(s.mightContain(key.bytesFor(strategy))).isTrue();
      }
    }
  }

  /** No layer can exist once n0·s^i passes 2^63 − 1: the writer refuses to grow, the reader rejects. */
  @Test
  void aLayerWhoseCapacityWouldOverflowCannotExist() {
    LayerPlan plan = new LayerPlan(1L << 60, 0.5, 16, 0.5, FilterType.STANDARD, LayerPlan.NO_CAP, null);
    assertThat(plan.capacity(0)).isEqualTo(1L << 60);
    assertThat(plan.capacity(1)).isEqualTo(-1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> plan.layout(1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than " + Long.MAX_VALUE);
  }

  /** A record written from FORMAT.md alone, its CRC included. */
  private static byte[] specRecord(int type, int keyType, long m, int k, long n, double p, long count, long[] words) {
    ByteBuffer b = ByteBuffer.allocate(52 + 8 * words.length + 4);
    b.putInt(0x43424C4D).put((byte) 2).put((byte) type).put((byte) (type == 4 ? 1 : type)).put((byte) keyType);
    b.putLong(m).putInt(k).putLong(n).putDouble(p).putLong(count).putLong(8L * words.length);
    for (long w : words) {
      b.putLong(w);
    }
    b.putInt(SpecReader.crc32c(b.array(), 0, b.position()));
    return b.array();
  }

  /** A scalable file written from FORMAT.md alone: its header, the given layer records, the CRC. */
  private static byte[] specScalable(long n0, double p, int s, double r, byte[]... layers) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer h = ByteBuffer.allocate(48);
    h.putInt(0x43424C4D).put((byte) 2).put((byte) 5).put((byte) 1).put((byte) 1);
    h.putLong(n0).putDouble(p).putInt(s).putDouble(r).putLong(0).putInt(layers.length);
    out.writeBytes(h.array());
    for (byte[] layer : layers) {
      out.writeBytes(layer);
    }
    byte[] body = out.toByteArray();
    out.writeBytes(ByteBuffer.allocate(4).putInt(SpecReader.crc32c(body, 0, body.length)).array());
    return out.toByteArray();
  }

  /**
   * FORMAT.md, "When n0·s^i overflows", end to end on a file written from the spec: layer 0 holds
   * n0 = 2^62 keys and is full, so layer 1 would hold 2^63. The library loads the file and answers
   * from it, refuses the add that needs layer 1 (the key is not added), and both readers reject a
   * file that has a layer 1, whatever n it records.
   */
  @Test
  void whenTheNextLayerWouldOverflowNoLayerIsAddedAndNoneCanBeRead() throws Exception {
    long n0 = 1L << 62;
    long[] h = SpecReader.murmur3(SpecReader.utf8("present"));
    long bit = SpecReader.standardProbes(h[0], h[1], 64, 1)[0];
    byte[] layer0 = specRecord(1, 1, 64, 1, n0, 0.5 * (1 - 0.5), n0, new long[] {1L << bit});
    byte[] file = specScalable(n0, 0.5, 2, 0.5, layer0);
    assertThat(specAccepts(file)).isTrue();
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.readFrom(new ByteArrayInputStream(file),
        Funnels.stringFunnel());
    assertThat(f.mightContain("present")).isTrue();
    assertThat(f.add("present")).isFalse(); // already there: needs no slot
    String fresh = "absent";
    assertThat(((SpecReader.Scalable) SpecReader.readFile(file)).mightContain(SpecReader.utf8(fresh))).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> f.add(fresh))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("more than " + Long.MAX_VALUE)
        .hasMessageContaining("the item was not added");
    assertThat(f.mightContain(fresh)).isFalse();
    assertThat(bytes(f)).isEqualTo(file);
    for (long n1 : new long[] {Long.MAX_VALUE, Long.MIN_VALUE, n0 * 2, -1, n0}) {
      byte[] layer1 = specRecord(1, 1, 64, 1, n1, 0.5 * (1 - 0.5) * 0.5, 0, new long[1]);
      byte[] two = specScalable(n0, 0.5, 2, 0.5, layer0, layer1);
      assertThat(specAccepts(two)).as("n1 = %d", n1).isFalse();
      assertThat(libraryAccepts(two)).as("n1 = %d", n1).isFalse();
    }
  }

  /** FORMAT.md: layer rates are repeated products, which pow does not reproduce from layer 4 on. */
  @Test
  void layerRatesAreRepeatedProducts() throws Exception {
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.create(Funnels.stringFunnel(), 2, 0.1);
    for (int i = 0; i < 40; i++) {
      f.add("key" + i);
    }
    SpecReader.Scalable s = (SpecReader.Scalable) SpecReader.readFile(bytes(f));
    assertThat(s.layers()).hasSize(5);
    assertThat(s.layers().get(4).p()).isEqualTo(0.006561).isNotEqualTo(0.1 * (1 - 0.9) * Math.pow(0.9, 4));
    assertThat(s.layers()).extracting(SpecReader.Record::n).containsExactly(2L, 4L, 8L, 16L, 32L);
  }

  // ------------------------------------------------------------------ 4. the golden files

  @Test
  void goldenFilesParseAsDocumented() throws Exception {
    for (String hex : new String[] {FilterFormatGoldenTest.GOLDEN_HEX, FilterFormatGoldenTest.GOLDEN_V1_HEX}) {
      SpecReader.Record r = (SpecReader.Record) SpecReader.readFile(HEX.parseHex(hex));
      assertThat(r.version()).isEqualTo(hex.equals(FilterFormatGoldenTest.GOLDEN_HEX) ? 2 : 1);
      assertThat(r.keyType()).isEqualTo(r.version() == 2 ? 1 : 0);
      assertThat(List.of(r.type(), r.strategy(), r.m(), r.k(), r.n(), r.p(), r.count()))
          .isEqualTo(List.of(1, 1, 64L, 3, 10L, 0.1, 3L));
      long word = 0;
      for (String key : new String[] {"alpha", "beta", "gamma"}) {
        for (long x : SpecReader.probes(1, SpecReader.murmur3(SpecReader.utf8(key)), 64, 3)) {
          word |= 1L << x;
        }
        assertThat(r.mightContain(SpecReader.utf8(key))).isTrue();
      }
      assertThat(r.payload()).containsExactly(word);
      assertThat(word).isEqualTo(0x80b0380800000004L);
    }
    for (String hex : new String[] {CountingFormatTest.GOLDEN_HEX, CountingFormatTest.GOLDEN_V1_HEX}) {
      SpecReader.Record r = (SpecReader.Record) SpecReader.readFile(HEX.parseHex(hex));
      assertThat(List.of(r.type(), r.m(), r.k(), r.count())).isEqualTo(List.of(4, 64L, 3, 3L));
      int[] counters = new int[64];
      for (String key : new String[] {"alpha", "beta", "gamma", "alpha"}) {
        for (long x : SpecReader.probes(4, SpecReader.murmur3(SpecReader.utf8(key)), 64, 3)) {
          counters[(int) x]++; // no key of the example probes a counter twice
        }
      }
      for (int i = 0; i < 64; i++) {
        assertThat(r.counter(i)).isEqualTo(counters[i]);
      }
    }
    for (String hex : new String[] {ScalableFormatTest.GOLDEN_HEX, ScalableFormatTest.GOLDEN_V1_HEX}) {
      SpecReader.Scalable s = (SpecReader.Scalable) SpecReader.readFile(HEX.parseHex(hex));
      assertThat(List.of(s.n0(), s.p(), s.s(), s.r(), s.cap())).isEqualTo(List.of(4L, 0.1, 2, 0.9, 0L));
      assertThat(s.layers()).extracting(SpecReader.Record::n).containsExactly(4L, 8L);
      assertThat(s.layers()).extracting(SpecReader.Record::count).containsExactly(4L, 1L);
      for (String key : ScalableFormatTest.ITEMS) {
        assertThat(s.mightContain(SpecReader.utf8(key))).isTrue();
      }
      // apple .. damson are in layer 0, elder in layer 1 (the example's story).
      assertThat(s.layers().get(1).mightContain(SpecReader.utf8("elder"))).isTrue();
    }
  }

  /** The golden files of strategies 4 and 5: the spec's XXH3 probes of the items are exactly their bits. */
  @Test
  void goldenFilesOfStrategiesFourAndFiveParseAsDocumented() throws Exception {
    String[] hexes = {FilterFormatGoldenTest.GOLDEN_XXH3_HEX, FilterFormatGoldenTest.GOLDEN_BLOCKED_XXH3_HEX};
    List<List<Object>> headers = List.of(List.of(1, 4, 64L, 3, 10L, 0.1, 3L), List.of(2, 5, 512L, 19, 10L, 0.1, 3L));
    for (int f = 0; f < hexes.length; f++) {
      SpecReader.Record r = (SpecReader.Record) SpecReader.readFile(HEX.parseHex(hexes[f]));
      assertThat(List.of(r.version(), r.keyType())).containsExactly(2, 1);
      assertThat(List.<Object>of(r.type(), r.strategy(), r.m(), r.k(), r.n(), r.p(), r.count()))
          .isEqualTo(headers.get(f));
      long[] words = new long[r.payload().length];
      for (String key : FilterFormatGoldenTest.ITEMS) {
        long[] h = SpecReader.xxh3Pair(SpecReader.utf16le(key));
        for (long x : SpecReader.probesOfStrategy(r.strategy(), h, r.m(), r.k())) {
          words[(int) (x / 64)] |= 1L << (x % 64);
        }
        assertThat(r.mightContain(SpecReader.utf16le(key))).isTrue();
      }
      assertThat(r.payload()).containsExactly(words);
    }
    SpecReader.Scalable s = (SpecReader.Scalable) SpecReader.readFile(HEX.parseHex(ScalableFormatTest.GOLDEN_XXH3_HEX));
    assertThat(List.of(s.strategy(), s.n0(), s.p(), s.s(), s.r(), s.cap())).isEqualTo(List.of(4, 4L, 0.1, 2, 0.9, 0L));
    assertThat(s.layers()).extracting(SpecReader.Record::strategy).containsExactly(4, 4);
    assertThat(s.layers()).extracting(SpecReader.Record::count).containsExactly(4L, 1L);
    long[][] layerWords = {new long[1], new long[2]};
    for (int i = 0; i < ScalableFormatTest.ITEMS.length; i++) {
      String key = ScalableFormatTest.ITEMS[i];
      int layer = i < 4 ? 0 : 1; // apple .. damson fill layer 0, elder goes to layer 1
      long m = s.layers().get(layer).m();
      for (long x : SpecReader.standardProbes(SpecReader.xxh3(SpecReader.utf16le(key)),
          SpecReader.splitMix64(SpecReader.xxh3(SpecReader.utf16le(key))), m, 7)) {
        layerWords[layer][(int) (x / 64)] |= 1L << (x % 64);
      }
      assertThat(s.mightContain(SpecReader.utf16le(key))).isTrue();
    }
    assertThat(s.layers().get(0).payload()).containsExactly(layerWords[0]);
    assertThat(s.layers().get(1).payload()).containsExactly(layerWords[1]);
  }

  // ------------------------------------------------------------------ 5. rejections: spec vs library

  /** The library's verdict on a whole file: its reader for the type accepts, and no byte follows. */
  static boolean libraryAccepts(byte[] f) {
    InputStream in = new ByteArrayInputStream(f);
    int type = f.length > 5 ? f[5] & 0xFF : 1;
    int keyType = f.length > 7 ? f[7] & 0xFF : 0;
    Funnel<Object> custom = (item, sink) -> sink.putString(item.toString());
    Funnel<Object> funnel = keyType >= 1 && keyType <= 4 ? Funnels.withKeyType(custom, KeyType.ofId(keyType)) : custom;
    try {
      if (type == 4) {
        CountingBloomFilter.readFrom(in, funnel);
      } else if (type == 5) {
        ScalableBloomFilter.readFrom(in, funnel);
      } else if (type == 6) {
        ExpiringBloomFilter.readFrom(in, funnel, new TestClock(0));
      } else {
        BloomFilter.readFrom(in, funnel);
      }
      return in.read() == -1;
    } catch (IOException e) {
      return false;
    }
  }

  static boolean specAccepts(byte[] f) {
    return specVerdict(f) == null;
  }

  /** Null if the spec reader accepts the file, else the rule it refused it by. */
  static String specVerdict(byte[] f) {
    try {
      SpecReader.readFile(f);
      return null;
    } catch (SpecReader.Rejected e) {
      return e.getMessage();
    }
  }

  /** Recomputes every record's CRC (each layer's, then the scalable file's) where the lengths allow. */
  static byte[] fixCrcs(byte[] f) {
    if (f.length < 52) {
      return f;
    }
    ByteBuffer b = ByteBuffer.wrap(f);
    if ((f[5] & 0xFF) == 5) {
      int layers = b.getInt(44);
      int off = 48;
      for (int i = 0; i < layers && off + 52 <= f.length; i++) {
        long len = b.getLong(off + 44);
        if (len < 0 || off + 52 + len + 4 > f.length) {
          break;
        }
        int end = (int) (off + 52 + len);
        b.putInt(end, SpecReader.crc32c(f, off, end - off));
        off = end + 4;
      }
    }
    b.putInt(f.length - 4, SpecReader.crc32c(f, 0, f.length - 4));
    return f;
  }

  private static List<byte[]> validFiles() throws IOException {
    List<byte[]> files = new ArrayList<>();
    SplittableRandom rnd = new SplittableRandom(0x5EED07L);
    List<MembershipFilter<Object>> filters = new ArrayList<>();
    filters.add(BloomFilter.withShape(funnelOf(1), 1000, 5));
    filters.add(BloomFilter.create(funnelOf(2), 100, 0.01));
    filters.add(BloomFilter.builder(funnelOf(1)).expectedInsertions(100).fpp(0.01).blocked().build());
    filters.add(BloomFilter.builder(funnelOf(3)).expectedInsertions(100).fpp(0.01).guavaCompatible().build());
    filters.add(CountingBloomFilter.create(funnelOf(4), 50, 0.02));
    filters.add(CountingBloomFilter.withShape(funnelOf(1), 1001, 4));
    filters.add(ScalableBloomFilter.create(funnelOf(1), 2, 0.1)); // 60 keys: 5 layers, rates past pow's
    filters.add(ScalableBloomFilter.builder(funnelOf(1)).initialCapacity(8).fpp(0.1).blocked().growthFactor(3)
        .maxBitSize(1 << 20).build());
    // The filters above of strategies 4 and 5 (the defaults) again with the MurmurHash3 strategies 1 and 2.
    filters.add(BloomFilter.builder(funnelOf(2)).expectedInsertions(100).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build());
    filters.add(BloomFilter.builder(funnelOf(1)).expectedInsertions(100).fpp(0.01).blocked()
        .hashStrategy(HashStrategy.MURMUR3_128_BLOCKED).build());
    filters.add(ScalableBloomFilter.builder(funnelOf(1)).initialCapacity(2).fpp(0.1)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build());
    filters.add(ScalableBloomFilter.builder(funnelOf(1)).initialCapacity(8).fpp(0.1).blocked().growthFactor(3)
        .hashStrategy(HashStrategy.MURMUR3_128_BLOCKED).maxBitSize(1 << 20).build());
    int[] keyTypes = {1, 2, 1, 3, 4, 1, 1, 1, 2, 1, 1, 1};
    for (int j = 0; j < filters.size(); j++) {
      for (int i = 0; i < 60; i++) {
        filters.get(j).add(randomKey(rnd, keyTypes[j]).value());
      }
    }
    for (MembershipFilter<Object> f : filters) {
      files.add(bytes(f));
    }
    for (String hex : new String[] {FilterFormatGoldenTest.GOLDEN_V1_HEX, CountingFormatTest.GOLDEN_V1_HEX,
        ScalableFormatTest.GOLDEN_V1_HEX, FilterFormatGoldenTest.GOLDEN_XXH3_HEX,
        FilterFormatGoldenTest.GOLDEN_BLOCKED_XXH3_HEX, ScalableFormatTest.GOLDEN_XXH3_HEX}) {
      files.add(HEX.parseHex(hex));
    }
    return files;
  }

  /** Offsets and widths of the numeric header fields, for records and for the scalable header. */
  private static final int[][] RECORD_FIELDS = {{8, 8}, {16, 4}, {20, 8}, {28, 8}, {36, 8}, {44, 8}};
  private static final int[][] SCALABLE_FIELDS = {{8, 8}, {16, 8}, {24, 4}, {28, 8}, {36, 8}, {44, 4}};

  private static long boundary(SplittableRandom rnd, long original, boolean isDouble) {
    if (isDouble) {
      double[] d = {0.0, -0.0, 1.0, Double.NaN, Double.MIN_VALUE, Math.nextDown(1.0), 0.5, Double.POSITIVE_INFINITY,
          -0.5, Double.longBitsToDouble(original) * 0.9, Math.nextUp(Double.longBitsToDouble(original))};
      return Double.doubleToRawLongBits(d[rnd.nextInt(d.length)]);
    }
    long w = SpecReader.MAX_WORDS;
    long[] v = {0, 1, -1, 2, 63, 64, 255, 256, 511, 512, 513, 1024, 1025, 2048, 2049, 16 * w, 16 * w + 1, 64 * w,
        64 * w + 1, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE, original - 1, original + 1, original * 2,
        original / 2, 1 << 20};
    return v[rnd.nextInt(v.length)];
  }

  private static void put(byte[] f, int off, int width, long value) {
    if (off + width > f.length) {
      return;
    }
    if (width == 8) {
      ByteBuffer.wrap(f).putLong(off, value);
    } else {
      ByteBuffer.wrap(f).putInt(off, (int) value);
    }
  }

  private static long get(byte[] f, int off, int width) {
    return width == 8 ? ByteBuffer.wrap(f).getLong(off) : ByteBuffer.wrap(f).getInt(off);
  }

  /**
   * 24,000 mutants of valid files of every type (field boundaries, random header bytes, payload bits,
   * truncations, appended bytes; CRCs mostly recomputed so that the later rules are reached): the spec
   * reader refuses exactly the files the library refuses. A rule missing from the documents, or one the
   * library does not apply, shows up as a disagreement.
   */
  @Test
  void specRejectsExactlyWhatTheLibraryRejects() throws IOException {
    SplittableRandom rnd = new SplittableRandom(0x5EED08L);
    List<byte[]> valid = validFiles();
    int accepted = 0;
    int mutants = 24_000;
    List<String> disagreements = new ArrayList<>();
    java.util.Map<String, Integer> rules = new java.util.TreeMap<>();
    for (byte[] v : valid) {
      assertThat(specAccepts(v)).isTrue();
      assertThat(libraryAccepts(v)).isTrue();
    }
    for (int i = 0; i < mutants; i++) {
      byte[] base = valid.get(rnd.nextInt(valid.size()));
      byte[] f = base.clone();
      boolean scalable = (f[5] & 0xFF) == 5;
      int kind = rnd.nextInt(8);
      // Where the mutated record starts: the file, or (scalable) its header or one of its layers.
      int recordStart = 0;
      if (scalable && rnd.nextBoolean()) {
        recordStart = 48;
        int layers = ByteBuffer.wrap(f).getInt(44);
        for (int skip = rnd.nextInt(layers); skip > 0; skip--) {
          recordStart += 52 + (int) ByteBuffer.wrap(f).getLong(recordStart + 44) + 4;
        }
      }
      boolean header = scalable && recordStart == 0;
      switch (kind) {
        case 0:
        case 1:
        case 2: { // a numeric field to a boundary value; sometimes L follows m
          int[][] fields = header ? SCALABLE_FIELDS : RECORD_FIELDS;
          int[] field = fields[rnd.nextInt(fields.length)];
          int off = recordStart + field[0];
          boolean isDouble = header ? field[0] == 16 || field[0] == 28 : field[0] == 28;
          put(f, off, field[1], boundary(rnd, get(f, off, field[1]), isDouble));
          if (!header && field[0] == 8 && rnd.nextBoolean()) {
            long m = get(f, off, 8);
            put(f, recordStart + 44, 8, 8 * (f[recordStart + 5] == 4 ? (m + 15) / 16 : (m + 63) / 64));
          }
          f = fixCrcs(f);
          break;
        }
        case 3: { // one of bytes 4 to 7 (version, type, strategy, key type / flags)
          f[recordStart + 4 + rnd.nextInt(4)] = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(256) : rnd.nextInt(7));
          f = rnd.nextInt(5) == 0 ? f : fixCrcs(f);
          break;
        }
        case 4: { // any byte anywhere, CRCs kept or fixed
          f[rnd.nextInt(f.length)] ^= (byte) (1 << rnd.nextInt(8));
          f = rnd.nextBoolean() ? f : fixCrcs(f);
          break;
        }
        case 5: { // a bit (a counter) past m in the last payload word of a record
          if (header) {
            recordStart = 48;
          }
          long len = get(f, recordStart + 44, 8);
          int lastWord = (int) (recordStart + 52 + len - 8);
          int bit = rnd.nextInt(64);
          f[lastWord + 7 - bit / 8] |= (byte) (1 << (bit % 8));
          f = fixCrcs(f);
          break;
        }
        case 6: // truncated
          f = Arrays.copyOf(f, rnd.nextInt(f.length));
          break;
        default: // bytes after the record
          f = Arrays.copyOf(f, f.length + 1 + rnd.nextInt(8));
          if (rnd.nextBoolean()) {
            System.arraycopy(base, 0, f, base.length, Math.min(base.length, f.length - base.length));
          }
          break;
      }
      String verdict = specVerdict(f);
      rules.merge(verdict == null ? "accepted" : verdict, 1, Integer::sum);
      boolean spec = verdict == null;
      boolean lib = libraryAccepts(f);
      if (spec != lib) {
        disagreements.add("mutant " + i + " (kind " + kind + "): spec " + spec + ", library " + lib + ": "
            + HEX.formatHex(f, 0, Math.min(f.length, 64)));
      }
      if (lib) {
        accepted++;
      }
    }
    System.out.println("spec reader verdicts on " + mutants + " mutants: " + rules);
    assertThat(disagreements).isEmpty();
    // Every rule of FORMAT.md's lists refused at least one mutant, so each was compared with the library.
    assertThat(rules.keySet()).containsAll(List.of("not a concurrent-bloom filter", "truncated", "truncated header",
        "magic", "version", "type", "strategy", "byte 7", "m", "k", "n", "p", "count", "L", "blocked m", "guava m",
        "truncated payload", "CRC", "past m", "bytes after the record", "growth parameters", "layer count L",
        "layer version", "layer key type", "layer type", "layer strategy", "layer n", "layer p", "layer count above n", "cap",
        "truncated trailer"));
    assertThat(accepted).as("some mutants stay valid (so acceptance is compared too)").isBetween(100, mutants / 2);
  }

  /** A version 2 file refuses a funnel of another key type; a version 1 file takes any. */
  @Test
  void keyTypeRuleIsAsDocumented() throws IOException {
    BloomFilter<Long> longs = BloomFilter.create(Funnels.longFunnel(), 100, 0.01);
    longs.add(42L);
    byte[] v2 = bytes(longs);
    assertThat(v2[7]).isEqualTo((byte) 2);
    for (int other = 0; other <= 4; other++) {
      Funnel<Object> custom = (item, sink) -> sink.putLong((Long) item);
      Funnel<Object> f = other == 0 ? custom : Funnels.withKeyType(custom, KeyType.ofId(other));
      boolean ok;
      try {
        BloomFilter.readFrom(new ByteArrayInputStream(v2), f);
        ok = true;
      } catch (IOException e) {
        ok = false;
      }
      assertThat(ok).as("key type %d reading a file of key type 2", other).isEqualTo(other == 2);
    }
  }

  // ------------------------------------------------------------------ 6. the documents' worked examples

  /** The key of every worked example in HASHING.md. */
  private static final String EXAMPLE_KEY = "Grüße aus Zürich";
  private static final String EXAMPLE_BYTES = "4772c3bcc39f6520617573205ac3bc72696368";
  private static final long EXAMPLE_H1 = 0x5cdfe590879c8925L;
  private static final long EXAMPLE_H2 = 0xe3edd7b3d09615e6L;

  /** The library's (h1, h2) for an item, through the same hashing path its filters use. */
  private static <T> long[] libraryHash(T item, Funnel<? super T> funnel) {
    CounterProbes p = CounterProbes.hashed(item, funnel);
    return new long[] {p.h1, p.h2};
  }

  /** The set bits of a filter's words, ascending. */
  private static List<Long> setBits(long[] words) {
    List<Long> bits = new ArrayList<>();
    for (int w = 0; w < words.length; w++) {
      for (int b = 0; b < 64; b++) {
        if ((words[w] >>> b & 1) != 0) {
          bits.add(64L * w + b);
        }
      }
    }
    return bits;
  }

  private static List<Long> sorted(long... values) {
    return Arrays.stream(values).sorted().distinct().boxed().collect(java.util.stream.Collectors.toList());
  }

  /** HASHING.md section 1: the encoding table. */
  @Test
  void stringEncodingExamples() {
    String mixed = "a\u00e9\u20ac\uD83D\uDE00" + "\uD83Dz\uDE00";
    assertThat(HEX.formatHex(SpecReader.utf8(mixed))).isEqualTo("61c3a9e282acf09f9880" + "3f7a3f");
    assertThat(HEX.formatHex(mixed.getBytes(java.nio.charset.StandardCharsets.UTF_8))).isEqualTo("61c3a9e282acf09f98803f7a3f");
    assertThat(libraryHash(mixed, Funnels.stringFunnel())).containsExactly(SpecReader.murmur3(HEX.parseHex("61c3a9e282acf09f98803f7a3f")));
    assertThat(HEX.formatHex(SpecReader.utf8(EXAMPLE_KEY))).isEqualTo(EXAMPLE_BYTES);
    assertThat(EXAMPLE_KEY.length()).isEqualTo(16);
    assertThat(HEX.formatHex(SpecReader.longBytes(42))).isEqualTo("2a00000000000000");
    assertThat(HEX.formatHex(SpecReader.intBytes(42))).isEqualTo("2a000000");
    // The spec's encoder against the library's on random strings, lone surrogates included.
    SplittableRandom rnd = new SplittableRandom(0x5EED09L);
    for (int i = 0; i < 20_000; i++) {
      String s = randomString(rnd);
      assertThat(libraryHash(s, Funnels.stringFunnel())).containsExactly(SpecReader.murmur3(SpecReader.utf8(s)));
      assertThat(libraryHash(new StringBuilder(s), Funnels.stringFunnel())).containsExactly(SpecReader.murmur3(SpecReader.utf8(s)));
    }
  }

  /** HASHING.md section 2: the test vectors, for the spec's hash and the library's. */
  @Test
  void hashTestVectors() {
    assertThat(SpecReader.murmur3(new byte[0])).containsExactly(0L, 0L);
    assertThat(libraryHash(new byte[0], Funnels.byteArrayFunnel())).containsExactly(0L, 0L);
    assertThat(SpecReader.murmur3(HEX.parseHex("616c706861"))).containsExactly(0xffe53dd0983e1695L, 0xd9bb04982603e41eL);
    assertThat(libraryHash("alpha", Funnels.stringFunnel())).containsExactly(0xffe53dd0983e1695L, 0xd9bb04982603e41eL);
    assertThat(SpecReader.murmur3(HEX.parseHex(EXAMPLE_BYTES))).containsExactly(EXAMPLE_H1, EXAMPLE_H2);
    assertThat(libraryHash(EXAMPLE_KEY, Funnels.stringFunnel())).containsExactly(EXAMPLE_H1, EXAMPLE_H2);
    assertThat(SpecReader.murmur3(HEX.parseHex("2a00000000000000"))).containsExactly(0xb6acc39989d27df8L, 0x24b917fb96f22f80L);
    assertThat(libraryHash(42L, Funnels.longFunnel())).containsExactly(0xb6acc39989d27df8L, 0x24b917fb96f22f80L);
    assertThat(SpecReader.murmur3(HEX.parseHex("2a000000"))).containsExactly(0x286f48e61c6e34cfL, 0xe2d23d6a2bbcb816L);
    assertThat(libraryHash(42, Funnels.integerFunnel())).containsExactly(0x286f48e61c6e34cfL, 0xe2d23d6a2bbcb816L);
    // Every length 0..100, against the library and against Guava's murmur3_128.
    SplittableRandom rnd = new SplittableRandom(0x5EED0AL);
    for (int len = 0; len <= 100; len++) {
      byte[] b = new byte[len];
      for (int i = 0; i < len; i++) {
        b[i] = (byte) rnd.nextInt(256);
      }
      assertThat(SpecReader.murmur3(b)).containsExactly(libraryHash(b, Funnels.byteArrayFunnel()));
      assertThat(SpecReader.murmur3(b)).containsExactly(HashingSinkTest.hashOf(b));
    }
    // FORMAT.md: the CRC-32C check value.
    byte[] digits = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    assertThat(SpecReader.crc32c(digits, 0, 9)).isEqualTo(0xe3069283);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(digits);
    assertThat((int) crc.getValue()).isEqualTo(0xe3069283);
  }

  /** HASHING.md section 3: the standard layout's table, and the golden file's per-key bits. */
  @Test
  void standardWorkedExample() {
    BloomFilter<CharSequence> f = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10_000).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    assertThat(f.bitSize()).isEqualTo(95_872);
    assertThat(f.hashFunctions()).isEqualTo(7);
    long m = 95_872;
    assertThat(SpecReader.fastRange(EXAMPLE_H1, m)).isEqualTo(34_781);
    assertThat(SpecReader.fastRange(EXAMPLE_H2, m)).isEqualTo(85_359);
    long[] positions = {34_781, 24_268, 13_756, 3_246, 88_611, 78_108, 67_610};
    long[] steps = {85_359, 85_360, 85_362, 85_365, 85_369, 85_374, 85_380};
    long[] words = {543, 379, 214, 50, 1_384, 1_220, 1_056};
    long[] bitsInWord = {29, 12, 60, 46, 35, 28, 26};
    assertThat(SpecReader.standardProbes(EXAMPLE_H1, EXAMPLE_H2, m, 7)).containsExactly(positions);
    long x = SpecReader.fastRange(EXAMPLE_H1, m);
    long y = SpecReader.fastRange(EXAMPLE_H2, m);
    for (int i = 1; i <= 7; i++) {
      assertThat(x).isEqualTo(positions[i - 1]);
      assertThat(y).isEqualTo(steps[i - 1]);
      assertThat(x / 64).isEqualTo(words[i - 1]);
      assertThat(x % 64).isEqualTo(bitsInWord[i - 1]);
      x = (x + y) % m;
      y = (y + i) % m;
    }
    assertThat(f.add(EXAMPLE_KEY)).isTrue();
    assertThat(setBits(f.currentWords())).isEqualTo(sorted(positions));

    String[] keys = {"alpha", "beta", "gamma"};
    long[][] golden = {{63, 53, 44}, {45, 55, 2}, {52, 43, 35}};
    for (int i = 0; i < keys.length; i++) {
      long[] h = SpecReader.murmur3(SpecReader.utf8(keys[i]));
      assertThat(SpecReader.standardProbes(h[0], h[1], 64, 3)).containsExactly(golden[i]);
      BloomFilter<CharSequence> one = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10).fpp(0.1)
          .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
      one.add(keys[i]);
      assertThat(setBits(one.currentWords())).isEqualTo(sorted(golden[i]));
    }
  }

  /** HASHING.md section 4: the blocked layout's table. */
  @Test
  void blockedWorkedExample() {
    BloomFilter<CharSequence> f = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10_000).fpp(0.01)
        .blocked().hashStrategy(HashStrategy.MURMUR3_128_BLOCKED).build();
    assertThat(f.bitSize()).isEqualTo(99_328);
    assertThat(f.hashFunctions()).isEqualTo(6);
    assertThat(SpecReader.blockOf(EXAMPLE_H1, 99_328)).isEqualTo(70);
    long[] g = {0xe3edd7b3d09615e6L, 0xcaac143e3d6733deL, 0x042a2ad726c2c936L, 0x85197e927b0ca96eL,
        0xb8a69dd2c5e72e06L, 0xe95307247dfdae7eL};
    int[] positions = {455, 405, 8, 266, 369, 466};
    long[] global = {36_295, 36_245, 35_848, 36_106, 36_209, 36_306};
    long[] words = {567, 566, 560, 564, 565, 567};
    long[] bitsInWord = {7, 21, 8, 10, 49, 18};
    long h = EXAMPLE_H2;
    for (int i = 0; i < 6; i++) {
      assertThat(h).isEqualTo(g[i]);
      assertThat(h >>> 55).isEqualTo(positions[i]);
      assertThat(512 * 70 + positions[i]).isEqualTo(global[i]);
      assertThat(global[i] / 64).isEqualTo(words[i]);
      assertThat(global[i] % 64).isEqualTo(bitsInWord[i]);
      h *= SpecReader.BLOCK_REMIX;
    }
    assertThat(SpecReader.inBlock(EXAMPLE_H2, 6)).containsExactly(positions);
    assertThat(SpecReader.blockedProbes(EXAMPLE_H1, EXAMPLE_H2, 99_328, 6)).containsExactly(global);
    assertThat(f.add(EXAMPLE_KEY)).isTrue();
    assertThat(setBits(f.currentWords())).isEqualTo(sorted(global));
  }

  /** HASHING.md section 5: the Guava layout's table; Guava itself sets the same bits. */
  @Test
  void guavaWorkedExampleIsWhatGuavaItselfSets() throws IOException {
    BloomFilter<CharSequence> f =
        BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10_000).fpp(0.01).guavaCompatible().build();
    assertThat(f.bitSize()).isEqualTo(95_872);
    assertThat(f.hashFunctions()).isEqualTo(7);
    long[] combined = {0x5cdfe590879c8925L, 0x40cdbd4458329f0bL, 0x24bb94f828c8b4f1L, 0x08a96cabf95ecad7L,
        0xec97445fc9f4e0bdL, 0xd0851c139a8af6a3L, 0xb472f3c76b210c89L};
    long[] masked = {6_692_319_980_209_080_613L, 4_669_596_489_888_210_699L, 2_646_872_999_567_340_785L,
        624_149_509_246_470_871L, 7_824_798_055_780_376_765L, 5_802_074_565_459_506_851L,
        3_779_351_075_138_636_937L};
    long[] positions = {80_805, 84_875, 88_945, 93_015, 82_365, 86_435, 90_505};
    long[] words = {1_262, 1_326, 1_389, 1_453, 1_286, 1_350, 1_414};
    long[] bitsInWord = {37, 11, 49, 23, 61, 35, 9};
    for (int i = 0; i < 7; i++) {
      assertThat(EXAMPLE_H1 + i * EXAMPLE_H2).isEqualTo(combined[i]);
      assertThat(combined[i] & Long.MAX_VALUE).isEqualTo(masked[i]);
      assertThat(masked[i] % 95_872).isEqualTo(positions[i]);
      assertThat(positions[i] / 64).isEqualTo(words[i]);
      assertThat(positions[i] % 64).isEqualTo(bitsInWord[i]);
    }
    assertThat(SpecReader.guavaProbes(EXAMPLE_H1, EXAMPLE_H2, 95_872, 7)).containsExactly(positions);
    assertThat(f.add(EXAMPLE_KEY)).isTrue();
    assertThat(setBits(f.currentWords())).isEqualTo(sorted(positions));

    com.google.common.hash.BloomFilter<CharSequence> guava = com.google.common.hash.BloomFilter.create(
        com.google.common.hash.Funnels.stringFunnel(java.nio.charset.StandardCharsets.UTF_8), 10_000, 0.01);
    guava.put(EXAMPLE_KEY);
    assertThat(setBits(guavaWords(guava))).isEqualTo(sorted(positions));
  }

  /** GUAVA.md's byte format, parsed by hand: strategy 1, k, the word count, the words. */
  private static long[] guavaWords(com.google.common.hash.BloomFilter<?> guava) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    guava.writeTo(out);
    ByteBuffer b = ByteBuffer.wrap(out.toByteArray());
    assertThat(b.get()).as("strategy ordinal").isEqualTo((byte) 1);
    b.get(); // k
    long[] words = new long[b.getInt()];
    for (int i = 0; i < words.length; i++) {
      words[i] = b.getLong();
    }
    assertThat(b.hasRemaining()).isFalse();
    return words;
  }

  /** Guava's own filters set exactly the spec's strategy 3 bits, for strings with lone surrogates too. */
  @Test
  void guavaItselfFollowsTheSpecForRandomStrings() throws IOException {
    SplittableRandom rnd = new SplittableRandom(0x5EED0BL);
    for (int[] shape : new int[][] {{1000, 1}, {100_000, 3}, {20, 30}}) {
      com.google.common.hash.BloomFilter<CharSequence> guava = com.google.common.hash.BloomFilter.create(
          com.google.common.hash.Funnels.stringFunnel(java.nio.charset.StandardCharsets.UTF_8), shape[0],
          shape[1] / 100.0);
      List<String> added = new ArrayList<>();
      for (int i = 0; i < Math.min(shape[0], 5000); i++) {
        String s = randomString(rnd);
        added.add(s);
        guava.put(s);
      }
      long[] words = guavaWords(guava);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      guava.writeTo(out);
      int k = out.toByteArray()[1] & 0xFF;
      long m = 64L * words.length;
      long[] expected = new long[words.length];
      for (String s : added) {
        long[] h = SpecReader.murmur3(SpecReader.utf8(s));
        for (long x : SpecReader.guavaProbes(h[0], h[1], m, k)) {
          expected[(int) (x / 64)] |= 1L << (x % 64);
        }
      }
      assertThat(words).isEqualTo(expected);
    }
  }

  /** HASHING.md section 6: a counter that two probes of one key hit goes up by one. */
  @Test
  void countingWorkedExample() throws IOException {
    CountingBloomFilter<CharSequence> f = CountingBloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10)
        .fpp(0.1).hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    assertThat(f.counterCount()).isEqualTo(64);
    assertThat(f.hashFunctions()).isEqualTo(3);
    assertThat(libraryHash("key45", Funnels.stringFunnel())).containsExactly(0x2f61506c7b29a6a6L, 0x02c909cb267e7c51L);
    assertThat(SpecReader.fastRange(0x2f61506c7b29a6a6L, 64)).isEqualTo(11);
    assertThat(SpecReader.fastRange(0x02c909cb267e7c51L, 64)).isZero();
    assertThat(SpecReader.standardProbes(0x2f61506c7b29a6a6L, 0x02c909cb267e7c51L, 64, 3)).containsExactly(11, 11, 12);
    assertThat(f.add("key45")).isTrue();
    assertThat(f.currentWords()).containsExactly(0x0001100000000000L, 0, 0, 0);
    SpecReader.Record r;
    try {
      r = (SpecReader.Record) SpecReader.readFile(bytes(f));
    } catch (SpecReader.Rejected e) {
      throw new AssertionError(e);
    }
    assertThat(r.counter(11)).isEqualTo(1);
    assertThat(r.counter(12)).isEqualTo(1);
    assertThat(f.remove("key45")).isTrue();
    assertThat(f.currentWords()).containsExactly(0, 0, 0, 0);
    assertThat(f.mightContain("key45")).isFalse();
  }

  // ------------------------------------------------------------------ 7. strategies 4 and 5 (XXH3-64)

  /*
   * Worked examples of strategies 4 and 5, for docs/HASHING.md (asserted below, so they stay exact).
   *
   * h1 = XXH3-64, seed 0, of the key bytes; h2 = SplitMix64 finalizer of h1. A string's key bytes are its
   * UTF-16 code units, 2 bytes little-endian each; a long's are its 8 bytes little-endian.
   *
   *   key        key bytes (hex)          h1                   h2
   *   "hello"    680065006c006c006f00     0x6e1b911f175fbac2   0xb6d72fb5f5ce4749
   *   ""         (none)                   0x2d06800538d394c2   0x59b0ed710b28abee
   *   42L        2a00000000000000         0xd5a6f8c838df27c8   0xf0279f3d3a3490bc
   *
   * Strategy 4 (standard layout), m = 1000 bits, k = 4: x = fastRange(h1, m), y = fastRange(h2, m), then
   * per probe i = 1..k: set bit x; x = (x + y) mod m; y = (y + i) mod m.
   *
   *   key        x0    y0    bit positions, in probe order
   *   "hello"    430   714   430, 144, 859, 576
   *   ""         175   350   175, 525, 876, 229
   *   42L        834   938   834, 772, 711, 652
   *
   * Strategy 5 (blocked layout), m = 2048 bits (B = 4 blocks of 512), k = 4: block = fastRange(h1, B);
   * position i = top 9 bits of h2 * C^i mod 2^64, C = 0x9E3779B97F4A7C15; bit = 512 * block + position.
   *
   *   key        block   positions in block     bit positions
   *   "hello"    1       365, 405, 108, 7       877, 917, 620, 519
   *   ""         0       179, 455, 354, 472     179, 455, 354, 472
   *   42L        3       480, 169, 286, 463     2016, 1705, 1822, 1999
   */

  private static final Object[] XXH3_KEYS = {"hello", "", 42L};
  private static final String[] XXH3_KEY_BYTES = {"680065006c006c006f00", "", "2a00000000000000"};
  private static final long[] XXH3_H1 = {0x6e1b911f175fbac2L, 0x2d06800538d394c2L, 0xd5a6f8c838df27c8L};
  private static final long[] XXH3_H2 = {0xb6d72fb5f5ce4749L, 0x59b0ed710b28abeeL, 0xf0279f3d3a3490bcL};

  /** The spec's key bytes of a worked-example key under strategies 4 and 5. */
  private static byte[] xxh3KeyBytes(Object key) {
    return key instanceof Long l ? SpecReader.longBytes(l) : SpecReader.utf16le((String) key);
  }

  /** A strategy 4 or 5 filter of this layout holding only {@code key}. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static BloomFilter<Object> filterOf(Layout layout, Object key) {
    Funnel<Object> funnel = key instanceof Long ? (Funnel) Funnels.longFunnel() : (Funnel) Funnels.stringFunnel();
    BloomFilter<Object> f = BloomFilter.withLayout(funnel, layout);
    assertThat(f.add(key)).isTrue();
    return f;
  }

  /** The key bytes, h1 and h2 of the worked examples: the spec's, the library's and the table's. */
  @Test
  void xxh3HashWorkedExample() {
    for (int i = 0; i < XXH3_KEYS.length; i++) {
      Object key = XXH3_KEYS[i];
      byte[] bytes = xxh3KeyBytes(key);
      assertThat(HEX.formatHex(bytes)).isEqualTo(XXH3_KEY_BYTES[i]);
      assertThat(SpecReader.xxh3(bytes)).as("h1 of %s", key).isEqualTo(XXH3_H1[i]);
      assertThat(SpecReader.splitMix64(XXH3_H1[i])).as("h2 of %s", key).isEqualTo(XXH3_H2[i]);
      long libH1 = key instanceof Long l ? Xxh3Keys.of(l, Funnels.longFunnel())
          : Xxh3Keys.of((String) key, Funnels.stringFunnel());
      assertThat(libH1).isEqualTo(XXH3_H1[i]);
      assertThat(Xxh3Keys.second(libH1)).isEqualTo(XXH3_H2[i]);
      System.out.printf("strategy 4/5: key %s, bytes %s, h1 0x%016x, h2 0x%016x%n", key instanceof Long ? key + "L"
          : "\"" + key + "\"", XXH3_KEY_BYTES[i], XXH3_H1[i], XXH3_H2[i]);
    }
  }

  /** Strategy 4, m = 1000, k = 4: the table's x0, y0 and bits, the spec's and the library's. */
  @Test
  void standardStrategyFourWorkedExample() {
    long m = 1000;
    int k = 4;
    long[] x0 = {430, 175, 834};
    long[] y0 = {714, 350, 938};
    long[][] positions = {{430, 144, 859, 576}, {175, 525, 876, 229}, {834, 772, 711, 652}};
    for (int i = 0; i < XXH3_KEYS.length; i++) {
      long x = SpecReader.fastRange(XXH3_H1[i], m);
      long y = SpecReader.fastRange(XXH3_H2[i], m);
      assertThat(x).isEqualTo(x0[i]);
      assertThat(y).isEqualTo(y0[i]);
      for (int p = 1; p <= k; p++) {
        assertThat(x).isEqualTo(positions[i][p - 1]);
        x = (x + y) % m;
        y = (y + p) % m;
      }
      assertThat(SpecReader.standardProbes(XXH3_H1[i], XXH3_H2[i], m, k)).containsExactly(positions[i]);
      BloomFilter<Object> f =
          filterOf(new StandardLayout(m, k, HashStrategy.XXH3_64_ENHANCED_DOUBLE), XXH3_KEYS[i]);
      assertThat(setBits(f.currentWords())).isEqualTo(sorted(positions[i]));
      System.out.printf("strategy 4, m = %d, k = %d: key %s, x0 %d, y0 %d, bits %s%n", m, k, XXH3_KEYS[i], x0[i],
          y0[i], Arrays.toString(positions[i]));
    }
  }

  /** Strategy 5, m = 2048 (4 blocks), k = 4: the table's block, in-block positions and bits. */
  @Test
  void blockedStrategyFiveWorkedExample() {
    long m = 2048;
    int k = 4;
    long[] blocks = {1, 0, 3};
    int[][] inBlock = {{365, 405, 108, 7}, {179, 455, 354, 472}, {480, 169, 286, 463}};
    long[][] global = {{877, 917, 620, 519}, {179, 455, 354, 472}, {2016, 1705, 1822, 1999}};
    for (int i = 0; i < XXH3_KEYS.length; i++) {
      assertThat(SpecReader.blockOf(XXH3_H1[i], m)).isEqualTo(blocks[i]);
      long h = XXH3_H2[i];
      for (int p = 0; p < k; p++) {
        assertThat(h >>> 55).isEqualTo(inBlock[i][p]);
        assertThat(512 * blocks[i] + inBlock[i][p]).isEqualTo(global[i][p]);
        h *= SpecReader.BLOCK_REMIX;
      }
      assertThat(SpecReader.inBlock(XXH3_H2[i], k)).containsExactly(inBlock[i]);
      assertThat(SpecReader.blockedProbes(XXH3_H1[i], XXH3_H2[i], m, k)).containsExactly(global[i]);
      BloomFilter<Object> f = filterOf(new BlockedLayout(m, k, HashStrategy.XXH3_64_BLOCKED), XXH3_KEYS[i]);
      assertThat(setBits(f.currentWords())).isEqualTo(sorted(global[i]));
      System.out.printf("strategy 5, m = %d, k = %d: key %s, block %d, in block %s, bits %s%n", m, k, XXH3_KEYS[i],
          blocks[i], Arrays.toString(inBlock[i]), Arrays.toString(global[i]));
    }
  }

  /**
   * The key bytes of strategies 4 and 5, the spec's against the library's h1: strings as UTF-16LE code
   * units (non-ASCII chars, surrogate pairs and unpaired surrogates as they are, not as UTF-8 or '?'),
   * through the string funnel, a StringBuilder, and a custom funnel's putString and putLong.
   */
  @Test
  void xxh3KeyBytesAreUtf16CodeUnits() {
    String mixed = "a\u00e9\u20ac\uD83D\uDE00" + "\uD83Dz\uDE00";
    assertThat(HEX.formatHex(SpecReader.utf16le(mixed))).isEqualTo("6100e900ac203dd800de" + "3dd87a0000de");
    Funnel<String> custom = (item, sink) -> sink.putString(item);
    Funnel<String> pair = (item, sink) -> sink.putString(item).putLong(item.length());
    SplittableRandom rnd = new SplittableRandom(0x5EED13L);
    List<String> strings = new ArrayList<>(List.of(mixed, "\uD800", "\uDFFF", "x\uDBFF", "\uDC00y", "\uD83D\uDE00",
        "Gr\u00fc\u00dfe aus Z\u00fcrich", ""));
    for (int i = 0; i < 20_000; i++) {
      strings.add(randomString(rnd));
    }
    for (String s : strings) {
      long spec = SpecReader.xxh3(SpecReader.utf16le(s));
      assertThat(Xxh3Keys.of(s, Funnels.stringFunnel())).as(s).isEqualTo(spec);
      assertThat(Xxh3Keys.of(new StringBuilder(s), Funnels.stringFunnel())).isEqualTo(spec);
      assertThat(Xxh3Keys.of(s, custom)).isEqualTo(spec);
      ByteArrayOutputStream both = new ByteArrayOutputStream();
      both.writeBytes(SpecReader.utf16le(s));
      both.writeBytes(SpecReader.longBytes(s.length()));
      assertThat(Xxh3Keys.of(s, pair)).isEqualTo(SpecReader.xxh3(both.toByteArray()));
    }
    for (int i = 0; i < 2000; i++) {
      long v = rnd.nextLong();
      assertThat(Xxh3Keys.of(v, Funnels.longFunnel())).isEqualTo(SpecReader.xxh3(SpecReader.longBytes(v)));
    }
  }

  /**
   * Strings with non-ASCII chars, surrogate pairs and an unpaired surrogate in strategy 4 and 5 files,
   * standard, blocked and scalable: the spec reader, hashing their UTF-16LE bytes, answers as the library.
   */
  @Test
  void xxh3FilesOfAwkwardStringsAgreeWithTheLibrary() throws Exception {
    SplittableRandom rnd = new SplittableRandom(0x5EED14L);
    List<MembershipFilter<Object>> filters = List.of(
        BloomFilter.builder(funnelOf(1)).expectedInsertions(500).fpp(0.01).build(),
        BloomFilter.builder(funnelOf(1)).expectedInsertions(500).fpp(0.01).blocked().build(),
        ScalableBloomFilter.builder(funnelOf(1)).initialCapacity(50).fpp(0.01).build(),
        ScalableBloomFilter.builder(funnelOf(1)).initialCapacity(50).fpp(0.01).blocked().build());
    String[] fixed = {"\uD800", "caf\u00e9", "\uD83D\uDE00 smile", "lone \uDC01 low", "high \uDBFF", "\u20ac\u20ac"};
    for (MembershipFilter<Object> f : filters) {
      List<String> added = new ArrayList<>(List.of(fixed));
      for (int i = 0; i < 400; i++) {
        added.add(randomString(rnd));
      }
      for (String s : added) {
        f.add(s);
      }
      Object read = SpecReader.readFile(bytes(f));
      java.util.function.Predicate<byte[]> spec = read instanceof SpecReader.Record record
          ? record::mightContain : ((SpecReader.Scalable) read)::mightContain;
      int strategy = read instanceof SpecReader.Record record ? record.strategy()
          : ((SpecReader.Scalable) read).strategy();
      assertThat(strategy).isIn(4, 5, 6);
      for (String s : added) {
        assertThat(spec.test(SpecReader.utf16le(s))).as(s).isTrue();
      }
      int maybes = 0;
      for (int i = 0; i < 20_000; i++) {
        String s = randomString(rnd);
        boolean lib = f.mightContain(s);
        assertThat(spec.test(SpecReader.utf16le(s))).as(s).isEqualTo(lib);
        maybes += lib ? 1 : 0;
      }
      assertThat(maybes).as("false positives among 20000 fresh strings").isLessThan(2000);
    }
  }

  // ------------------------------------------------------------------ 7. expiring filters (type 6)

  private static final long ORIGIN = ExpiringFormatTest.ORIGIN;

  /** The spec reader's answers for keys at clock time t. */
  private static boolean[] specAnswers(SpecReader.Expiring e, List<Key> keys, long t) {
    boolean[] out = new boolean[keys.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = e.mightContain(keys.get(i).bytesFor(4), t);
    }
    return out;
  }

  /** The library's answers for keys at clock time t: the file read with a clock showing t, then queried. */
  private static boolean[] libraryAnswers(byte[] file, Funnel<Object> funnel, List<Key> keys, long t)
      throws IOException {
    ExpiringBloomFilter<Object> f =
        ExpiringBloomFilter.readFrom(new ByteArrayInputStream(file), funnel, new TestClock(t));
    boolean[] out = new boolean[keys.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = f.mightContain(keys.get(i).value());
    }
    return out;
  }

  /** a + b, saturated at the range of a clock reading. */
  private static long plus(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
  }

  /** origin + i·s, clamped to the range of a clock reading. */
  private static long clampedSlotStart(SpecReader.Expiring e, long i) {
    BigInteger v = e.slotStart(i);
    return v.max(BigInteger.valueOf(Long.MIN_VALUE)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValueExact();
  }

  /**
   * The clock times at which answers are compared: around the current slot's boundaries, one and G slots
   * on, past the retention of every generation, far in the future, before the origin, and around every
   * kept-until time.
   */
  private static java.util.Set<Long> queryTimes(SpecReader.Expiring e, SplittableRandom rnd) {
    java.util.Set<Long> times = new TreeSet<>();
    long c = e.c();
    long start = clampedSlotStart(e, c);
    times.add(start);
    times.add(plus(start, rnd.nextLong(e.s())));
    for (long j : new long[] {1, 2, e.g() - 1L, e.g(), e.g() + 1L}) {
      long b = clampedSlotStart(e, c + j);
      times.add(plus(b, -1));
      times.add(b);
    }
    times.add(plus(clampedSlotStart(e, c + 100L * e.g()), rnd.nextLong(e.s())));
    times.add(plus(clampedSlotStart(e, -1), -1));
    times.add(Long.MAX_VALUE); // clock readings at the ends of the range, far from the origin
    times.add(Long.MIN_VALUE);
    for (long kept : e.keptUntil()) {
      if (kept != Long.MIN_VALUE) {
        times.add(plus(kept, -1));
        times.add(kept);
      }
    }
    return times;
  }

  /** A random expiring filter, filled while its test clock moves through several slots. */
  private record ExpiringCase(byte[] file, int keyType, List<Key> added, List<Long> addedAt, long writtenAt) {}

  private static ExpiringCase randomExpiring(SplittableRandom rnd, int g, int keyType, int maxAdds)
      throws IOException {
    long w = 1000 + rnd.nextLong(rnd.nextBoolean() ? 20_000 : 86_400_000);
    long n = 1 + rnd.nextLong(rnd.nextBoolean() ? 50 : 3_000);
    double[] ps = {0.1, 0.01, 0.001, 0.25, 1e-6};
    double p = rnd.nextBoolean() ? ps[rnd.nextInt(ps.length)] : 1e-4 + 0.5 * rnd.nextDouble();
    long origin = ORIGIN + rnd.nextLong(1L << 40) - (1L << 39);
    TestClock clock = new TestClock(origin);
    ExpiringBloomFilter<Object> f = ExpiringBloomFilter.builder(funnelOf(keyType)).window(Duration.ofMillis(w))
        .expectedInsertionsPerWindow(n).fpp(p).generations(g).clock(clock).build();
    long s = f.generationSpan().toMillis();
    int adds = 1 + rnd.nextInt(maxAdds);
    long span = rnd.nextLong((g + 3) * s); // through several slots, sometimes past a whole rotation
    List<Key> added = new ArrayList<>();
    List<Long> addedAt = new ArrayList<>();
    for (int i = 0; i < adds; i++) {
      long t = origin + span * i / adds;
      if (rnd.nextInt(50) == 0) {
        t -= rnd.nextLong(s); // the clock goes back a little now and then
      }
      clock.set(t);
      Key key = randomKey(rnd, keyType);
      f.add(key.value());
      added.add(key);
      addedAt.add(t);
    }
    long writtenAt = origin + span + rnd.nextLong(s);
    clock.set(writtenAt);
    return new ExpiringCase(bytes(f), keyType, added, addedAt, writtenAt);
  }

  /** The golden type 6 file decodes to FORMAT.md's example and answers as the library does. */
  @Test
  void expiringGoldenFileParsesAsDocumented() throws Exception {
    byte[] file = HEX.parseHex(ExpiringFormatTest.GOLDEN_HEX);
    SpecReader.Expiring e = (SpecReader.Expiring) SpecReader.readFile(file);
    assertThat(List.<Object>of(e.version(), e.strategy(), e.keyType(), e.n(), e.p(), e.w(), e.g(), e.k(), e.m(),
        e.s(), e.origin(), e.c(), e.length()))
        .isEqualTo(List.<Object>of(2, 4, 1, 6L, 0.1, 3000L, 4, 5, 64L, 1000L, ORIGIN, 2L, 212));
    assertThat(e.starts()).containsExactly(ORIGIN, ORIGIN + 1000, ORIGIN + 2000, ORIGIN - 1000);
    assertThat(e.counts()).containsExactly(2, 0, 1, 0);
    assertThat(e.keptUntil()).containsOnly(Long.MIN_VALUE);
    // The payload is exactly the spec's cells of apple and banana in generation 0 and cherry in generation 2.
    long[] words = new long[4];
    String[] items = {"apple", "banana", "cherry"};
    int[] gens = {0, 0, 2};
    for (int i = 0; i < items.length; i++) {
      byte[] key = SpecReader.utf16le(items[i]);
      for (long x : SpecReader.standardProbes(SpecReader.xxh3(key), SpecReader.splitMix64(SpecReader.xxh3(key)),
          64, 5)) {
        words[(int) (x / 16)] |= 1L << ((x % 16) * 4 + gens[i]);
      }
    }
    assertThat(e.words()).containsExactly(words);
    List<Key> keys = new ArrayList<>();
    for (String k : new String[] {"apple", "banana", "cherry", "damson", "elder", "fig", "grape", "", "step"}) {
      keys.add(new Key(k, SpecReader.utf8(k)));
    }
    SplittableRandom rnd = new SplittableRandom(0x5EED60L);
    for (int i = 0; i < 200; i++) {
      keys.add(randomKey(rnd, 1));
    }
    // FORMAT.md's story: all three at origin + 2.5 s; at origin + 4 s apple and banana are forgotten.
    boolean[] at25 = specAnswers(e, keys, ORIGIN + 2_500);
    boolean[] at4 = specAnswers(e, keys, ORIGIN + 4_000);
    assertThat(Arrays.copyOf(at25, 3)).containsExactly(true, true, true);
    assertThat(Arrays.copyOf(at4, 3)).containsExactly(false, false, true);
    assertThat(e.mightContain(SpecReader.utf16le("apple"), ORIGIN + 3_999)).isTrue();
    assertThat(e.mightContain(SpecReader.utf16le("cherry"), ORIGIN + 5_999)).isTrue();
    assertThat(e.mightContain(SpecReader.utf16le("cherry"), ORIGIN + 6_000)).isFalse();
    for (long t : new long[] {ORIGIN + 2_500, ORIGIN + 3_999, ORIGIN + 4_000, ORIGIN + 6_000}) {
      assertThat(specAnswers(e, keys, t)).as("t = origin + %d", t - ORIGIN)
          .containsExactly(libraryAnswers(file, funnelOf(1), keys, t));
    }
  }

  /** The filters of {@link #expiringFilesAgreeWithTheLibraryAtEveryTime}: 4 per G, 1 to 600 adds each. */
  private static final int EXPIRING_FILTERS_PER_G = 4;

  /**
   * Random expiring filters of every G, with strings and longs, filled across slot boundaries (the clock
   * now and then going back): at the write time, across the following slot boundaries, past maxRetention
   * and far in the future, the spec reader answers as the library reading the same file at the same
   * clock time, for the added keys and fresh ones. Inside the window it finds every added key.
   */
  @Test
  void expiringFilesAgreeWithTheLibraryAtEveryTime() throws Exception {
    SplittableRandom rnd = new SplittableRandom(0x5EED61L);
    long probes = 0;
    long maybes = 0;
    int files = 0;
    for (int g : new int[] {2, 4, 8, 16, 32, 64}) {
      for (int rep = 0; rep < EXPIRING_FILTERS_PER_G; rep++) {
        int keyType = rep % 2 == 0 ? 1 : 2;
        ExpiringCase ec = randomExpiring(rnd, g, keyType, 600);
        SpecReader.Expiring e = (SpecReader.Expiring) SpecReader.readFile(ec.file());
        assertThat(List.of(e.g(), e.keyType(), e.strategy())).containsExactly(g, keyType, 4);
        List<Key> keys = new ArrayList<>(ec.added());
        for (int i = 0; i < 300; i++) {
          keys.add(randomKey(rnd, keyType));
        }
        java.util.Set<Long> times = queryTimes(e, rnd);
        times.add(ec.writtenAt());
        times.add(ec.writtenAt() + e.w() - 1);
        times.add(ec.writtenAt() + e.g() * e.s()); // maxRetention after the write
        boolean[] atWrite = specAnswers(e, keys, ec.writtenAt());
        for (int i = 0; i < ec.added().size(); i++) {
          if (ec.writtenAt() < ec.addedAt().get(i) + e.w()) { // inside the window: never a false negative
            assertThat(atWrite[i]).as("added key %d at write time", i).isTrue();
          }
        }
        for (long t : times) {
          boolean[] spec = specAnswers(e, keys, t);
          assertThat(spec).as("G = %d, filter %d, t = origin + %d", g, rep, t - e.origin())
              .containsExactly(libraryAnswers(ec.file(), funnelOf(keyType), keys, t));
          probes += spec.length;
          for (boolean b : spec) {
            maybes += b ? 1 : 0;
          }
        }
        files++;
      }
    }
    System.out.println("expiring: " + files + " files, " + probes + " probes compared, " + maybes + " maybes");
    assertThat(maybes).as("both answers occur").isBetween(probes / 20, probes - probes / 20);
  }

  /**
   * FORMAT.md's type 6 sizing, recomputed by the spec reader, is the builder's for 20,000 random shapes
   * (n log-uniform to 10^15, p log-uniform down to 10^-300 and up to 1 − 2^-53, W log-uniform over its whole
   * range, every G): the same s, m and k, and the same pairs refused. No filter is allocated.
   */
  @Test
  void expiringSizingIsTheBuilders() {
    SplittableRandom rnd = new SplittableRandom(0x5EED63L);
    int[] gs = {2, 4, 8, 16, 32, 64};
    int refused = 0;
    List<String> disagreements = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      long n = Math.max(1, (long) Math.pow(10, 15 * rnd.nextDouble()));
      double p = rnd.nextInt(20) == 0 ? Math.nextDown(1.0) - rnd.nextInt(3) * 0x1p-53
          : Math.pow(10, -(rnd.nextInt(10) == 0 ? 300 : 12) * rnd.nextDouble());
      long w = Math.min(Long.MAX_VALUE / 256, (long) Math.pow(2, 10 + 45.1 * rnd.nextDouble()));
      int g = gs[rnd.nextInt(gs.length)];
      if (!(p > 0 && p < 1) || w < 1000) {
        continue;
      }
      long[] spec = SpecReader.expiringSizing(n, p, w, g);
      long[] lib;
      try {
        ExpiringBloomFilter.Builder<Object> b = ExpiringBloomFilter.builder(funnelOf(2)).window(Duration.ofMillis(w))
            .expectedInsertionsPerWindow(n).fpp(p).generations(g);
        lib = new long[] {b.generationSpan().toMillis(), b.bitsPerGeneration(), b.hashFunctions()};
      } catch (IllegalArgumentException e) {
        lib = null;
      }
      refused += lib == null ? 1 : 0;
      if (!Arrays.equals(spec, lib)) {
        disagreements.add("n = " + n + ", p = " + p + ", W = " + w + ", G = " + g + ": spec " + Arrays.toString(spec)
            + ", library " + Arrays.toString(lib));
      }
    }
    assertThat(disagreements.subList(0, Math.min(5, disagreements.size())))
        .as("%d disagreements (the first 5 shown)", disagreements.size()).isEmpty();
    assertThat(refused).as("some shapes are too large to build").isBetween(100, 10_000);
  }

  /** Header fields of a type 6 record: offset, width (p at 16 is the double). */
  private static final int[][] EXPIRING_FIELDS = {{8, 8}, {16, 8}, {24, 8}, {32, 4}, {36, 4}, {40, 8}, {48, 8},
      {56, 8}, {64, 8}, {72, 8}};

  /** The number of damaged type 6 files {@link #expiringSpecRejectsExactlyWhatTheLibraryRejects} compares. */
  private static final int EXPIRING_MUTANTS = 6_000;

  /**
   * 6,000 mutants of valid type 6 files (the golden one and one per G): header fields to boundary values,
   * bytes 4 to 7, any byte, table entries (starts, counts, kept-until times), the whole timeline shifted,
   * the current slot moved with the starts following, payload bits, truncations, appended bytes; CRCs
   * mostly recomputed. The spec reader refuses exactly what the library refuses, and where both accept,
   * they answer the same at the clock times of {@link #queryTimes}.
   */
  @Test
  void expiringSpecRejectsExactlyWhatTheLibraryRejects() throws IOException {
    SplittableRandom rnd = new SplittableRandom(0x5EED62L);
    List<byte[]> valid = new ArrayList<>();
    List<Integer> keyTypes = new ArrayList<>();
    List<List<Key>> keysOf = new ArrayList<>();
    valid.add(HEX.parseHex(ExpiringFormatTest.GOLDEN_HEX));
    keyTypes.add(1);
    List<Key> goldenKeys = new ArrayList<>();
    for (String k : new String[] {"apple", "banana", "cherry", "damson"}) {
      goldenKeys.add(new Key(k, SpecReader.utf8(k)));
    }
    keysOf.add(goldenKeys);
    for (int g : new int[] {2, 4, 8, 16, 32, 64}) {
      int keyType = g % 8 == 0 ? 2 : 1;
      ExpiringCase ec = randomExpiring(rnd, g, keyType, 40);
      valid.add(ec.file());
      keyTypes.add(keyType);
      keysOf.add(ec.added());
    }
    for (byte[] v : valid) {
      assertThat(specVerdict(v)).isNull();
      assertThat(libraryAccepts(v)).isTrue();
    }
    int accepted = 0;
    long probes = 0;
    List<String> disagreements = new ArrayList<>();
    java.util.Map<String, Integer> rules = new java.util.TreeMap<>();
    for (int i = 0; i < EXPIRING_MUTANTS; i++) {
      int which = rnd.nextInt(valid.size());
      byte[] base = valid.get(which);
      byte[] f = base.clone();
      ByteBuffer b = ByteBuffer.wrap(f);
      int g = b.getInt(32);
      long s = b.getLong(48);
      long origin = b.getLong(56);
      long c = b.getLong(64);
      int kind = rnd.nextInt(10);
      switch (kind) {
        case 0:
        case 1: { // a header field to a boundary value, or one step from its own
          int[] field = EXPIRING_FIELDS[rnd.nextInt(EXPIRING_FIELDS.length)];
          long old = get(f, field[0], field[1]);
          long value = rnd.nextBoolean() ? boundary(rnd, old, field[0] == 16)
              : field[0] == 16 ? Double.doubleToRawLongBits(rnd.nextBoolean() ? Math.nextUp(Double.longBitsToDouble(old))
                  : Math.nextDown(Double.longBitsToDouble(old)))
              : old + (rnd.nextBoolean() ? 1L : -1L) * (1 + rnd.nextInt(3));
          if (field[0] == 32 && rnd.nextBoolean()) {
            value = 1L << (1 + rnd.nextInt(6)); // another valid G
          }
          put(f, field[0], field[1], value);
          f = fixExpiringCrc(f);
          break;
        }
        case 2: // one of bytes 4 to 7 (version, type, strategy, key type)
          f[4 + rnd.nextInt(4)] = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(256) : rnd.nextInt(8));
          f = rnd.nextInt(5) == 0 ? f : fixExpiringCrc(f);
          break;
        case 3: // any byte anywhere, CRC kept or fixed
          f[rnd.nextInt(f.length)] ^= (byte) (1 << rnd.nextInt(8));
          f = rnd.nextBoolean() ? f : fixExpiringCrc(f);
          break;
        case 4: { // a table entry: start, count or kept-until
          int gen = rnd.nextInt(g);
          int at = 80 + 24 * gen;
          long start = b.getLong(at);
          long end = start + g * s; // when its adds are forgotten
          int field = rnd.nextInt(3);
          long[] values = field == 0 ? new long[] {start + 1, start - 1, start + s, start - s, start + g * s, 0}
              : field == 1 ? new long[] {-1, 0, 1, Long.MAX_VALUE, Long.MIN_VALUE, b.getLong(at + 8) + 1}
              : new long[] {Long.MIN_VALUE + 1, start - 1, start, start + 1, end - 1, end, end + rnd.nextLong(4L * g * s),
                  end + rnd.nextLong(4L * g * s), start + rnd.nextLong(g * s), Long.MAX_VALUE, -1, 0};
          b.putLong(at + 8 * field, values[rnd.nextInt(values.length)]);
          f = fixExpiringCrc(f);
          break;
        }
        case 5: { // the whole timeline shifted (origin and every start), by a little or up to the limits
          long[] deltas = {1, -1, s, -s, rnd.nextLong(1L << 50) - (1L << 49), Long.MAX_VALUE - origin - c * s,
              Long.MAX_VALUE - origin - (c - g) * s + 1, Long.MIN_VALUE - origin + 1, Long.MIN_VALUE - origin + g * s,
              -origin};
          long delta = deltas[rnd.nextInt(deltas.length)];
          b.putLong(56, origin + delta);
          boolean saturate = rnd.nextBoolean(); // starts past the long range: saturated, or wrapped
          for (int gen = 0; gen < g; gen++) {
            long slot = c - Math.floorMod(c - gen, (long) g);
            b.putLong(80 + 24 * gen, saturate ? saturatedStart(origin + delta, slot, s) : b.getLong(80 + 24 * gen) + delta);
          }
          f = fixExpiringCrc(f);
          break;
        }
        case 6: { // the current slot moved, the starts following it (in saturating or wrapping 64-bit arithmetic)
          long[] slots = {c + 1, c - 1, c + 1 + rnd.nextInt(2 * g), c + rnd.nextLong(1L << 30), (1L << 55) - 1,
              1L << 55, 0, g - 1L, -1};
          long nc = slots[rnd.nextInt(slots.length)];
          b.putLong(64, nc);
          boolean saturate = rnd.nextBoolean();
          for (int gen = 0; gen < g; gen++) {
            long slot = nc - Math.floorMod(nc - gen, (long) g);
            b.putLong(80 + 24 * gen, saturate ? saturatedStart(origin, slot, s) : origin + slot * s);
          }
          f = fixExpiringCrc(f);
          break;
        }
        case 7: { // payload bits, CRC fixed
          int payloadAt = 80 + 24 * g;
          for (int j = 1 + rnd.nextInt(3); j > 0; j--) {
            f[payloadAt + rnd.nextInt(f.length - 4 - payloadAt)] ^= (byte) (1 << rnd.nextInt(8));
          }
          f = fixExpiringCrc(f);
          break;
        }
        case 8: // truncated
          f = Arrays.copyOf(f, rnd.nextInt(f.length));
          break;
        default: // bytes after the record
          f = Arrays.copyOf(f, f.length + 1 + rnd.nextInt(8));
          if (rnd.nextBoolean()) {
            System.arraycopy(base, 0, f, base.length, Math.min(base.length, f.length - base.length));
          }
          break;
      }
      String verdict = specVerdict(f);
      rules.merge(verdict == null ? "accepted" : verdict, 1, Integer::sum);
      boolean spec = verdict == null;
      boolean lib = libraryAccepts(f);
      if (spec != lib) {
        disagreements.add("mutant " + i + " (kind " + kind + "): spec " + (spec ? "accepts" : "refuses: " + verdict)
            + ", library " + (lib ? "accepts" : "refuses: " + libraryError(f)) + ": " + HEX.formatHex(f, 0,
                Math.min(f.length, 80)));
        continue;
      }
      if (!spec) {
        continue;
      }
      accepted++;
      SpecReader.Expiring e;
      try {
        e = (SpecReader.Expiring) SpecReader.readFile(f);
      } catch (SpecReader.Rejected impossible) {
        throw new AssertionError(impossible);
      }
      List<Key> keys = new ArrayList<>(keysOf.get(which).subList(0, Math.min(12, keysOf.get(which).size())));
      for (int j = 0; j < 4; j++) {
        keys.add(randomKey(rnd, keyTypes.get(which)));
      }
      Funnel<Object> funnel = answeringFunnel(keyTypes.get(which), e.keyType());
      for (long t : queryTimes(e, rnd)) {
        boolean[] specSays = specAnswers(e, keys, t);
        boolean[] libSays = libraryAnswers(f, funnel, keys, t);
        probes += keys.size();
        if (!Arrays.equals(specSays, libSays)) {
          disagreements.add("mutant " + i + " (kind " + kind + ") at t = " + t + ": spec " + Arrays.toString(specSays)
              + ", library " + Arrays.toString(libSays) + ": " + HEX.formatHex(f, 0, Math.min(f.length, 80 + 24 * g)));
          break;
        }
      }
    }
    System.out.println("spec reader verdicts on " + EXPIRING_MUTANTS + " type 6 mutants: " + rules + "; "
        + probes + " probes of accepted mutants compared");
    assertThat(disagreements.subList(0, Math.min(5, disagreements.size())))
        .as("%d disagreements (the first 5 shown)", disagreements.size()).isEmpty();
    assertThat(rules.keySet()).containsAll(List.of("not a concurrent-bloom filter", "truncated", "truncated header",
        "expiring version", "type", "expiring strategy", "byte 7", "n", "p", "window W", "generations G",
        "slot length s", "bits per generation m", "probes k", "current slot c", "L", "truncated payload", "CRC",
        "generation start", "generation count", "kept-until before start", "bytes after the record"));
    assertThat(accepted).as("some mutants stay valid (so acceptance is compared too)")
        .isBetween(EXPIRING_MUTANTS / 20, EXPIRING_MUTANTS / 2);
  }

  /**
   * A valid file whose clock difference t − origin exceeds 64 bits while t is still inside slot c: the
   * golden filter with origin = −1000 ms and c = 9,223,372,036,854,775, queried at the last millisecond of
   * slot c. FORMAT.md says every generation is still valid there (cherry found, at 2^63 − 1 too). The
   * library once saturated the slot of such a clock time to 2^55 − 1 and forgot everything; it now reads
   * the overflowed difference as unsigned, as the document's unbounded arithmetic requires.
   */
  @Test
  void expiringClockFarFromAnOriginBefore1970() throws Exception {
    byte[] f = HEX.parseHex(ExpiringFormatTest.GOLDEN_HEX);
    ByteBuffer b = ByteBuffer.wrap(f);
    long origin = -1000;
    long c = 9_223_372_036_854_775L;
    b.putLong(56, origin);
    b.putLong(64, c);
    for (int gen = 0; gen < 4; gen++) {
      b.putLong(80 + 24 * gen, origin + (c - Math.floorMod(c - gen, 4L)) * 1000);
    }
    f = fixExpiringCrc(f);
    SpecReader.Expiring e = (SpecReader.Expiring) SpecReader.readFile(f);
    assertThat(libraryAccepts(f)).isTrue();
    List<Key> keys = List.of(new Key("apple", SpecReader.utf8("apple")), new Key("cherry", SpecReader.utf8("cherry")));
    for (long t : new long[] {origin + (c + 1) * 1000 - 1, Long.MAX_VALUE}) {
      assertThat(e.mightContain(SpecReader.utf16le("cherry"), t)).isTrue();
      assertThat(libraryAnswers(f, funnelOf(1), keys, t)).as("t = %d", t).containsExactly(specAnswers(e, keys, t));
    }
  }

  /** The funnel that hashes a base file's keys as before and admits the key type the mutant records. */
  private static Funnel<Object> answeringFunnel(int baseKeyType, int fileKeyType) {
    Funnel<Object> base = funnelOf(baseKeyType);
    Funnel<Object> custom = (item, sink) -> base.funnel(item, sink); // a custom funnel: key type 0
    return fileKeyType == 0 ? custom : Funnels.withKeyType(custom, KeyType.ofId(fileKeyType));
  }

  /** The library's message when it refuses a file, for the report of a disagreement. */
  private static String libraryError(byte[] f) {
    try {
      int keyType = f.length > 7 ? f[7] & 0xFF : 0;
      Funnel<Object> custom = (item, sink) -> sink.putString(item.toString());
      ExpiringBloomFilter.readFrom(new ByteArrayInputStream(f),
          keyType >= 1 && keyType <= 4 ? Funnels.withKeyType(custom, KeyType.ofId(keyType)) : custom,
          new TestClock(0));
      return "(accepted)";
    } catch (IOException | RuntimeException e) {
      return e.toString();
    }
  }

  /** origin + slot·s in unbounded integers, clamped to the long range. */
  private static long saturatedStart(long origin, long slot, long s) {
    return BigInteger.valueOf(origin).add(BigInteger.valueOf(slot).multiply(BigInteger.valueOf(s)))
        .max(BigInteger.valueOf(Long.MIN_VALUE)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValueExact();
  }

  /** Recomputes a type 6 file's CRC where its length allows. */
  private static byte[] fixExpiringCrc(byte[] f) {
    if (f.length >= 84) {
      ByteBuffer.wrap(f).putInt(f.length - 4, SpecReader.crc32c(f, 0, f.length - 4));
    }
    return f;
  }
}
