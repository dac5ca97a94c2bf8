package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * Reads and writes filter type 5, a {@link ScalableBloomFilter}, in format version 2, and reads version
 * 1. docs/FORMAT.md documents it byte by byte and ScalableFormatTest freezes it.
 *
 * <pre>
 * offset size  field (big-endian)
 *  0      4    magic "CBLM"
 *  4      1    format version (2; 1 is read too)
 *  5      1    filter type (5 = scalable)
 *  6      1    the layers' hash strategy: 1 or 4 (every layer is type 1, standard), 2 or 5 (type 2, blocked)
 *  7      1    version 2: key type, as in every record (see FilterFormat); version 1: reserved flags, 0
 *  8      8    n0, initial capacity
 * 16      8    p, target compound false-positive probability (IEEE 754 binary64)
 * 24      4    s, growth factor
 * 28      8    r, tightening ratio (IEEE 754 binary64)
 * 36      8    memory cap in bits over all layers; 0 = none (Long.MAX_VALUE is rejected: not canonical)
 * 44      4    L, layer count
 * 48      ...  L layer records, oldest first, each a complete type 1 or 2 filter as FilterFormat writes it
 * end     4    CRC32C of every byte before it, the layer records included
 * </pre>
 *
 * <p>The reader checks each layer against the parameters: layer i must declare n = n0·s^i and exactly
 * p·(1−r)·r^i (as {@link LayerPlan} computes it), a count no larger than n, and the header's key type
 * (so a version 1 file has version 1 layers and a version 2 file version 2 layers). Hostile sizes cannot
 * exhaust memory: L is at most {@link #MAX_LAYERS} and each layer's words are read by
 * {@link FilterFormat#read}, which allocates only as bytes arrive.
 */
final class ScalableFormat {
  static final int HEADER_BYTES = 48;
  /** n0 ≥ 1 and s ≥ 2 make layer 63's capacity overflow a long, so no valid filter has more layers. */
  static final int MAX_LAYERS = 64;

  private ScalableFormat() {}

  /** What a type 5 file holds: the growth parameters and each layer's record, checked against them. */
  record Loaded(LayerPlan plan, KeyType keyType, List<FilterFormat.Loaded> layers) {}

  static void write(OutputStream out, LayerPlan plan, KeyType keyType, ScalableLayer<?>[] layers)
      throws IOException {
    CheckedOutputStream checked = new CheckedOutputStream(out, new CRC32C());
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES)
        .putInt(FilterFormat.MAGIC)
        .put((byte) FilterFormat.VERSION)
        .put((byte) FilterType.SCALABLE.id())
        .put((byte) plan.layerStrategy.id())
        .put((byte) FilterFormat.writtenKeyType(keyType))
        .putLong(plan.initialCapacity)
        .putDouble(plan.fpp)
        .putInt(plan.growthFactor)
        .putDouble(plan.tighteningRatio)
        .putLong(plan.maxBits == LayerPlan.NO_CAP ? 0 : plan.maxBits)
        .putInt(layers.length);
    checked.write(header.array());
    for (ScalableLayer<?> layer : layers) {
      layer.filter.writeTo(checked);
    }
    out.write(ByteBuffer.allocate(FilterFormat.TRAILER_BYTES).putInt((int) checked.getChecksum().getValue()).array());
  }

  static Loaded read(InputStream in) throws IOException {
    CheckedInputStream checked = new CheckedInputStream(in, new CRC32C());
    byte[] headerBytes = FilterFormat.readHeaderBytes(checked, HEADER_BYTES, "scalable filter header");
    ByteBuffer b = ByteBuffer.wrap(headerBytes);
    int version = FilterFormat.readVersion(b);
    FilterType type = FilterFormat.readType(b);
    if (type != FilterType.SCALABLE) {
      throw new IOException("filter type " + type.id() + " is not a scalable filter (type "
          + FilterType.SCALABLE.id() + "); read it with " + type.reader());
    }
    int strategy = b.get() & 0xFF;
    HashStrategy known = FilterFormat.readableStrategy(strategy);
    FilterType layerType = known == null ? null : FilterType.ofLayerStrategy(known);
    if (layerType == null) {
      throw new IOException("unknown layer hash strategy " + strategy + " for a scalable filter; expected "
          + layerStrategies());
    }
    KeyType keyType = FilterFormat.readKeyType(b, version);
    long initialCapacity = b.getLong();
    double fpp = b.getDouble();
    int growthFactor = b.getInt();
    double tighteningRatio = b.getDouble();
    long cap = b.getLong();
    int layerCount = b.getInt();
    if (cap == LayerPlan.NO_CAP) { // the writer writes 0 for "none"; accepting both would not round-trip
      throw new IOException("invalid scalable filter header: memory cap " + cap + " must be written as 0 (none)");
    }
    LayerPlan plan;
    try {
      plan = new LayerPlan(initialCapacity, fpp, growthFactor, tighteningRatio, layerType, known,
          cap == 0 ? LayerPlan.NO_CAP : cap, null);
    } catch (IllegalArgumentException e) {
      throw new IOException("invalid scalable filter header: " + e.getMessage(), e);
    }
    if (layerCount < 1 || layerCount > MAX_LAYERS) {
      throw new IOException("invalid scalable filter header: layer count must be in [1, " + MAX_LAYERS
          + "], was " + layerCount);
    }

    List<FilterFormat.Loaded> layers = new ArrayList<>();
    long totalBits = 0;
    for (int i = 0; i < layerCount; i++) {
      FilterFormat.Loaded layer;
      try {
        layer = FilterFormat.read(checked, false);
      } catch (IOException e) {
        throw new IOException("layer " + i + " of " + layerCount + ": " + e.getMessage(), e);
      }
      checkLayer(plan, keyType, i, layer.header());
      totalBits += layer.header().bits();
      layers.add(layer);
    }
    if (totalBits > plan.maxBits) {
      throw new IOException("the layers take " + totalBits + " bits, above the filter's cap of " + plan.maxBits);
    }

    FilterFormat.checkTrailer(in, (int) checked.getChecksum().getValue());
    return new Loaded(plan, keyType, List.copyOf(layers));
  }

  private static void checkLayer(LayerPlan plan, KeyType keyType, int i, FilterFormat.Header h)
      throws IOException {
    if (h.keyType() != keyType) {
      throw new IOException("layer " + i + " records key type " + h.keyType() + ", but the header says "
          + keyType);
    }
    if (h.type() != plan.layerType) {
      throw new IOException("layer " + i + " is filter type " + h.type().id()
          + ", but the header says every layer is type " + plan.layerType.id());
    }
    if (h.strategy() != plan.layerStrategy) {
      throw new IOException("layer " + i + " has hash strategy " + h.strategy().id()
          + ", but the header says every layer has strategy " + plan.layerStrategy.id());
    }
    long capacity = plan.capacity(i);
    if (h.expectedInsertions() != capacity) {
      throw new IOException("layer " + i + " declares capacity " + h.expectedInsertions() + ", but n0·s^i = "
          + (capacity < 0 ? "more than " + Long.MAX_VALUE : Long.toString(capacity)));
    }
    double fpp = plan.fpp(i);
    if (Double.compare(h.fpp(), fpp) != 0) {
      throw new IOException("layer " + i + " declares fpp " + h.fpp() + ", but p·(1−r)·r^i = " + fpp);
    }
    if (h.count() > capacity) {
      throw new IOException("layer " + i + " has count " + h.count() + ", above its capacity " + capacity);
    }
  }

  /** "4 (XXH3_64_ENHANCED_DOUBLE) or 1 (...) for standard layers, or 5 (...) or 2 (...) for blocked layers". */
  private static String layerStrategies() {
    StringBuilder s = new StringBuilder();
    for (FilterType t : FilterType.values()) {
      if (t.isScalableLayer()) {
        s.append(s.length() == 0 ? "" : ", or ").append(t.strategyList()).append(" for ").append(t.shortName())
            .append(" layers");
      }
    }
    return s.toString();
  }
}
