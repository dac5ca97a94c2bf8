package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One layer of a {@link ScalableBloomFilter}: a {@link BloomFilter} sized for its capacity and rate,
 * the {@link SlotBudget} adds take room from, and the current attempt at growing past it. Any thread
 * may call any method.
 */
final class ScalableLayer<T> {
  private static final VarHandle GROWTH;

  static {
    try {
      GROWTH = MethodHandles.lookup().findVarHandle(ScalableLayer.class, "growth", LayerGrowth.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final BloomFilter<T> filter;
  final SlotBudget budget;
  @SuppressWarnings("unused") // accessed through GROWTH
  private volatile LayerGrowth growth = new LayerGrowth();

  ScalableLayer(BloomFilter<T> filter, SlotBudget budget) {
    this.filter = filter;
    this.budget = budget;
  }

  /** The current attempt at adding the next layer (volatile read). */
  LayerGrowth growthVolatile() {
    return (LayerGrowth) GROWTH.getVolatile(this);
  }

  /** Replaces an attempt whose builder threw with a fresh one; a no-op if another thread already did. */
  void casFreshGrowth(LayerGrowth failed) {
    GROWTH.compareAndSet(this, failed, new LayerGrowth());
  }
}
