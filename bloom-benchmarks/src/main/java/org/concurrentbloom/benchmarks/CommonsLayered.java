package org.concurrentbloom.benchmarks;

import java.util.function.Predicate;
import org.apache.commons.collections4.bloomfilter.LayerManager;
import org.apache.commons.collections4.bloomfilter.LayeredBloomFilter;
import org.apache.commons.collections4.bloomfilter.Shape;
import org.apache.commons.collections4.bloomfilter.SimpleBloomFilter;

/**
 * Apache Commons Collections 4.6's {@code LayeredBloomFilter} (added in 4.5) set up as the same sliding
 * window as {@link OursExpiring}: G layers of {@code SimpleBloomFilter}, each shaped by
 * {@code Shape.fromNP(⌈n/(G − 1)⌉, p_g)} with ours' per-generation rate p_g. Its {@code LayerManager}
 * advances on time: the extend check, which the manager runs on every merge, reads the same kind of
 * {@link ManualClock} and says "advance" once per new slot; the manager's {@code next()} then runs the
 * cleanup ({@code Cleanup.removeEmptyTarget()} and {@code Cleanup.onMaxSize(G − 1)}, which drops the
 * oldest layer) and adds a fresh, newly allocated target, so G layers remain.
 *
 * <p>Keys are hashed as {@link CommonsFilter} does (a 128-bit MurmurHash3 into an
 * {@code EnhancedDoubleHasher}). Two lookups: {@link #mightContain} asks each layer in turn
 * ({@code processBloomFilters} with {@code contains(Hasher)}, stopping at the first that has the key), the
 * quick way; {@link #mightContainWhole} calls {@code LayeredBloomFilter.contains(Hasher)}, which builds a
 * {@code SimpleBloomFilter} of the whole shape for the key and compares it with every layer's bit map.
 *
 * <p>Not thread-safe (the layer list is a plain {@code Deque}, the bit maps plain
 * {@code long[]}s): measured with one thread only.
 */
final class CommonsLayered implements ExpiringUnderTest {
  private final ManualClock clock = new ManualClock();
  private final Shape shape;
  private final LayeredBloomFilter<SimpleBloomFilter> filter;
  private final boolean whole;

  CommonsLayered(long n, double fpp, boolean whole) {
    this.whole = whole;
    shape = Shape.fromNP(ExpiringWindow.perSlot(n), ExpiringWindow.generationFpp(fpp));
    LayerManager<SimpleBloomFilter> manager = LayerManager.<SimpleBloomFilter>builder()
        .setSupplier(() -> new SimpleBloomFilter(shape))
        .setExtendCheck(new OnNewSlot(clock))
        .setCleanup(LayerManager.Cleanup.<SimpleBloomFilter>removeEmptyTarget()
            .andThen(LayerManager.Cleanup.onMaxSize(ExpiringWindow.GENERATIONS - 1)))
        .get();
    filter = new LayeredBloomFilter<>(shape, manager);
  }

  /** Each layer's shape. */
  Shape shape() {
    return shape;
  }

  @Override
  public boolean add(Object key) {
    return filter.merge(CommonsFilter.hasher(key));
  }

  @Override
  public boolean mightContain(Object key) {
    return whole ? mightContainWhole(key) : anyLayerHas(key);
  }

  private boolean anyLayerHas(Object key) {
    var hasher = CommonsFilter.hasher(key);
    return !filter.processBloomFilters(layer -> !layer.contains(hasher));
  }

  /** Commons' own lookup of a layered filter. */
  boolean mightContainWhole(Object key) {
    return filter.contains(CommonsFilter.hasher(key));
  }

  @Override
  public void advanceSlot() {
    clock.advance(ExpiringWindow.SLOT_MILLIS);
  }

  @Override
  public long bitSize() {
    return (long) ExpiringWindow.GENERATIONS * shape.getNumberOfBits();
  }

  @Override
  public int depth() {
    return filter.getDepth();
  }

  /** The extend check: true once per slot begun, read from the clock, as ours decides its steps. */
  private static final class OnNewSlot implements Predicate<LayerManager<SimpleBloomFilter>> {
    private final ManualClock clock;
    private long nextSlotStart;

    OnNewSlot(ManualClock clock) {
      this.clock = clock;
      this.nextSlotStart = clock.millis() + ExpiringWindow.SLOT_MILLIS;
    }

    @Override
    public boolean test(LayerManager<SimpleBloomFilter> manager) {
      long now = clock.millis();
      if (now < nextSlotStart) {
        return false;
      }
      nextSlotStart += (now - nextSlotStart) / ExpiringWindow.SLOT_MILLIS * ExpiringWindow.SLOT_MILLIS
          + ExpiringWindow.SLOT_MILLIS;
      return true;
    }
  }
}
