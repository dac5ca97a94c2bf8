package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import org.concurrentbloom.internal.VisibleForTesting;

/**
 * A Bloom filter that grows as items arrive, keeping its false-positive rate below a target however
 * many it holds: a scalable Bloom filter (Almeida, Baquero, Preguiça and Hutchison, "Scalable Bloom
 * Filters", Information Processing Letters 101(6), 2007). Use it when the number of items is not known
 * in advance; when it is, a {@link BloomFilter} sized for it is smaller and faster.
 *
 * <p>The filter is a list of layers, each a {@link BloomFilter}. Layer i holds n0·s^i items at rate
 * p·(1−r)·r^i, where n0 is the initial capacity, p the target rate, s the {@linkplain
 * Builder#growthFactor growth factor} and r the {@linkplain Builder#tighteningRatio tightening ratio}.
 * Adds go to the newest layer; once it has taken its capacity of new items, the next layer is added.
 * A query asks every layer, so its false-positive rate is at most the sum of the layers' rates, which
 * stays below p·(1−r)·(1 + r + r^2 + ...) = p whatever the number of layers.
 *
 * <h2>Thread safety</h2>
 * Every method may be called from any thread at any time.
 * <ul>
 *   <li>{@code mightContain} never blocks: it reads the current list of layers once and asks each.
 *       A layer is complete before it is published, so no query sees a half-built one.
 *   <li>{@code add} is lock-free except at a layer boundary: the add that takes a full layer's last
 *       slot builds the next layer (one allocation of its bit array), and adds that find no room wait
 *       for that allocation instead of overfilling the full layer. No add is ever lost: an item whose
 *       add returned is in a layer that every later query asks.
 *   <li>Exactly one layer is added per boundary, however many threads cross it at once.
 *   <li>{@code clear} is linearizable: it installs one new empty layer at one instant. An add that
 *       overlaps it is ordered wholly before it (and cleared) or wholly after it (and kept); an add
 *       that starts after it returns is kept.
 *   <li>{@code writeTo} contains every add that finished before it started.
 *   <li>As with {@link BloomFilter}, two threads adding the same new item at once may both get true,
 *       so {@link #count()} can exceed the distinct items added.
 * </ul>
 *
 * @param <T> the type of item
 */
public final class ScalableBloomFilter<T> implements MembershipFilter<T> {
  /*
   * Design.
   *
   * Sizing (Almeida et al. 2007, section 4). Layer i is a standard filter for n_i = n0·s^i items at
   * p_i = p·(1−r)·r^i. An absent item is a false positive if any layer says yes, so by the union bound
   * the compound rate is at most sum p_i < p, and when the layers are independent it is exactly
   * 1 − prod(1 − p_i); fppBound() and estimatedFpp() report those two. Layer i needs
   * ln(1/p_i)/(ln 2)^2 bits per item, and ln(1/p_i) = ln(1/(p(1−r))) + i·ln(1/r): r close to 1 keeps the
   * later (largest) layers cheap but makes the first ones dear, r close to 0 the reverse.
   *
   * The default r = 0.9 was chosen by the total size after growing 1,000× past the initial capacity
   * (s = 2, p = 1%, n0 = 1,000, 10 layers for 10^6 items; ScalableSizingTest recomputes these with the
   * real sizing): r = 0.8 needs 17.04 Mbit, 0.85 needs 16.62, 0.9 needs 16.51 (the optimum, 0.89,
   * saves 0.1% more), 0.95 needs 17.06. A standard filter sized for 10^6 items up front needs 9.59 Mbit.
   * At that growth r = 0.9 also leaves the most headroom: its layers' rates sum to 0.65 p, against
   * 0.89 p for r = 0.8. Against r = 0.8 it costs more while the filter has barely grown: 11% with one
   * layer (rate p/10 instead of p/5), 6% with 4, 1% with 7; from 8 layers (255×) on it is smaller, 3% at
   * 10 and 6% at 12.
   *
   * Growth. The layers are an immutable array, replaced (copy-on-write) by a CAS when a layer is
   * added and by a plain volatile write on clear. Only the newest layer takes adds, and only as many
   * as its capacity: each add of a new item first takes a slot from the layer's SlotBudget (a striped
   * counter, so that adds on different cores rarely touch one cache line), then sets its bits. The one
   * add that takes the last slot claims the layer's LayerGrowth and builds and publishes the next
   * layer; adds that find no slot wait for that attempt (or claim it themselves if nobody has, which
   * happens after loading a file whose newest layer is full), then retry on the new array.
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
   */
  private static final VarHandle LAYERS;

  static {
    try {
      LAYERS = MethodHandles.lookup().findVarHandle(ScalableBloomFilter.class, "layers", ScalableLayer[].class);
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

  ScalableBloomFilter(Funnel<? super T> funnel, LayerPlan plan, ScalableLayer<T>[] layers) {
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.plan = plan;
    this.firstLayout = layers[0].filter.layout();
    this.layers = layers;
  }

  /** A filter whose first layer is empty, for the builder and for {@link #clear()}. */
  static <T> ScalableBloomFilter<T> empty(Funnel<? super T> funnel, LayerPlan plan) {
    Layout first = plan.layout(0);
    if (first.bits > plan.maxBits) {
      throw new IllegalArgumentException("maxBitSize=" + plan.maxBits + " is below the " + first.bits
          + " bits of the first layer (initialCapacity=" + plan.initialCapacity + ", fpp=" + plan.fpp + ")");
    }
    return new ScalableBloomFilter<>(funnel, plan, firstLayerOnly(funnel, plan, first));
  }

  /**
   * A filter (p = 0.01, r = 0.9, no cap) whose layer i has exactly the layout {@code layouts} returns
   * for i, whatever its capacity; the function is called once per layer built.
   */
  @VisibleForTesting
  static <T> ScalableBloomFilter<T> withLayouts(Funnel<? super T> funnel, long initialCapacity, int growthFactor,
      IntFunction<Layout> layouts) {
    return empty(funnel, new LayerPlan(initialCapacity, 0.01, growthFactor, Builder.DEFAULT_TIGHTENING_RATIO,
        FilterType.STANDARD, LayerPlan.NO_CAP, layouts));
  }

  /**
   * Creates an empty filter whose first layer holds {@code initialCapacity} items and whose compound
   * false-positive rate stays at most {@code fpp} as it grows; growth factor 2, tightening ratio 0.9.
   *
   * @throws IllegalArgumentException if {@code initialCapacity < 1}, {@code fpp} is not in (0, 1), or
   *     the first layer would exceed the largest filter
   */
  public static <T> ScalableBloomFilter<T> create(Funnel<? super T> funnel, long initialCapacity, double fpp) {
    return ScalableBloomFilter.<T>builder(funnel).initialCapacity(initialCapacity).fpp(fpp).build();
  }

  /** Starts a filter description: {@code ScalableBloomFilter.builder(funnel).initialCapacity(n).build()}. */
  public static <T> Builder<T> builder(Funnel<? super T> funnel) {
    return new Builder<>(funnel);
  }

  /** Describes a scalable filter before it is built. Not thread-safe; the filters it builds are. */
  public static final class Builder<T> {
    /** The default tightening ratio; see the design notes in the source of {@link ScalableBloomFilter}. */
    public static final double DEFAULT_TIGHTENING_RATIO = 0.9;
    /** The default growth factor. */
    public static final int DEFAULT_GROWTH_FACTOR = 2;

    private final Funnel<? super T> funnel;
    private long initialCapacity = -1;
    private double fpp = 0.01;
    private int growthFactor = DEFAULT_GROWTH_FACTOR;
    private double tighteningRatio = DEFAULT_TIGHTENING_RATIO;
    private FilterType layerType = FilterType.STANDARD;
    private long maxBitSize = LayerPlan.NO_CAP;

    private Builder(Funnel<? super T> funnel) {
      this.funnel = Objects.requireNonNull(funnel, "funnel");
    }

    /** n0, the items the first layer holds. Required; at least 1. */
    public Builder<T> initialCapacity(long initialCapacity) {
      LayerPlan.checkInitialCapacity(initialCapacity);
      this.initialCapacity = initialCapacity;
      return this;
    }

    /** p, the bound on the compound false-positive probability, in (0, 1). Defaults to 0.01. */
    public Builder<T> fpp(double fpp) {
      Sizing.checkFpp(fpp);
      this.fpp = fpp;
      return this;
    }

    /** s, how many times more items each layer holds than the one before, in [2, 1024]. Defaults to 2. */
    public Builder<T> growthFactor(int growthFactor) {
      LayerPlan.checkGrowthFactor(growthFactor);
      this.growthFactor = growthFactor;
      return this;
    }

    /**
     * r, the ratio of each layer's false-positive rate to the previous one's, in (0, 1). Defaults to
     * 0.9. Smaller r makes the first layers cheaper and later ones dearer.
     */
    public Builder<T> tighteningRatio(double tighteningRatio) {
      LayerPlan.checkTighteningRatio(tighteningRatio);
      this.tighteningRatio = tighteningRatio;
      return this;
    }

    /** Builds every layer in the cache-blocked layout ({@link BloomFilter.Builder#blocked()}). */
    public Builder<T> blocked() {
      this.layerType = FilterType.BLOCKED;
      return this;
    }

    /**
     * Caps the bits all layers together may take. An add that needs a new layer past the cap throws
     * {@link IllegalStateException} and does not add its item; the filter stays usable otherwise.
     * Unlimited by default.
     */
    public Builder<T> maxBitSize(long maxBitSize) {
      LayerPlan.checkMaxBits(maxBitSize);
      this.maxBitSize = maxBitSize;
      return this;
    }

    /**
     * Builds an empty filter with its first layer.
     *
     * @throws IllegalStateException if {@link #initialCapacity} was not set
     * @throws IllegalArgumentException if the first layer would exceed the largest filter or the cap
     */
    public ScalableBloomFilter<T> build() {
      if (initialCapacity < 0) {
        throw new IllegalStateException("initialCapacity(n) must be set before build()");
      }
      return empty(funnel, new LayerPlan(initialCapacity, fpp, growthFactor, tighteningRatio, layerType,
          maxBitSize, null));
    }
  }

  // ---------------------------------------------------------------- add and query

  /**
   * Adds {@code item} to the newest layer unless some layer might already contain it. Returns true iff
   * this call turned on at least one bit (see the class comment for concurrent adds of one item).
   *
   * @throws IllegalStateException if the item needs a new layer and growing would pass the memory cap
   *     (or the largest filter); the item is then not added
   */
  @Override
  public boolean add(T item) {
    HashingSink sink = hash(item);
    try {
      return addHashed(sink.h1, sink.h2);
    } finally {
      sink.release();
    }
  }

  /** Returns false if {@code item} was definitely never added; true if it might have been. */
  @Override
  public boolean mightContain(T item) {
    HashingSink sink = hash(item);
    try {
      return anyLayerContains(layersVolatile(), sink.h1, sink.h2);
    } finally {
      sink.release();
    }
  }

  /** Hashes the item once for all layers; the caller releases the sink. */
  private HashingSink hash(T item) {
    Objects.requireNonNull(item, "item");
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(item, funnel);
      return sink;
    } catch (RuntimeException | Error e) {
      sink.release();
      throw e;
    }
  }

  private boolean addHashed(long h1, long h2) {
    for (;;) {
      ScalableLayer<T>[] current = layersVolatile();
      if (anyLayerContains(current, h1, h2)) {
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

  /** Newest layer first: it holds the largest share of the items, so present items stop early. */
  private static boolean anyLayerContains(ScalableLayer<?>[] layers, long h1, long h2) {
    for (int i = layers.length - 1; i >= 0; i--) {
      if (layers[i].filter.mightContainHashed(h1, h2)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code full}, the newest layer of {@code current}, had no slot left. Returns once {@code current}
   * is no longer the filter's array (a layer was added, or a clear ran), building the next layer itself
   * if nobody has claimed that; throws if growth is refused.
   */
  private void awaitRoom(ScalableLayer<T>[] current, ScalableLayer<T> full) {
    while (layersVolatile() == current) {
      LayerGrowth growth = full.growthVolatile();
      if (growth.casClaim()) {
        grow(current, growth);
        continue;
      }
      growth.awaitOutcome();
      if (growth.refusal() != null && layersVolatile() == current) {
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
        long total = bitSize(current) + layout.bits;
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

  @SuppressWarnings("unchecked")
  private ScalableLayer<T>[] layersVolatile() {
    return (ScalableLayer<T>[]) LAYERS.getVolatile(this);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <T> ScalableLayer<T>[] firstLayerOnly(Funnel<? super T> funnel, LayerPlan plan, Layout first) {
    return new ScalableLayer[] {
        new ScalableLayer<>(plan.newLayer(funnel, 0, first), new SlotBudget(plan.capacity(0), 0))};
  }

  /**
   * Removes every item and every layer but a new, empty first one, atomically with respect to
   * concurrent operations. Allocates the first layer's bit array.
   */
  @Override
  public void clear() {
    LAYERS.setVolatile(this, firstLayerOnly(funnel, plan, firstLayout));
  }

  // ---------------------------------------------------------------- statistics

  /** The number of layers, at least 1. */
  public int layerCount() {
    return layersVolatile().length;
  }

  /** The bits of all layers together. */
  @Override
  public long bitSize() {
    return bitSize(layersVolatile());
  }

  private static long bitSize(ScalableLayer<?>[] layers) {
    long bits = 0;
    for (ScalableLayer<?> layer : layers) {
      bits += layer.filter.bitSize();
    }
    return bits;
  }

  /**
   * The initial capacity n0: the items the first layer holds. The filter accepts any number of items
   * beyond it (up to the memory cap); {@link #capacity()} is what the current layers hold.
   */
  @Override
  public long expectedInsertions() {
    return plan.initialCapacity;
  }

  /** The items the current layers hold together before the next one is added. */
  public long capacity() {
    long n = 0;
    for (ScalableLayer<?> layer : layersVolatile()) {
      n += layer.budget.capacity();
    }
    return n;
  }

  /** The target p: the compound false-positive probability stays at most this however far it grows. */
  @Override
  public double fpp() {
    return plan.fpp;
  }

  /** s, the growth factor. */
  public int growthFactor() {
    return plan.growthFactor;
  }

  /** r, the tightening ratio. */
  public double tighteningRatio() {
    return plan.tighteningRatio;
  }

  /** The memory cap in bits, or {@code Long.MAX_VALUE} if there is none. */
  public long maxBitSize() {
    return plan.maxBits;
  }

  /** The type of every layer: {@link FilterType#STANDARD} or {@link FilterType#BLOCKED}. */
  public FilterType layerType() {
    return plan.layerType;
  }

  /**
   * The sum of the current layers' target rates: a bound on the compound false-positive probability
   * while every layer is within its capacity, which it always is. At most {@link #fpp()}.
   */
  public double fppBound() {
    double sum = 0;
    for (ScalableLayer<?> layer : layersVolatile()) {
      sum += layer.filter.fpp();
    }
    return sum;
  }

  /**
   * An estimate of the current compound false-positive probability: 1 − prod(1 − f_i) over the
   * layers' {@link BloomFilter#estimatedFpp()} estimates f_i (the layers hash alike but are sized
   * apart, so their false positives are close to independent).
   */
  @Override
  public double estimatedFpp() {
    double allNegative = 1;
    for (ScalableLayer<?> layer : layersVolatile()) {
      allNegative *= 1 - layer.filter.estimatedFpp();
    }
    return 1 - allNegative;
  }

  /** The number of {@link #add} calls that returned true since creation or the last clear, plus those loaded. */
  @Override
  public long count() {
    long n = 0;
    for (ScalableLayer<?> layer : layersVolatile()) {
      n += layer.filter.count();
    }
    return n;
  }

  /** The fraction of bits set over all layers, in [0, 1]. Scans every layer: O(bitSize/64). */
  @Override
  public double fillRatio() {
    ScalableLayer<?>[] current = layersVolatile();
    long set = 0;
    for (ScalableLayer<?> layer : current) {
      set += layer.filter.setBits();
    }
    return (double) set / bitSize(current);
  }

  /**
   * The sum of the layers' {@link BloomFilter#approximateElementCount()} estimates (each layer holds
   * different items); {@code Long.MAX_VALUE} if any layer is saturated. Scans every layer.
   */
  @Override
  public long approximateElementCount() {
    long n = 0;
    for (ScalableLayer<?> layer : layersVolatile()) {
      long layerCount = layer.filter.approximateElementCount();
      if (layerCount == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      n += layerCount;
    }
    return n;
  }

  /**
   * One layer's shape and load, as {@link #layerStats()} reports it.
   *
   * @param capacity the items the layer holds at its target rate
   * @param fpp the layer's target rate, p·(1−r)·r^i
   * @param bitSize the layer's bits
   * @param hashFunctions the layer's k
   * @param count adds that returned true in this layer
   * @param estimatedFpp the layer's estimated rate at its count
   */
  public record LayerStats(long capacity, double fpp, long bitSize, int hashFunctions, long count,
      double estimatedFpp) {}

  /** Every layer's shape and load, oldest first. */
  public List<LayerStats> layerStats() {
    List<LayerStats> stats = new ArrayList<>();
    for (ScalableLayer<?> layer : layersVolatile()) {
      BloomFilter<?> f = layer.filter;
      stats.add(new LayerStats(layer.budget.capacity(), f.fpp(), f.bitSize(), f.hashFunctions(), f.count(),
          f.estimatedFpp()));
    }
    return List.copyOf(stats);
  }

  // ---------------------------------------------------------------- persistence

  /**
   * Writes this filter as type 5 of the format of docs/FORMAT.md: its growth parameters, then every
   * layer as a complete standard (or blocked) filter record. The bytes hold every add that finished
   * before this call began. Does not close {@code out}.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    ScalableFormat.write(out, plan, KeyType.of(funnel), layersVolatile());
  }

  /**
   * Reads a filter written by {@link #writeTo}. The file records only the funnel's {@link KeyType}; pass
   * the funnel the filter was built with. Reads exactly the filter's bytes and does not close {@code in}.
   *
   * @throws IOException if the stream ends early or the bytes are not a valid scalable filter (wrong
   *     magic, version or type, growth parameters out of range, a layer whose capacity or rate does not
   *     follow from them, a count above a layer's capacity, a checksum mismatch), or the file records a
   *     key type other than the funnel's; no partial filter is
   *     returned and nothing much larger than the bytes actually present is allocated
   */
  public static <T> ScalableBloomFilter<T> readFrom(InputStream in, Funnel<? super T> funnel) throws IOException {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(funnel, "funnel");
    ScalableFormat.Loaded loaded = ScalableFormat.read(in);
    FilterFormat.checkKeyType(loaded.keyType(), funnel);
    LayerPlan plan = loaded.plan();
    List<FilterFormat.Loaded> records = loaded.layers();
    @SuppressWarnings({"unchecked", "rawtypes"})
    ScalableLayer<T>[] layers = new ScalableLayer[records.size()];
    for (int i = 0; i < layers.length; i++) {
      FilterFormat.Loaded r = records.get(i);
      FilterFormat.Header h = r.header();
      BloomFilter<T> filter = BloomFilter.loadedLayer(funnel, r.layout(), h.expectedInsertions(), h.fpp(), r.words(),
          h.count());
      // Older layers take no more adds; the newest keeps the room its count leaves.
      long taken = i == layers.length - 1 ? h.count() : h.expectedInsertions();
      layers[i] = new ScalableLayer<>(filter, new SlotBudget(h.expectedInsertions(), taken));
    }
    return new ScalableBloomFilter<>(funnel, plan, layers);
  }

  @Override
  public String toString() {
    ScalableLayer<T>[] current = layersVolatile();
    return "ScalableBloomFilter[layers=" + current.length + ", layout=" + plan.layerType.shortName() + ", initialCapacity="
        + plan.initialCapacity + ", fpp=" + plan.fpp + ", growthFactor=" + plan.growthFactor
        + ", tighteningRatio=" + plan.tighteningRatio + ", bits=" + bitSize(current) + ", funnel=" + funnel + "]";
  }
}
