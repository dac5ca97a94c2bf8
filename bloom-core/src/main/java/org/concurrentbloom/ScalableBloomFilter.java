package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 *   <li>{@code copy} and {@code writeTo} contain every add that finished before they started.
 *   <li>As with {@link BloomFilter}, two threads adding the same new item at once may both get true,
 *       so {@link #count()} can exceed the distinct items added.
 * </ul>
 *
 * <h2>No merge</h2>
 * There is no {@code merge}: none keeps the bound p. Every layer but the newest is full, so OR-ing layer i of
 * one filter into layer i of the other puts twice its capacity there, and at 2× capacity a layer's rate is
 * about its target to the power log2(4/3) ≈ 0.415 (at p = 1% and r = 0.9, layer 0 goes from 0.1% to 5.7%,
 * past p by itself). Appending one filter's layers to the other's keeps each within capacity but adds both
 * series of rates, up to 2p. To combine two, add the items of one to the other (numbers: docs/SCALABLE.md).
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
   * The default r = 0.9 minimises the total size after growing 1,000× (s = 2, p = 1%, n0 = 1,000, 10
   * layers: 16.51 Mbit, against 17.04 at r = 0.8 and 17.06 at 0.95; the optimum, 0.89, saves 0.1% more;
   * ScalableSizingTest recomputes these) and leaves the most headroom there (the rates sum to 0.65 p,
   * 0.89 p at r = 0.8). It costs more while the filter has barely grown, against r = 0.8: 11% with one
   * layer, 6% with 4, 1% with 7; from 8 layers (255×) on it is smaller. docs/SCALABLE.md has the table.
   *
   * Growth, waiting at a boundary, no lost insert, one layer per boundary and copy: see ScalableLayers.
   */
  private final Funnel<? super T> funnel;
  private final LayerPlan plan;
  private final ScalableLayers<T> layers;
  /** The layers' strategy is 4 or 5: h1 is XXH3-64 of the key. */
  private final boolean xxh3;

  private ScalableBloomFilter(Funnel<? super T> funnel, LayerPlan plan, ScalableLayer<T>[] layers) {
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.plan = plan;
    this.xxh3 = plan.layerStrategy.isXxh3();
    this.layers = new ScalableLayers<>(funnel, plan, layers);
  }

  /** A filter whose first layer is empty. */
  static <T> ScalableBloomFilter<T> empty(Funnel<? super T> funnel, LayerPlan plan) {
    return new ScalableBloomFilter<>(funnel, plan, ScalableLayers.first(funnel, plan));
  }

  /**
   * A filter (p = 0.01, r = 0.9, no cap) whose layer i has the layout {@code layouts.apply(i)} whatever
   * its capacity, the function being called once per layer built. The layouts must be standard ones of
   * strategy 1, as {@code new StandardLayout(bits, k)} makes.
   */
  @VisibleForTesting
  static <T> ScalableBloomFilter<T> withLayouts(Funnel<? super T> funnel, long initialCapacity, int growthFactor,
      IntFunction<Layout> layouts) {
    return empty(funnel, new LayerPlan(initialCapacity, 0.01, growthFactor, Builder.DEFAULT_TIGHTENING_RATIO,
        FilterType.STANDARD, HashStrategy.MURMUR3_128_ENHANCED_DOUBLE, LayerPlan.NO_CAP, layouts));
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
    /** Null: the layer type's default. */
    private HashStrategy strategy;
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
     * Selects the layers' hash strategy instead of the layer type's default (4 for standard layers, 5 for
     * blocked ones), as {@link BloomFilter.Builder#hashStrategy}. {@code build()} refuses a strategy the
     * layer type does not take.
     */
    public Builder<T> hashStrategy(HashStrategy strategy) {
      this.strategy = Objects.requireNonNull(strategy, "strategy");
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
     * @throws IllegalArgumentException if the first layer would exceed the largest filter or the cap, or
     *     the layer type does not take the {@link #hashStrategy}
     */
    public ScalableBloomFilter<T> build() {
      if (initialCapacity < 0) {
        throw new IllegalStateException("initialCapacity(n) must be set before build()");
      }
      return empty(funnel, new LayerPlan(initialCapacity, fpp, growthFactor, tighteningRatio, layerType,
          strategy == null ? layerType.layerStrategy() : strategy, maxBitSize, null));
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
    if (xxh3) {
      long h = Xxh3Keys.of(Objects.requireNonNull(item, "item"), funnel);
      return layers.add(h, Xxh3Keys.second(h));
    }
    HashingSink sink = hash(item);
    try {
      return layers.add(sink.h1, sink.h2);
    } finally {
      sink.release();
    }
  }

  /** Returns false if {@code item} was definitely never added; true if it might have been. */
  @Override
  public boolean mightContain(T item) {
    if (xxh3) {
      long h = Xxh3Keys.of(Objects.requireNonNull(item, "item"), funnel);
      return ScalableLayers.anyContains(layers.current(), h, Xxh3Keys.second(h));
    }
    HashingSink sink = hash(item);
    try {
      return ScalableLayers.anyContains(layers.current(), sink.h1, sink.h2);
    } finally {
      sink.release();
    }
  }

  /**
   * {@code add(Long.valueOf(key))} without the box: the same bits, the same answer, the same growth.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}, or as
   *     {@link #add}
   */
  public boolean addLong(long key) {
    Funnels.requireLongKeys(funnel);
    if (xxh3) {
      long h = Xxh3Keys.ofLong(key);
      return layers.add(h, Xxh3Keys.second(h));
    }
    return layers.add(Murmur3.longH1(key), Murmur3.longH2(key));
  }

  /**
   * {@code mightContain(Long.valueOf(key))} without the box.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean mightContainLong(long key) {
    Funnels.requireLongKeys(funnel);
    if (xxh3) {
      long h = Xxh3Keys.ofLong(key);
      return ScalableLayers.anyContains(layers.current(), h, Xxh3Keys.second(h));
    }
    return ScalableLayers.anyContains(layers.current(), Murmur3.longH1(key), Murmur3.longH2(key));
  }

  /** Hashes the item once for all layers with MurmurHash3 (strategies 1 and 2); the caller releases the sink. */
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

  /**
   * Removes every item and every layer but a new, empty first one, atomically with respect to
   * concurrent operations. Allocates the first layer's bit array.
   */
  @Override
  public void clear() {
    layers.clear();
  }

  /**
   * An independent filter with the same parameters and layers, holding every add that finished before
   * this call began, that grows on as this one would. Allocates {@link #bitSize()} bits. (No merge: see above.)
   */
  public ScalableBloomFilter<T> copy() {
    return new ScalableBloomFilter<>(funnel, plan, layers.copy());
  }

  // ---------------------------------------------------------------- statistics

  /** The number of layers, at least 1. */
  public int layerCount() {
    return layers.current().length;
  }

  /** The bits of all layers together. */
  @Override
  public long bitSize() {
    return ScalableStats.bitSize(layers.current());
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
    return ScalableStats.capacity(layers.current());
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

  /** The hash strategy of every layer: 4 or 5 for new filters, 1 or 2 in files written before them. */
  public HashStrategy hashStrategy() {
    return plan.layerStrategy;
  }

  /**
   * The sum of the current layers' target rates: a bound on the compound false-positive probability
   * while every layer is within its capacity, which it always is. At most {@link #fpp()}.
   */
  public double fppBound() {
    return ScalableStats.fppBound(layers.current());
  }

  /**
   * An estimate of the current compound false-positive probability: 1 − prod(1 − f_i) over the
   * layers' {@link BloomFilter#estimatedFpp()} estimates f_i (the layers hash alike but are sized
   * apart, so their false positives are close to independent).
   */
  @Override
  public double estimatedFpp() {
    return ScalableStats.estimatedFpp(layers.current());
  }

  /** The number of {@link #add} calls that returned true since creation or the last clear, plus those loaded. */
  @Override
  public long count() {
    return ScalableStats.count(layers.current());
  }

  /** The fraction of bits set over all layers, in [0, 1]. Scans every layer: O(bitSize/64). */
  @Override
  public double fillRatio() {
    return ScalableStats.fillRatio(layers.current());
  }

  /**
   * The sum of the layers' {@link BloomFilter#approximateElementCount()} estimates (each layer holds
   * different items); {@code Long.MAX_VALUE} if any layer is saturated. Scans every layer.
   */
  @Override
  public long approximateElementCount() {
    return ScalableStats.approximateElementCount(layers.current());
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
    return ScalableStats.layerStats(layers.current());
  }

  // ---------------------------------------------------------------- persistence

  /**
   * Writes this filter as type 5 of the format of docs/FORMAT.md: its growth parameters, then every
   * layer as a complete standard (or blocked) filter record. The bytes hold every add that finished
   * before this call began. Does not close {@code out}.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    ScalableFormat.write(out, plan, KeyType.of(funnel), layers.current());
  }

  /**
   * Reads a filter written by {@link #writeTo}. The file records only the funnel's {@link KeyType}; pass
   * the funnel the filter was built with. Reads exactly the filter's bytes and does not close {@code in}.
   *
   * @throws IOException if the stream ends early or the bytes are not a valid scalable filter (wrong
   *     magic, version or type, growth parameters out of range, a layer whose capacity or rate does not
   *     follow from them, a count above a layer's capacity, a checksum mismatch), or the file records a
   *     key type other than the funnel's; no partial filter is returned and nothing much larger than the
   *     bytes actually present is allocated
   */
  public static <T> ScalableBloomFilter<T> readFrom(InputStream in, Funnel<? super T> funnel) throws IOException {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(funnel, "funnel");
    ScalableFormat.Loaded loaded = ScalableFormat.read(in);
    FilterFormat.checkKeyType(loaded.keyType(), funnel);
    return new ScalableBloomFilter<>(funnel, loaded.plan(), ScalableLayers.loaded(funnel, loaded.layers()));
  }

  @Override
  public String toString() {
    ScalableLayer<T>[] current = layers.current();
    return "ScalableBloomFilter[layers=" + current.length + ", layout=" + plan.layerType.shortName() + ", initialCapacity="
        + plan.initialCapacity + ", fpp=" + plan.fpp + ", growthFactor=" + plan.growthFactor + ", tighteningRatio="
        + plan.tighteningRatio + ", bits=" + ScalableStats.bitSize(current) + ", funnel=" + funnel + "]";
  }
}
