package org.concurrentbloom;

import java.util.function.IntFunction;

/**
 * The layers a {@link ScalableBloomFilter} grows through: layer i holds n0·s^i items at false-positive
 * rate p·(1−r)·r^i (Almeida et al. 2007), so the rates of all layers that can ever exist sum to
 * p·(1−r)·(1 + r + r^2 + ...) = p. Immutable; any thread may call any method.
 *
 * <p>Layer rates are computed by repeated multiplication, never {@code Math.pow}, so every JVM derives
 * bit-identical rates from the same (p, r); the file reader relies on that to check stored layers.
 */
final class LayerPlan {
  /** The largest growth factor accepted: beyond it layers would outgrow memory after a step or two. */
  static final int MAX_GROWTH_FACTOR = 1024;
  /** Means "no memory cap" in {@link #maxBits}. */
  static final long NO_CAP = Long.MAX_VALUE;

  final long initialCapacity;
  final double fpp;
  final int growthFactor;
  final double tighteningRatio;
  /** The type of every layer: {@link FilterType#STANDARD} or {@link FilterType#BLOCKED}. */
  final FilterType layerType;
  /** The hash strategy of every layer, one that {@link #layerType} admits. */
  final HashStrategy layerStrategy;
  /** The most bits all layers together may take; {@link #NO_CAP} for none. */
  final long maxBits;
  /** Tests only: the layout of layer i instead of the sized one; null in production. */
  private final IntFunction<Layout> layoutOverride;

  /** A plan whose layers have {@code layerType}'s default strategy. */
  LayerPlan(long initialCapacity, double fpp, int growthFactor, double tighteningRatio, FilterType layerType,
      long maxBits, IntFunction<Layout> layoutOverride) {
    this(initialCapacity, fpp, growthFactor, tighteningRatio, layerType, layerType.layerStrategy(), maxBits,
        layoutOverride);
  }

  LayerPlan(long initialCapacity, double fpp, int growthFactor, double tighteningRatio, FilterType layerType,
      HashStrategy layerStrategy, long maxBits, IntFunction<Layout> layoutOverride) {
    checkInitialCapacity(initialCapacity);
    Sizing.checkFpp(fpp);
    checkGrowthFactor(growthFactor);
    checkTighteningRatio(tighteningRatio);
    checkMaxBits(maxBits);
    this.initialCapacity = initialCapacity;
    this.fpp = fpp;
    this.growthFactor = growthFactor;
    this.tighteningRatio = tighteningRatio;
    if (!layerType.isScalableLayer()) {
      throw new IllegalArgumentException("a scalable filter's layers cannot be " + layerType.shortName());
    }
    this.layerType = layerType;
    this.layerStrategy = layerType.requireAdmitted(layerStrategy);
    this.maxBits = maxBits;
    this.layoutOverride = layoutOverride;
  }

  static void checkInitialCapacity(long n0) {
    if (n0 < 1) {
      throw new IllegalArgumentException("initialCapacity must be >= 1, was " + n0);
    }
  }

  static void checkGrowthFactor(int s) {
    if (s < 2 || s > MAX_GROWTH_FACTOR) {
      throw new IllegalArgumentException("growthFactor must be in [2, " + MAX_GROWTH_FACTOR + "], was " + s);
    }
  }

  static void checkTighteningRatio(double r) {
    if (!(r > 0.0 && r < 1.0)) { // also rejects NaN
      throw new IllegalArgumentException("tighteningRatio must be in the open interval (0, 1), was " + r);
    }
  }

  static void checkMaxBits(long maxBits) {
    if (maxBits < 1) {
      throw new IllegalArgumentException("maxBitSize must be >= 1, was " + maxBits);
    }
  }

  /** n0·s^i, the items layer i holds at its target rate; -1 if that exceeds {@code Long.MAX_VALUE}. */
  long capacity(int i) {
    long n = initialCapacity;
    for (int j = 0; j < i; j++) {
      if (n > Long.MAX_VALUE / growthFactor) {
        return -1;
      }
      n *= growthFactor;
    }
    return n;
  }

  /** p·(1−r)·r^i, the target rate of layer i (0 once it underflows). */
  double fpp(int i) {
    double p = fpp * (1 - tighteningRatio);
    for (int j = 0; j < i; j++) {
      p *= tighteningRatio;
    }
    return p;
  }

  /**
   * The shape of layer i, allocating nothing.
   *
   * @throws IllegalArgumentException if layer i cannot exist: its capacity overflows, its rate
   *     underflows to 0, or it would pass the size limit of one filter; the message says which
   */
  Layout layout(int i) {
    if (layoutOverride != null) {
      return layoutOverride.apply(i);
    }
    long n = capacity(i);
    if (n < 0) {
      throw new IllegalArgumentException("layer " + i + " would hold " + initialCapacity + "·" + growthFactor
          + "^" + i + " items, more than " + Long.MAX_VALUE);
    }
    double p = fpp(i);
    if (p == 0) {
      throw new IllegalArgumentException("the rate of layer " + i + ", " + fpp + "·(1−" + tighteningRatio + ")·"
          + tighteningRatio + "^" + i + ", underflows to 0");
    }
    return layerType.sizedLayout(n, p, layerStrategy);
  }

  /** An empty layer i of this shape. */
  <T> BloomFilter<T> newLayer(Funnel<? super T> funnel, int i, Layout layout) {
    return BloomFilter.emptyLayer(funnel, layout, capacity(i), fpp(i));
  }
}
