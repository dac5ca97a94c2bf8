package org.concurrentbloom.benchmarks;

import java.util.concurrent.TimeUnit;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.fastfilter.bloom.BlockedBloom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * 64-bit keys through each library's primitive path, unboxed: our {@code addLong}, {@code mightContainLong}
 * and {@code long[]} batches against FastFilter_java's {@code BlockedBloom.add(long)} and
 * {@code mayContain(long)}, the fastest Bloom filter on the JVM for such keys (issue 24). Same keys as
 * the other benchmarks ({@link Keys#longKey}, half-present queries from {@link QueryKeys}), held in a
 * {@code long[]} so no implementation pays for a box.
 *
 * <p>FastFilter has no batch calls; its rows for {@code mightContainAll} and {@code addAll} loop over
 * its single calls, so the batch rows compare our batch with its single path, which is the comparison
 * the targets name. Two-thread lookups are safe for FastFilter too (they only read); two-thread
 * adds are ours only. FastFilter is built at 11 bits per key (0.96% measured); ours at p = 1% (10.3 bits
 * per key for OURS_BLOCKED, strategy 6; 9.6 for OURS_STANDARD).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class LongPathBenchmark {
  /** Keys per batch call, as {@link BatchBenchmark}'s. */
  static final int BATCH = 1024;

  /** One filter behind the primitive calls. */
  interface LongFilter {
    boolean add(long key);

    boolean mightContain(long key);

    int addAll(long[] keys);

    boolean[] mightContainAll(long[] keys);

    void reset();
  }

  /** Our filter of the impl's layout, through the primitive path. */
  static final class Ours implements LongFilter {
    private final BloomFilter<Long> filter;

    Ours(Impl impl, int n) {
      BloomFilter.Builder<Long> b = BloomFilter.builder(Funnels.longFunnel()).expectedInsertions(n)
          .fpp(BenchmarkDefaults.FPP);
      filter = impl.isBlocked() ? b.blocked().build() : b.build();
    }

    @Override
    public boolean add(long key) {
      return filter.addLong(key);
    }

    @Override
    public boolean mightContain(long key) {
      return filter.mightContainLong(key);
    }

    @Override
    public int addAll(long[] keys) {
      return filter.addAll(keys);
    }

    @Override
    public boolean[] mightContainAll(long[] keys) {
      return filter.mightContainAll(keys);
    }

    @Override
    public void reset() {
      filter.clear();
    }
  }

  /** FastFilter's BlockedBloom, made as {@link FastFilterBloom} makes it; batches loop over single calls. */
  static final class Fast implements LongFilter {
    private final int n;
    private BlockedBloom filter;

    Fast(int n) {
      this.n = n;
      reset();
    }

    @Override
    public boolean add(long key) {
      filter.add(key);
      return true; // see FastFilterBloom.add
    }

    @Override
    public boolean mightContain(long key) {
      return filter.mayContain(key);
    }

    @Override
    public int addAll(long[] keys) {
      BlockedBloom f = filter;
      for (long k : keys) {
        f.add(k);
      }
      return keys.length;
    }

    @Override
    public boolean[] mightContainAll(long[] keys) {
      BlockedBloom f = filter;
      boolean[] answers = new boolean[keys.length];
      for (int i = 0; i < keys.length; i++) {
        answers[i] = f.mayContain(keys[i]);
      }
      return answers;
    }

    @Override
    public void reset() {
      filter = FastFilterBloom.empty(n);
    }
  }

  static LongFilter create(Impl impl, int n) {
    return switch (impl) {
      case FASTFILTER -> new Fast(n);
      case OURS_BLOCKED, OURS_STANDARD -> new Ours(impl, n);
      default -> throw new IllegalArgumentException("the long-path benchmark takes FASTFILTER, OURS_BLOCKED "
          + "or OURS_STANDARD, not " + impl);
    };
  }

  /** A filter holding keys 0 .. n-1 and {@link QueryKeys#COUNT} half-present queries, unboxed. */
  @State(Scope.Benchmark)
  public static class Filled {
    @Param({"FASTFILTER", "OURS_BLOCKED"})
    public Impl impl;

    @Param({"1000000", "10000000"})
    public int n;

    LongFilter filter;
    long[] queries;

    @Setup(Level.Trial)
    public void fill() {
      filter = create(impl, n);
      long[] chunk = new long[BATCH];
      for (int base = 0; base < n; base += BATCH) {
        int len = Math.min(BATCH, n - base);
        for (int i = 0; i < len; i++) {
          chunk[i] = Keys.longKey(base + i);
        }
        for (int i = 0; i < len; i++) {
          filter.add(chunk[i]);
        }
      }
      long[] indices = QueryKeys.halfPresentIndices(n, QueryKeys.COUNT);
      queries = new long[indices.length];
      for (int i = 0; i < indices.length; i++) {
        queries[i] = Keys.longKey(indices[i]);
      }
    }
  }

  /** An empty filter and n fresh keys, emptied as {@link FreshKeysState} is, so no add is a re-add. */
  @State(Scope.Benchmark)
  public static class Fresh {
    @Param({"FASTFILTER", "OURS_BLOCKED"})
    public Impl impl;

    @Param({"1000000", "10000000"})
    public int n;

    LongFilter filter;
    long[] fresh;

    @Setup(Level.Trial)
    public void prepare() {
      filter = create(impl, n);
      fresh = new long[n - n % BATCH];
      for (int i = 0; i < fresh.length; i++) {
        fresh[i] = Keys.longKey(i);
      }
    }

    @Setup(Level.Iteration)
    public void empty() {
      filter.reset();
      batchAt = 0;
    }

    /** Where the next {@link #nextBatch} starts: one thread only. */
    int batchAt;

    /** The next BATCH fresh keys, copied into the batch's array; empties the filter when they are used up. */
    long[] nextBatch(Batch batch) {
      if (batchAt == fresh.length) {
        filter.reset();
        batchAt = 0;
      }
      System.arraycopy(fresh, batchAt, batch.keys, 0, BATCH);
      batchAt += BATCH;
      return batch.keys;
    }

    /** The next key's index, emptying the filter when the keys are used up. */
    int next(ThreadCursor cursor) {
      int i = cursor.nextBelow(fresh.length);
      if (i < 0) {
        filter.reset();
        i = cursor.restart();
      }
      return i;
    }
  }

  /** Per-thread scratch for batch lookups: the next {@link #BATCH} queries, copied. */
  @State(Scope.Thread)
  public static class Batch {
    final long[] keys = new long[BATCH];
    int at;

    long[] nextQueries(long[] queries) {
      System.arraycopy(queries, at, keys, 0, BATCH);
      at = (at + BATCH) & (QueryKeys.COUNT - 1);
      return keys;
    }
  }

  @Benchmark
  @Threads(1)
  public boolean mightContainLong(Filled state, ThreadCursor cursor) {
    return state.filter.mightContain(state.queries[cursor.nextMasked(QueryKeys.COUNT - 1)]);
  }

  /** Two threads look up at once (FastFilter included: lookups only read). */
  @Benchmark
  @Threads(2)
  public boolean mightContainLongShared(Filled state, ThreadCursor cursor) {
    return state.filter.mightContain(state.queries[cursor.nextMasked(QueryKeys.COUNT - 1)]);
  }

  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(BATCH)
  public boolean[] mightContainAll(Filled state, Batch batch) {
    return state.filter.mightContainAll(batch.nextQueries(state.queries));
  }

  @Benchmark
  @Threads(1)
  public boolean addLong(Fresh state, ThreadCursor cursor) {
    return state.filter.add(state.fresh[state.next(cursor)]);
  }

  /** The next BATCH fresh keys per call (one thread), copied as {@link #mightContainAll}'s queries are. */
  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(BATCH)
  public int addAll(Fresh state, Batch batch) {
    return state.filter.addAll(state.nextBatch(batch));
  }
}
