package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

/**
 * The current layers of a {@link ScalableBloomFilter} and how adds grow them: the immutable array the
 * filter answers from, replaced by a CAS when a layer is added and by a volatile write on clear.
 *
 * <p>Any thread may call any method.
 */
final class ScalableLayers<T> {
  /*
   * Growth. Only the newest layer takes adds, and only as many as its capacity: each add of a new item
   * first takes a slot from the layer's SlotBudget (a striped counter, so that adds on different cores
   * rarely touch one cache line), then sets its bits. The one add that takes the last slot claims the
   * layer's LayerGrowth and builds and publishes the next layer; adds that find no slot wait for that
   * attempt (or claim it themselves if nobody has, which happens after loading a file or copying a
   * filter whose newest layer is full), then retry on the new array.
   *
   * Why wait instead of letting others keep adding to the full layer. The builder's cost is zeroing
   * m_{i+1}/8 bytes, about 4 bytes per item of the full layer at p = 1%, roughly a nanosecond per item
   * (an estimate, not a measurement). Adds at some 50 to 100 ns each from T − 1 other threads would
   * meanwhile overfill the layer by a fraction d of about (T − 1)·1 to 2%, and a filter at its optimal
   * k has d(ln fpr)/d(ln n) = k ln 2, so the layer's rate would rise by about k·ln 2·d: some 10% per
   * extra thread at k = 10, enough to break the bound with a handful of threads. Waiting keeps every
   * layer at or below its capacity, so the bound holds exactly; the price is that adds stall for one
   * allocation per boundary (boundaries get rarer as the layers grow).
   *
   * No lost insert. An add puts its bits into a layer of the array it read; within one generation
   * (between clears) arrays only gain layers and every layer keeps its bits, so every query that reads
   * the array later asks that layer. An add that read an array a clear has since replaced is ordered
   * before the clear, exactly like an add that overlaps BloomFilter.clear(): its item is cleared. The
   * growth CAS expects the array the full layer belonged to, so a layer built for a cleared generation
   * is dropped, never grafted onto the new one.
   *
   * Exactly one layer per boundary. A layer's growth is built only by the thread that claims its
   * current LayerGrowth (a CAS), and an attempt is replaced only after its builder threw; the publishing
   * CAS can succeed only once per array. A memory cap or size limit refuses growth for good: the adds
   * that need room then throw IllegalStateException without adding their item, while the add that took
   * the last slot has already added its own and returns normally.
   *
   * Copy. An add that finished had set its bits in a layer of the array current then, and every later
   * array of the generation holds that layer; so a copy reads the array once and copies each layer's
   * words after that. Each copied budget is read after its words: every add whose bits were copied took
   * its slot before setting them, so the copy counts at least as many slots as its layer holds items and
   * its layers stay within capacity. The copy's layers get fresh growth attempts, as a loaded file's do.
   */
  private static final VarHandle LAYERS;

  static {
    try {
      LAYERS = MethodHandles.lookup().findVarHandle(ScalableLayers.class, "layers", ScalableLayer[].class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Funnel<? super T> funnel;
  private final LayerPlan plan;
  /** The shape of the first layer, which clear() starts over from. */
  private final Layout firstLayout;
  @SuppressWarnings("unused") // accessed through LAYERS
  private volatile ScalableLayer<T>[] layers;

  ScalableLayers(Funnel<? super T> funnel, LayerPlan plan, ScalableLayer<T>[] layers) {
    this.funnel = funnel;
    this.plan = plan;
    this.firstLayout = layers[0].filter.layout();
    this.layers = layers;
  }

  /**
   * One empty first layer of {@code plan}, for a new filter.
   *
   * @throws IllegalArgumentException if the layer would pass the plan's cap or the largest filter
   */
  static <T> ScalableLayer<T>[] first(Funnel<? super T> funnel, LayerPlan plan) {
    Layout first = plan.layout(0);
    if (first.bits > plan.maxBits) {
      throw new IllegalArgumentException("maxBitSize=" + plan.maxBits + " is below the " + first.bits
          + " bits of the first layer (initialCapacity=" + plan.initialCapacity + ", fpp=" + plan.fpp + ")");
    }
    return firstLayerOnly(funnel, plan, first);
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array is created raw
  private static <T> ScalableLayer<T>[] firstLayerOnly(Funnel<? super T> funnel, LayerPlan plan, Layout first) {
    return new ScalableLayer[] {
        new ScalableLayer<>(plan.newLayer(funnel, 0, first), new SlotBudget(plan.capacity(0), 0))};
  }

  /** The layers of a file, already checked against the plan by {@link ScalableFormat#read}. */
  static <T> ScalableLayer<T>[] loaded(Funnel<? super T> funnel, List<FilterFormat.Loaded> records) {
    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array is created raw
    ScalableLayer<T>[] loaded = new ScalableLayer[records.size()];
    for (int i = 0; i < loaded.length; i++) {
      FilterFormat.Loaded r = records.get(i);
      FilterFormat.Header h = r.header();
      BloomFilter<T> filter = BloomFilter.loadedLayer(funnel, r.layout(), h.expectedInsertions(), h.fpp(), r.words(),
          h.count());
      // Older layers take no more adds; the newest keeps the room its count leaves.
      long taken = i == loaded.length - 1 ? h.count() : h.expectedInsertions();
      loaded[i] = new ScalableLayer<>(filter, new SlotBudget(h.expectedInsertions(), taken));
    }
    return loaded;
  }

  /** The current array (volatile read); the caller must not write it. */
  @SuppressWarnings("unchecked") // the array only ever holds layers of this filter
  ScalableLayer<T>[] current() {
    return (ScalableLayer<T>[]) LAYERS.getVolatile(this);
  }

  /** Newest layer first: it holds the largest share of the items, so present items stop early. */
  static boolean anyContains(ScalableLayer<?>[] layers, long h1, long h2) {
    for (int i = layers.length - 1; i >= 0; i--) {
      if (layers[i].filter.mightContainHashed(h1, h2)) {
        return true;
      }
    }
    return false;
  }

  /** Adds the item of hash (h1, h2) to the newest layer with room, unless some layer might contain it. */
  boolean add(long h1, long h2) {
    for (;;) {
      ScalableLayer<T>[] current = current();
      if (anyContains(current, h1, h2)) {
        return false;
      }
      ScalableLayer<T> newest = current[current.length - 1];
      int took = newest.budget.tryTake();
      if (took != SlotBudget.NONE) {
        boolean changed = newest.filter.addHashed(h1, h2);
        if (took == SlotBudget.LAST) {
          LayerGrowth growth = newest.growthVolatile();
          if (growth.casClaim()) {
            grow(current, growth);
          }
        }
        return changed;
      }
      awaitRoom(current, newest);
    }
  }

  /**
   * {@code full}, the newest layer of {@code current}, had no slot left. Returns once {@code current}
   * is no longer the filter's array (a layer was added, or a clear ran), building the next layer itself
   * if nobody has claimed that; throws if growth is refused.
   */
  private void awaitRoom(ScalableLayer<T>[] current, ScalableLayer<T> full) {
    while (current() == current) {
      LayerGrowth growth = full.growthVolatile();
      if (growth.casClaim()) {
        grow(current, growth);
        continue;
      }
      growth.awaitOutcome();
      if (growth.refusal() != null && current() == current) {
        throw new IllegalStateException(growth.refusal() + "; the item was not added");
      }
      if (growth.failed()) {
        full.casFreshGrowth(growth);
      }
    }
  }

  /** Builds the layer after the newest of {@code current} and publishes it; the caller claimed {@code growth}. */
  private void grow(ScalableLayer<T>[] current, LayerGrowth growth) {
    String refusal = null;
    boolean failed = true;
    try {
      int next = current.length;
      Layout layout = null;
      try {
        layout = plan.layout(next);
        long total = ScalableStats.bitSize(current) + layout.bits;
        if (total > plan.maxBits) {
          refusal = "cannot grow past maxBitSize=" + plan.maxBits + " bits: layer " + next + " needs "
              + layout.bits + " bits, " + total + " in all";
        }
      } catch (IllegalArgumentException e) {
        refusal = "cannot grow to " + (next + 1) + " layers: " + e.getMessage();
      }
      if (refusal == null) {
        ScalableLayer<T>[] grown = Arrays.copyOf(current, next + 1);
        grown[next] = new ScalableLayer<>(plan.newLayer(funnel, next, layout), new SlotBudget(plan.capacity(next), 0));
        // Fails only if clear() replaced `current`: the new layer then belongs to a generation that is gone.
        LAYERS.compareAndSet(this, current, grown);
      }
      failed = false;
    } finally {
      growth.finish(refusal, failed);
    }
  }

  /** Installs one new empty first layer at one instant. */
  void clear() {
    LAYERS.setVolatile(this, firstLayerOnly(funnel, plan, firstLayout));
  }

  /** Independent layers holding every add that finished before this call (see Copy above). */
  ScalableLayer<T>[] copy() {
    ScalableLayer<T>[] current = current();
    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array is created raw
    ScalableLayer<T>[] copied = new ScalableLayer[current.length];
    for (int i = 0; i < current.length; i++) {
      ScalableLayer<T> layer = current[i];
      BloomFilter<T> filter = layer.filter.copy();
      copied[i] = new ScalableLayer<>(filter, new SlotBudget(layer.budget.capacity(), layer.budget.taken()));
    }
    return copied;
  }
}
