package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Mutation fuzzing of the type 5 reader: every mutant of a valid four-layer file must load into a
 * filter that keeps the invariants, or fail with an IOException; any other exception or error fails.
 * Half the mutants get every CRC (each layer's and the overall one) recomputed where the structure
 * still parses, so that the checks behind the checksums are reached. The valid files have standard
 * layers of strategy 1 and of strategy 4 (the default) and blocked layers of strategy 2 and of 5.
 */
class ScalableFormatFuzzTest {
  private static final int CASES = 10_000;
  private static final int ITEMS = 120; // layers of 10, 20, 40 full and 50 of 80 in the fourth
  /** Header fields of the scalable header, and of a layer record relative to its start. */
  private static final int[] HEADER_LONGS = {8, 16, 28, 36};
  private static final int[] HEADER_INTS = {24, 44};
  private static final int[] LAYER_LONGS = {8, 20, 28, 36, 44};

  @Test
  void everyMutantLoadsSoundlyOrThrowsIOException() throws IOException {
    HashStrategy[] strategies = {HashStrategy.MURMUR3_128_ENHANCED_DOUBLE, HashStrategy.XXH3_64_ENHANCED_DOUBLE,
        HashStrategy.MURMUR3_128_BLOCKED, HashStrategy.XXH3_64_BLOCKED};
    List<ScalableBloomFilter<CharSequence>> originals = new ArrayList<>();
    List<byte[]> valids = new ArrayList<>();
    for (int s = 0; s < strategies.length; s++) {
      ScalableBloomFilter.Builder<CharSequence> b = ScalableBloomFilter.<CharSequence>builder(Funnels.stringFunnel())
          .initialCapacity(10).fpp(0.05).maxBitSize(1 << 20).hashStrategy(strategies[s]);
      ScalableBloomFilter<CharSequence> original = (s < 2 ? b : b.blocked()).build();
      for (int i = 0; i < ITEMS; i++) {
        original.add("k" + i);
      }
      assertThat(original.layerCount()).isEqualTo(4);
      originals.add(original);
      valids.add(ScalableBloomFilterTest.bytes(original));
      assertThat(valids.get(s)[6]).isEqualTo((byte) strategies[s].id());
    }

    SplittableRandom random = new SplittableRandom(7);
    int loaded = 0;
    for (int i = 0; i < CASES; i++) {
      byte[] valid = valids.get(i % valids.size());
      ScalableBloomFilter<CharSequence> original = originals.get(i % originals.size());
      byte[] mutant = mutate(valid, random);
      if (random.nextBoolean()) {
        fixCrcs(mutant);
      }
      ScalableBloomFilter<CharSequence> f;
      try {
        f = ScalableBloomFilterTest.read(mutant);
      } catch (IOException expected) {
        continue;
      } catch (RuntimeException | Error e) {
        fail("case " + i + " threw " + e + " for " + HexFormat.of().formatHex(mutant));
        return;
      }
      loaded++;
      checkInvariants(f, mutant, valid, original);
    }
    assertThat(loaded).as("mutants that loaded").isPositive().isLessThan(CASES / 2);
  }

  private static void checkInvariants(ScalableBloomFilter<CharSequence> f, byte[] mutant, byte[] valid,
      ScalableBloomFilter<CharSequence> original) throws IOException {
    assertThat(f.layerCount()).isBetween(1, ScalableFormat.MAX_LAYERS);
    assertThat(f.fppBound()).isLessThanOrEqualTo(f.fpp());
    assertThat(f.bitSize()).isLessThanOrEqualTo(f.maxBitSize());
    for (ScalableBloomFilter.LayerStats layer : f.layerStats()) {
      assertThat(layer.count()).isBetween(0L, layer.capacity());
    }
    assertThat(f.fillRatio()).isBetween(0.0, 1.0);
    // A file that loads is exactly what its bytes say: writing it back reproduces them (bytes after
    // the overall CRC belong to whatever follows in the stream).
    byte[] rewritten = ScalableBloomFilterTest.bytes(f);
    assertThat(rewritten.length).isLessThanOrEqualTo(mutant.length);
    assertThat(Arrays.copyOf(mutant, rewritten.length)).isEqualTo(rewritten);
    // Unchanged bytes up to the end of the valid file: the same filter, answering as the original.
    if (Arrays.equals(mutant, 0, valid.length, valid, 0, valid.length)) {
      for (int i = 0; i < 2 * ITEMS; i++) {
        assertThat(f.mightContain("k" + i)).isEqualTo(original.mightContain("k" + i));
      }
    }
    try {
      f.add("new item");
      assertThat(f.mightContain("new item")).isTrue();
    } catch (IllegalStateException capReached) {
      assertThat(capReached).hasMessageContaining("not added");
    }
  }

  /**
   * Half the time one of {@link FilterFormatFuzzTest#mutate}'s generic mutations (bit flips, a random
   * byte, truncation, garbage appended, a deleted byte, boundary values at fixed offsets); otherwise a
   * boundary value in a field of the scalable header or of one layer's header, or another hash strategy
   * (0 to 6) in the scalable header or in one layer.
   */
  private static byte[] mutate(byte[] valid, SplittableRandom random) {
    if (random.nextBoolean()) {
      return FilterFormatFuzzTest.mutate(valid, random);
    }
    byte[] b = valid.clone();
    ByteBuffer view = ByteBuffer.wrap(b);
    long[] values = {0, 1, -1, 2, 3, 63, 64, 65, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE,
        Sizing.MAX_BITS, 1L << 40, Double.doubleToLongBits(0.5), Double.doubleToLongBits(1e-300)};
    switch (random.nextInt(4)) {
      case 0:
        view.putLong(HEADER_LONGS[random.nextInt(HEADER_LONGS.length)], values[random.nextInt(values.length)]);
        return b;
      case 1: // the growth factor or the layer count
        view.putInt(HEADER_INTS[random.nextInt(HEADER_INTS.length)], random.nextInt(-3, 70));
        return b;
      case 2: { // the hash strategy of the header (the layers') or of one layer
        int at = random.nextBoolean() ? 0 : layerOffset(b, random.nextInt(4));
        if (at >= 0) {
          b[at + 6] = (byte) random.nextInt(7);
        }
        return b;
      }
      default:
        int layer = layerOffset(b, random.nextInt(4));
        if (layer >= 0) {
          view.putLong(layer + LAYER_LONGS[random.nextInt(LAYER_LONGS.length)], values[random.nextInt(values.length)]);
        }
        return b;
    }
  }

  /** Where layer {@code index}'s record starts, following the payload lengths; -1 if out of the bytes. */
  private static int layerOffset(byte[] b, int index) {
    long offset = ScalableFormat.HEADER_BYTES;
    for (int i = 0; i < index; i++) {
      if (offset + FilterFormat.HEADER_BYTES > b.length) {
        return -1;
      }
      long payload = ByteBuffer.wrap(b).getLong((int) offset + 44);
      if (payload < 0 || payload > b.length) {
        return -1;
      }
      offset += FilterFormat.HEADER_BYTES + payload + FilterFormat.TRAILER_BYTES;
    }
    return offset + FilterFormat.HEADER_BYTES <= b.length ? (int) offset : -1;
  }

  /** Recomputes each layer's CRC and the overall CRC, as far as the structure stays inside the bytes. */
  private static void fixCrcs(byte[] b) {
    if (b.length < ScalableFormat.HEADER_BYTES) {
      return;
    }
    int layers = Math.min(ScalableFormat.MAX_LAYERS, Math.max(0, ByteBuffer.wrap(b).getInt(44)));
    long end = ScalableFormat.HEADER_BYTES;
    for (int i = 0; i < layers; i++) {
      int start = layerOffset(b, i);
      if (start < 0) {
        return;
      }
      long payload = ByteBuffer.wrap(b).getLong(start + 44);
      long crcAt = start + FilterFormat.HEADER_BYTES + payload;
      if (payload < 0 || crcAt + FilterFormat.TRAILER_BYTES > b.length) {
        return;
      }
      putCrc(b, start, (int) crcAt);
      end = crcAt + FilterFormat.TRAILER_BYTES;
    }
    if (end + FilterFormat.TRAILER_BYTES <= b.length) {
      putCrc(b, 0, (int) end);
    }
  }

  private static void putCrc(byte[] b, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(b, from, to - from);
    ByteBuffer.wrap(b).putInt(to, (int) crc.getValue());
  }
}
