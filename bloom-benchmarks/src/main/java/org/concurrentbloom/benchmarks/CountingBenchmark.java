package org.concurrentbloom.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Counting filters: bloom-core's {@code CountingBloomFilter} against Commons Collections 4.6's
 * {@code ArrayCountingBloomFilter}, String keys, n = 1M at p = 1%: 9.6M counters, 4.8 MB for ours
 * (4 bits each), 38 MB for Commons (an int each). One thread, since the Commons filter is not
 * thread-safe; {@link #addShared} and {@link #mightContainShared} run ours alone with two threads on one
 * filter (ns/op per thread).
 *
 * <ul>
 *   <li>{@link #add}: adds of keys the filter has not seen, emptied as {@link FreshKeysState} explains.
 *   <li>{@link #mightContain}: lookups in a filter holding its n keys, half present, as in
 *       {@link MightContainBenchmark}.
 *   <li>{@link #removeThenAdd}: a remove of a present key and the add that restores it, on the full
 *       filter; the remove alone costs about this less {@link #add}.
 * </ul>
 *
 * <p>{@code bloom-benchmarks/run.sh} runs it with the rest; its report compares ours with Commons.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class CountingBenchmark {
  static final int N = 1_000_000;

  /** An empty filter and N keys it has not seen; subclasses choose which implementations may run. */
  @State(Scope.Benchmark)
  public abstract static class Fresh {
    CountingUnderTest filter;
    Object[] keys;

    abstract CountingImpl impl();

    @Setup(Level.Trial)
    public void prepare() {
      filter = impl().create(N, BenchmarkDefaults.FPP);
      keys = QueryKeys.fresh(KeyType.STRING, N);
    }

    @Setup(Level.Iteration)
    public void empty() {
      filter.reset();
    }
  }

  /** {@link Fresh} for either implementation, one thread. */
  @State(Scope.Benchmark)
  public static class AnyFresh extends Fresh {
    @Param({"OURS", "COMMONS"})
    public CountingImpl impl;

    @Override
    CountingImpl impl() {
      return impl;
    }
  }

  /** {@link Fresh} for the thread-safe implementation, shared by two threads. */
  @State(Scope.Benchmark)
  public static class SharedFresh extends Fresh {
    @Param({"OURS"})
    public CountingImpl impl;

    @Override
    CountingImpl impl() {
      return impl.requireThreadSafe();
    }
  }

  /** A filter holding keys 0..N-1 and a shuffled array of lookups, half of them present. */
  @State(Scope.Benchmark)
  public abstract static class Filled {
    CountingUnderTest filter;
    /** The keys the filter holds, 0..N-1, in order. */
    Object[] present;
    Object[] queries;

    abstract CountingImpl impl();

    @Setup(Level.Trial)
    public void fill() {
      filter = impl().create(N, BenchmarkDefaults.FPP);
      present = QueryKeys.fresh(KeyType.STRING, N);
      for (Object key : present) {
        filter.add(key);
      }
      queries = QueryKeys.halfPresent(KeyType.STRING, N, QueryKeys.COUNT);
    }

    boolean mightContainNext(ThreadCursor cursor) {
      return filter.mightContain(queries[cursor.nextMasked(QueryKeys.COUNT - 1)]);
    }
  }

  /** {@link Filled} for either implementation, one thread. */
  @State(Scope.Benchmark)
  public static class AnyFilled extends Filled {
    @Param({"OURS", "COMMONS"})
    public CountingImpl impl;

    @Override
    CountingImpl impl() {
      return impl;
    }
  }

  /** {@link Filled} for the thread-safe implementation, shared by two threads. */
  @State(Scope.Benchmark)
  public static class SharedFilled extends Filled {
    @Param({"OURS"})
    public CountingImpl impl;

    @Override
    CountingImpl impl() {
      return impl.requireThreadSafe();
    }
  }

  @Benchmark
  @Threads(1)
  public boolean add(AnyFresh state, ThreadCursor cursor) {
    return addNext(state, cursor);
  }

  /** Two threads adding disjoint keys to one filter: the gate's shared entries and the CASes contend. */
  @Benchmark
  @Threads(2)
  public boolean addShared(SharedFresh state, ThreadCursor cursor) {
    return addNext(state, cursor);
  }

  private static boolean addNext(Fresh state, ThreadCursor cursor) {
    int i = cursor.nextBelow(state.keys.length);
    if (i < 0) {
      state.filter.reset();
      i = cursor.restart();
    }
    return state.filter.add(state.keys[i]);
  }

  @Benchmark
  @Threads(1)
  public boolean mightContain(AnyFilled state, ThreadCursor cursor) {
    return state.mightContainNext(cursor);
  }

  @Benchmark
  @Threads(2)
  public boolean mightContainShared(SharedFilled state, ThreadCursor cursor) {
    return state.mightContainNext(cursor);
  }

  /**
   * One remove of a present key and the add that puts it back, so the filter stays full. Subtract
   * {@link #add} for the remove alone. (A pass of removes emptying the filter, timed as a single shot,
   * would measure the remove alone, but run.sh's {@code -bm avgt} turns every benchmark into average
   * time, which would repeat such a pass on an empty filter.)
   */
  @Benchmark
  @Threads(1)
  public boolean removeThenAdd(AnyFilled state, ThreadCursor cursor) {
    int i = cursor.nextBelow(N);
    if (i < 0) {
      i = cursor.restart();
    }
    Object key = state.present[i];
    boolean removed = state.filter.remove(key);
    state.filter.add(key);
    return removed;
  }
}
