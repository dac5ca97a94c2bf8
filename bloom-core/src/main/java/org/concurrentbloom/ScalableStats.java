package org.concurrentbloom;

import java.util.ArrayList;
import java.util.List;

/**
 * The statistics of a {@link ScalableBloomFilter}, each computed over one array of layers that the
 * caller read once, so that a statistic never mixes two generations. Stateless; any thread may call any
 * method.
 */
final class ScalableStats {
  private ScalableStats() {}

  static long bitSize(ScalableLayer<?>[] layers) {
    long bits = 0;
    for (ScalableLayer<?> layer : layers) {
      bits += layer.filter.bitSize();
    }
    return bits;
  }

  static long capacity(ScalableLayer<?>[] layers) {
    long n = 0;
    for (ScalableLayer<?> layer : layers) {
      n += layer.budget.capacity();
    }
    return n;
  }

  /** The union bound: the sum of the layers' target rates. */
  static double fppBound(ScalableLayer<?>[] layers) {
    double sum = 0;
    for (ScalableLayer<?> layer : layers) {
      sum += layer.filter.fpp();
    }
    return sum;
  }

  /** 1 − prod(1 − f_i) over the layers' estimates, as if their false positives were independent. */
  static double estimatedFpp(ScalableLayer<?>[] layers) {
    double allNegative = 1;
    for (ScalableLayer<?> layer : layers) {
      allNegative *= 1 - layer.filter.estimatedFpp();
    }
    return 1 - allNegative;
  }

  static long count(ScalableLayer<?>[] layers) {
    long n = 0;
    for (ScalableLayer<?> layer : layers) {
      n += layer.filter.count();
    }
    return n;
  }

  static double fillRatio(ScalableLayer<?>[] layers) {
    long set = 0;
    for (ScalableLayer<?> layer : layers) {
      set += layer.filter.setBits();
    }
    return (double) set / bitSize(layers);
  }

  /** The layers hold different items, so their estimates add; saturated if any layer is. */
  static long approximateElementCount(ScalableLayer<?>[] layers) {
    long n = 0;
    for (ScalableLayer<?> layer : layers) {
      long layerCount = layer.filter.approximateElementCount();
      if (layerCount == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      n += layerCount;
    }
    return n;
  }

  static List<ScalableBloomFilter.LayerStats> layerStats(ScalableLayer<?>[] layers) {
    List<ScalableBloomFilter.LayerStats> stats = new ArrayList<>();
    for (ScalableLayer<?> layer : layers) {
      BloomFilter<?> f = layer.filter;
      stats.add(new ScalableBloomFilter.LayerStats(layer.budget.capacity(), f.fpp(), f.bitSize(), f.hashFunctions(),
          f.count(), f.estimatedFpp()));
    }
    return List.copyOf(stats);
  }
}
