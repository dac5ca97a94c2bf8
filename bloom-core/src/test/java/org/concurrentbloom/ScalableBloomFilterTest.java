package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Single-threaded behaviour of {@link ScalableBloomFilter}: growth, statistics, the cap, clear, files. */
class ScalableBloomFilterTest {

  /**
   * The layer count growth must produce after {@code count} adds that returned true, single-threaded:
   * layer j is added the moment the first j layers hold their capacity n0·(1 + s + ... + s^(j-1)).
   */
  static int expectedLayers(long initialCapacity, int growthFactor, long count) {
    int layers = 1;
    long capacity = initialCapacity;
    long boundary = initialCapacity;
    while (count >= boundary) {
      layers++;
      capacity *= growthFactor;
      boundary += capacity;
    }
    return layers;
  }

  static byte[] bytes(MembershipFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  static ScalableBloomFilter<CharSequence> read(byte[] bytes) throws IOException {
    return ScalableBloomFilter.readFrom(new ByteArrayInputStream(bytes), Funnels.stringFunnel());
  }

  /** Adds "item-0", "item-1", ... until {@code count} adds have returned true; returns the next index. */
  static int addUntilCount(ScalableBloomFilter<CharSequence> f, long count, int from) {
    int i = from;
    while (f.count() < count) {
      f.add("item-" + i++);
    }
    return i;
  }

  @Test
  void layersAreAddedExactlyAtTheirBoundariesAndFollowThePlan() {
    ScalableBloomFilter<Long> f = ScalableBloomFilter.create(Funnels.longFunnel(), 100, 0.01);
    assertThat(f.layerCount()).isEqualTo(1);
    for (long i = 0; f.count() < 100 * 255; i++) {
      f.add(i * 0x9E3779B97F4A7C15L);
      assertThat(f.layerCount()).as("layers after %d adds that returned true", f.count())
          .isEqualTo(expectedLayers(100, 2, f.count()));
    }
    assertThat(f.layerCount()).isEqualTo(9); // 8 full layers (100 + 200 + ... + 12800) and a new, empty one
    List<ScalableBloomFilter.LayerStats> layers = f.layerStats();
    double boundSum = 0;
    long bits = 0;
    for (int i = 0; i < layers.size(); i++) {
      ScalableBloomFilter.LayerStats layer = layers.get(i);
      assertThat(layer.capacity()).isEqualTo(100L << i);
      assertThat(layer.fpp()).isCloseTo(0.01 * 0.1 * Math.pow(0.9, i), within(1e-15));
      // Single-threaded, every slot taken is an add that returned true: older layers are exactly full.
      assertThat(layer.count()).isEqualTo(i < layers.size() - 1 ? layer.capacity() : 0);
      assertThat(layer.hashFunctions()).isEqualTo(Sizing.optimalHashFunctions(layer.capacity(), layer.fpp()));
      assertThat(layer.bitSize()).isEqualTo(Sizing.optimalBits(layer.capacity(), layer.fpp()));
      boundSum += layer.fpp();
      bits += layer.bitSize();
    }
    assertThat(f.fppBound()).isCloseTo(boundSum, within(1e-15)).isLessThan(0.01);
    assertThat(f.bitSize()).isEqualTo(bits);
    assertThat(f.capacity()).isEqualTo(100L * 511);
    assertThat(f.expectedInsertions()).isEqualTo(100);
    assertThat(f.fpp()).isEqualTo(0.01);
    // Full layers estimate about their target rate, so the compound estimate is about the bound.
    assertThat(f.estimatedFpp()).isPositive().isLessThanOrEqualTo(1.05 * f.fppBound());
    assertThat((double) f.approximateElementCount()).isCloseTo(f.count(), within(0.03 * f.count()));
  }

  @Test
  void growthFactorAndTighteningRatioShapeTheLayers() {
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .initialCapacity(50).fpp(0.05).growthFactor(4).tighteningRatio(0.5).build();
    addUntilCount(f, 50 + 200 + 800, 0);
    assertThat(f.layerCount()).isEqualTo(4).isEqualTo(expectedLayers(50, 4, f.count()));
    List<ScalableBloomFilter.LayerStats> layers = f.layerStats();
    for (int i = 0; i < 4; i++) {
      assertThat(layers.get(i).capacity()).isEqualTo(50L << (2 * i));
      assertThat(layers.get(i).fpp()).isCloseTo(0.05 * 0.5 * Math.pow(0.5, i), within(1e-15));
    }
    assertThat(f.growthFactor()).isEqualTo(4);
    assertThat(f.tighteningRatio()).isEqualTo(0.5);
    assertThat(f.maxBitSize()).isEqualTo(Long.MAX_VALUE);
    assertThat(f.layerType()).isEqualTo(FilterType.STANDARD);
    assertThat(f.toString()).contains("layers=4", "growthFactor=4", "tighteningRatio=0.5");
  }

  @Test
  void anItemInAnOlderLayerIsNotAddedAgain() {
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.create(Funnels.stringFunnel(), 10, 0.01);
    assertThat(f.add("first")).isTrue();
    addUntilCount(f, 100, 0);
    assertThat(f.layerCount()).isGreaterThan(2);
    List<ScalableBloomFilter.LayerStats> before = f.layerStats();
    assertThat(f.add("first")).isFalse();
    assertThat(f.layerStats()).isEqualTo(before);
    assertThat(f.mightContain("first")).isTrue();
  }

  @Test
  void rejectsBadParametersNamingTheValue() {
    for (int s : new int[] {1, 0, -3, 1025}) {
      assertThatThrownBy(() -> ScalableBloomFilter.builder(Funnels.stringFunnel()).growthFactor(s))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("growthFactor")
          .hasMessageContaining("was " + s);
    }
    for (double r : new double[] {0.0, 1.0, -0.1, 1.5, Double.NaN}) {
      assertThatThrownBy(() -> ScalableBloomFilter.builder(Funnels.stringFunnel()).tighteningRatio(r))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tighteningRatio")
          .hasMessageContaining("was " + r);
    }
    for (long cap : new long[] {0, -1}) {
      assertThatThrownBy(() -> ScalableBloomFilter.builder(Funnels.stringFunnel()).maxBitSize(cap))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBitSize")
          .hasMessageContaining("was " + cap);
    }
    assertThatThrownBy(() -> ScalableBloomFilter.create(Funnels.stringFunnel(), 0, 0.01))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialCapacity must be >= 1, was 0");
    assertThatThrownBy(() -> ScalableBloomFilter.builder(Funnels.stringFunnel()).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("initialCapacity");
    long firstLayerBits = ScalableBloomFilter.create(Funnels.stringFunnel(), 1000, 0.01).bitSize();
    assertThatThrownBy(() -> ScalableBloomFilter.builder(Funnels.stringFunnel()).initialCapacity(1000)
        .maxBitSize(firstLayerBits - 1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBitSize=" + (firstLayerBits - 1))
        .hasMessageContaining(firstLayerBits + " bits of the first layer");
    assertThatThrownBy(() -> ScalableBloomFilter.create(Funnels.stringFunnel(), Long.MAX_VALUE / 2, 0.01))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit of " + Sizing.MAX_BITS);
  }

  /**
   * A cap that admits exactly three layers. The add that fills the third takes its last slot and
   * returns normally with its item added; every later add of a new item throws and adds nothing, while
   * queries, re-adds of present items and clear keep working.
   */
  @Test
  void memoryCapRefusesGrowthAndTheRefusedItemIsNotAdded() {
    ScalableBloomFilter<CharSequence> uncapped = ScalableBloomFilter.create(Funnels.stringFunnel(), 100, 0.01);
    addUntilCount(uncapped, 700, 0); // fills layers 0, 1, 2 and adds layer 3
    List<ScalableBloomFilter.LayerStats> shapes = uncapped.layerStats();
    long cap = shapes.get(0).bitSize() + shapes.get(1).bitSize() + shapes.get(2).bitSize();
    long needed = cap + shapes.get(3).bitSize();

    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .initialCapacity(100).fpp(0.01).maxBitSize(cap).build();
    assertThat(f.maxBitSize()).isEqualTo(cap);
    int next = addUntilCount(f, 699, 0);
    String last;
    do {
      last = "item-" + next++;
    } while (!f.add(last)); // the add that takes the third layer's last slot
    assertThat(f.count()).isEqualTo(700);
    assertThat(f.mightContain(last)).isTrue();
    assertThat(f.layerCount()).isEqualTo(3);

    String refused = "refused-0";
    for (int i = 1; f.mightContain(refused); i++) {
      refused = "refused-" + i; // an item no layer reports, so that "not added" is observable
    }
    String item = refused;
    for (int attempt = 0; attempt < 2; attempt++) { // the refusal is final, not a one-off
      assertThatThrownBy(() -> f.add(item)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("maxBitSize=" + cap)
          .hasMessageContaining(needed + " in all")
          .hasMessageContaining("not added");
    }
    assertThat(f.mightContain(item)).isFalse();
    assertThat(f.count()).isEqualTo(700);
    assertThat(f.layerCount()).isEqualTo(3);
    assertThat(f.bitSize()).isEqualTo(cap);
    assertThat(f.add(last)).isFalse(); // present items need no room
    assertThat(f.mightContain("item-0")).isTrue();

    f.clear();
    assertThat(f.add(item)).isTrue();
    assertThat(f.layerCount()).isEqualTo(1);
  }

  @Test
  void clearStartsOverFromOneEmptyLayer() {
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.create(Funnels.stringFunnel(), 64, 0.01);
    long firstLayerBits = f.bitSize();
    addUntilCount(f, 64 * 31, 0);
    assertThat(f.layerCount()).isEqualTo(6);
    f.clear();
    assertThat(f.layerCount()).isEqualTo(1);
    assertThat(f.count()).isZero();
    assertThat(f.fillRatio()).isZero();
    assertThat(f.bitSize()).isEqualTo(firstLayerBits);
    assertThat(f.capacity()).isEqualTo(64);
    for (int i = 0; i < 64 * 31; i++) {
      assertThat(f.mightContain("item-" + i)).isFalse();
    }
    addUntilCount(f, 64 * 3, 0);
    assertThat(f.layerCount()).isEqualTo(3);
  }

  @Test
  void aCopyIsTheSameFilterAndThenIndependent() throws IOException {
    ScalableBloomFilter<CharSequence> original = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .initialCapacity(40).fpp(0.02).growthFactor(3).tighteningRatio(0.8).maxBitSize(1L << 24).build();
    int next = addUntilCount(original, 40 + 120 + 360 + 100, 0);
    ScalableBloomFilter<CharSequence> copy = original.copy();
    assertThat(bytes(copy)).as("same parameters, layers, bits and counts").isEqualTo(bytes(original));
    assertThat(copy.layerStats()).isEqualTo(original.layerStats());
    assertThat(copy.toString()).isEqualTo(original.toString());
    assertThat(copy.capacity()).isEqualTo(original.capacity());
    for (int i = 0; i < next; i++) {
      assertThat(copy.mightContain("item-" + i)).isTrue();
    }
    for (int i = 0; i < 20_000; i++) {
      assertThat(copy.mightContain("probe-" + i)).isEqualTo(original.mightContain("probe-" + i));
    }
    // Both grow on exactly alike: the copy's newest layer has the room the original's had.
    for (int i = next; i < next + 2_000; i++) {
      assertThat(copy.add("item-" + i)).isEqualTo(original.add("item-" + i));
    }
    assertThat(copy.layerCount()).isEqualTo(original.layerCount()).isEqualTo(5);
    assertThat(bytes(copy)).isEqualTo(bytes(original));
    // Independent: adds, growth and clear of one leave the other alone.
    byte[] before = bytes(original);
    addUntilCount(copy, 40 + 120 + 360 + 1080 + 3240, next + 2_000);
    assertThat(copy.layerCount()).isEqualTo(6);
    assertThat(bytes(original)).isEqualTo(before);
    original.clear();
    for (int i = 0; i < next; i++) {
      assertThat(copy.mightContain("item-" + i)).isTrue();
    }
    assertThat(copy.copy().layerStats()).isEqualTo(copy.layerStats());
  }

  @Test
  void aCopyWhoseNewestLayerIsFullGrowsOnItsFirstAdd() {
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.create(Funnels.stringFunnel(), 64, 0.01);
    int next = addUntilCount(f, 64 - 1, 0);
    ScalableBloomFilter<CharSequence> almost = f.copy();
    next = addUntilCount(f, 64, next); // takes the last slot: the original grows at once
    assertThat(f.layerCount()).isEqualTo(2);
    assertThat(almost.layerCount()).isEqualTo(1);
    assertThat(almost.add("item-" + (next - 1))).isTrue();
    assertThat(almost.layerCount()).as("the copy grows as its last slot goes").isEqualTo(2);
    // A copy taken of the grown original has two layers; one of a full layer that has not grown
    // (possible only while a builder runs) is covered by the concurrent test.
    ScalableBloomFilter<CharSequence> capped = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .initialCapacity(64).maxBitSize(f.layerStats().get(0).bitSize()).build();
    addUntilCount(capped, 64, 0);
    ScalableBloomFilter<CharSequence> cappedCopy = capped.copy();
    assertThat(cappedCopy.layerCount()).isEqualTo(1);
    assertThat(cappedCopy.count()).isEqualTo(64);
    int absent = 0;
    while (cappedCopy.mightContain("absent-" + absent)) {
      absent++;
    }
    String item = "absent-" + absent;
    assertThatThrownBy(() -> cappedCopy.add(item)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot grow past maxBitSize=").hasMessageContaining("the item was not added");
    assertThat(cappedCopy.mightContain(item)).isFalse();
    assertThat(cappedCopy.mightContain("item-0")).isTrue();
  }

  @Test
  void aLoadedFilterAnswersAndGrowsOnExactlyAsTheOriginal() throws IOException {
    ScalableBloomFilter<CharSequence> original = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .initialCapacity(40).fpp(0.02).growthFactor(3).tighteningRatio(0.8).maxBitSize(1L << 24).build();
    int next = addUntilCount(original, 40 + 120 + 360 + 100, 0);
    ScalableBloomFilter<CharSequence> loaded = read(bytes(original));
    assertThat(loaded.layerStats()).isEqualTo(original.layerStats());
    assertThat(loaded.toString()).isEqualTo(original.toString());
    assertThat(loaded.maxBitSize()).isEqualTo(1L << 24);
    for (int i = next; i < next + 2_000; i++) {
      assertThat(loaded.add("item-" + i)).isEqualTo(original.add("item-" + i));
    }
    assertThat(loaded.layerCount()).isEqualTo(original.layerCount()).isEqualTo(5);
    assertThat(bytes(loaded)).isEqualTo(bytes(original));
    for (int i = 0; i < 20_000; i++) {
      assertThat(loaded.mightContain("probe-" + i)).isEqualTo(original.mightContain("probe-" + i));
    }
  }

  @Test
  void blockedLayersRoundTrip() throws IOException {
    ScalableBloomFilter<CharSequence> f = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .initialCapacity(100).blocked().build();
    addUntilCount(f, 1_000, 0);
    assertThat(f.layerType()).isEqualTo(FilterType.BLOCKED);
    ScalableBloomFilter<CharSequence> loaded = read(bytes(f));
    assertThat(loaded.layerType()).isEqualTo(FilterType.BLOCKED);
    assertThat(loaded.layerStats()).isEqualTo(f.layerStats());
    for (int i = 0; i < 1_200; i++) {
      assertThat(loaded.mightContain("item-" + i)).isEqualTo(f.mightContain("item-" + i));
    }
  }

  /**
   * A file whose newest layer is full and whose cap no longer forbids the next one (here: a capped
   * filter's file with the cap removed). Nobody took the layer's last slot in this process, so the
   * first add that finds no room must claim the growth itself.
   */
  @Test
  void aLoadedFullNewestLayerGrowsOnTheFirstAddThatNeedsRoom() throws IOException {
    ScalableBloomFilter<CharSequence> capped = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .initialCapacity(100).maxBitSize(2_000).build();
    assertThat(capped.bitSize()).isLessThanOrEqualTo(2_000);
    int next = addUntilCount(capped, 100, 0);
    assertThat(capped.layerCount()).isEqualTo(1);
    byte[] file = bytes(capped);
    ByteBuffer.wrap(file).putLong(36, 0); // the cap field: none
    ScalableBloomFilter<CharSequence> loaded = read(FilterFormatRejectionTest.withFixedCrc(file));
    assertThat(loaded.maxBitSize()).isEqualTo(Long.MAX_VALUE);
    assertThat(loaded.layerCount()).isEqualTo(1);
    String item;
    do {
      item = "item-" + next++;
    } while (loaded.mightContain(item));
    assertThat(loaded.add(item)).isTrue();
    assertThat(loaded.layerCount()).isEqualTo(2);
    assertThat(loaded.layerStats().get(1).count()).isEqualTo(1);
    assertThat(loaded.mightContain(item)).isTrue();
  }

  @Test
  void eachReaderRejectsTheOtherTypeAndNamesTheRightReader() throws IOException {
    ScalableBloomFilter<CharSequence> scalable = ScalableBloomFilter.create(Funnels.stringFunnel(), 10, 0.01);
    assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(bytes(scalable)), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("filter type 5")
        .hasMessageContaining("ScalableBloomFilter.readFrom");
    BloomFilter<CharSequence> standard = BloomFilter.create(Funnels.stringFunnel(), 10, 0.01);
    assertThatThrownBy(() -> read(bytes(standard)))
        .isInstanceOf(IOException.class).hasMessageContaining("filter type 1")
        .hasMessageContaining("BloomFilter.readFrom");
  }
}
