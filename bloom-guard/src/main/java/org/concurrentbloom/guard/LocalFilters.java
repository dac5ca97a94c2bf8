package org.concurrentbloom.guard;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;
import java.util.OptionalLong;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.internal.VisibleForTesting;

/**
 * The default {@link GuardFilters}: both filters in this JVM, as immutable {@link Generation}s behind two
 * volatile references, {@code live} and {@code pending}. Readers never wait and never see a half-built
 * filter: a rebuild fills its filter off to the side and publishes it with one reference swap.
 *
 * <p><b>The dual-write window</b> (the NSF approach of Mohan and Narang, "Algorithms for creating
 * indexes for very large tables without quiescing updates", SIGMOD 1992: updaters write straight into
 * the structure being built). A rebuild R (1) registers its new filter P as {@code pending}
 * ({@code begin}), (2) the guard starts the scan, (3) {@code publish} swaps {@code live} to P, (4) and
 * clears {@code pending}. {@link #add} reads {@code pending} and adds the key there if set, and only then
 * reads {@code live} and adds it there. All these accesses are volatile, so they fall in one total order
 * consistent with each thread's program order. The caller adds k after k's insert committed, at time c.
 * Claim: when {@code add(k)} returns, k is in the live filter and in every filter published later.
 * <ul>
 *   <li>The filter it read from {@code live} contains k: it added k itself.
 *   <li>Take any rebuild R that publishes later. If R's scan started after c, the scan sees k (a query
 *       started after a commit sees it at READ COMMITTED or stronger). If it started before c, then R
 *       registered P before c, which is before {@code add} read {@code pending}; and R clears
 *       {@code pending} only after its swap, which comes after our read of {@code live} (R publishes
 *       later). So our read of {@code pending} fell between R's steps (1) and (4) and returned P
 *       (rebuilds run one at a time, so no other filter is registered then), and k was added to P.
 * </ul>
 * The order of the two reads matters: reading {@code live} first lets a rebuild swap and clear
 * {@code pending} between the reads, and k lands only in the filter just replaced. DualWriteTest and
 * ConcurrentRebuildTest show both that no insert is lost and that, with the dual write disabled, one is.
 *
 * <p>Threads: as {@link GuardFilters} says. The rebuild methods run on the guard's one build thread.
 */
final class LocalFilters<K> implements GuardFilters<K> {
  private static final VarHandle LIVE;
  private static final VarHandle PENDING;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      LIVE = lookup.findVarHandle(LocalFilters.class, "live", Generation.class);
      PENDING = lookup.findVarHandle(LocalFilters.class, "pending", Generation.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final GuardSpec<K> spec;
  /** Test hook: false disables the dual write, to show that the tests catch the loss it prevents. */
  private final boolean dualWrite;

  @SuppressWarnings("unused") // accessed through LIVE
  private volatile Generation<K> live;
  @SuppressWarnings("unused") // accessed through PENDING
  private volatile Generation<K> pending;

  LocalFilters(GuardSpec<K> spec, boolean dualWrite) {
    this.spec = spec;
    this.dualWrite = dualWrite;
  }

  @Override
  public boolean mightContain(K key) {
    Generation<K> g = liveAcquire();
    return g == null || g.filter.mightContain(key);
  }

  @Override
  public boolean add(K key) {
    // pending first, then live: the order the class comment's argument needs.
    Generation<K> p = pendingVolatile();
    if (p != null && dualWrite) {
      p.filter.add(key);
    }
    Generation<K> g = liveVolatile();
    if (g == null) {
      return false;
    }
    g.filter.add(key);
    if (p != null && p != g && dualWrite) {
      p.keys.incrementAndGet();
    }
    long keys = g.keys.incrementAndGet();
    return keys > g.capacity() && g.growthRequested.compareAndSet(false, true);
  }

  @Override
  public boolean countDelete() {
    Generation<K> g = liveVolatile();
    Generation<K> p = pendingVolatile();
    if (p != null && p != g) {
      p.deletes.incrementAndGet(); // the scan may have read the row before it was deleted
    }
    if (g == null) {
      return false;
    }
    long deletes = g.deletes.incrementAndGet();
    return spec.deleteThresholdReached(deletes, g.keys.get()) && g.deleteRebuildRequested.compareAndSet(false, true);
  }

  @Override
  public Optional<Live> live() {
    Generation<K> g = liveAcquire();
    return g == null ? Optional.empty() : Optional.of(new Live(g.capacity(), g.keys.get(), g.deletes.get()));
  }

  @Override
  public Optional<Image<K>> image() {
    Generation<K> g = liveAcquire();
    return g == null ? Optional.empty() : Optional.of(new Image<>(g.filter, g.watermark));
  }

  @Override
  public Rebuild<K> rebuild() {
    return new LocalRebuild();
  }

  @Override
  public void close() {
    LIVE.setVolatile(this, null);
  }

  /** The live generation. */
  @VisibleForTesting
  Generation<K> liveForTest() {
    return liveVolatile();
  }

  private BloomFilter<K> newFilter(long capacity) {
    BloomFilter.Builder<K> b = BloomFilter.<K>builder(spec.funnel()).expectedInsertions(capacity).fpp(spec.fpp());
    return spec.layout() == FilterType.BLOCKED ? b.blocked().build() : b.build();
  }

  @SuppressWarnings("unchecked")
  private Generation<K> liveAcquire() {
    return (Generation<K>) LIVE.getAcquire(this);
  }

  @SuppressWarnings("unchecked")
  private Generation<K> liveVolatile() {
    return (Generation<K>) LIVE.getVolatile(this);
  }

  @SuppressWarnings("unchecked")
  private Generation<K> pendingVolatile() {
    return (Generation<K>) PENDING.getVolatile(this);
  }

  /** One rebuild on the build thread: steps (1), (3) and (4) of the class comment. */
  private final class LocalRebuild implements Rebuild<K> {
    private Generation<K> registered;
    private boolean published;

    @Override
    public Candidate<K> begin(long capacity) {
      Generation<K> next = register(new Generation<>(newFilter(capacity)));
      return new LocalCandidate(next, false);
    }

    @Override
    public Candidate<K> begin(BloomFilter<K> loaded, OptionalLong watermark) {
      Generation<K> next = new Generation<>(loaded);
      next.watermark = watermark;
      next.keys.set(loaded.count());
      return new LocalCandidate(register(next), true);
    }

    private Generation<K> register(Generation<K> next) {
      if (registered != null) {
        throw new IllegalStateException("a rebuild registers one filter");
      }
      registered = next;
      PENDING.setVolatile(LocalFilters.this, next); // (1): from here on, add also adds to next
      return next;
    }

    @Override
    public void close() {
      if (registered != null && !published) {
        PENDING.setVolatile(LocalFilters.this, null); // never published: dropped
      }
    }

    private final class LocalCandidate implements Candidate<K> {
      private final Generation<K> next;
      /** A snapshot's catch-up: count only keys new to the filter (the rows before it are in its count). */
      private final boolean countNew;

      LocalCandidate(Generation<K> next, boolean countNew) {
        this.next = next;
        this.countNew = countNew;
      }

      @Override
      public void add(K key) {
        if (next.filter.add(key) && countNew) {
          next.keys.incrementAndGet();
        }
      }

      @Override
      public boolean publish(ScanResult scan) {
        if (!countNew) {
          next.keys.addAndGet(scan.keys());
        }
        if (scan.maxWatermark().isPresent()) {
          long seen = scan.maxWatermark().getAsLong();
          next.watermark = OptionalLong.of(next.watermark.isPresent()
              ? Math.max(seen, next.watermark.getAsLong()) : seen);
        }
        LIVE.setVolatile(LocalFilters.this, next); // (3)
        PENDING.setVolatile(LocalFilters.this, null); // (4), after the swap
        published = true;
        return next.keys.get() > next.capacity() && next.growthRequested.compareAndSet(false, true);
      }
    }
  }
}
