package org.concurrentbloom.benchmarks;

import java.util.concurrent.TimeUnit;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.ScalableBloomFilter;
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
 * What not knowing n up front costs: a {@link ScalableBloomFilter} grown to n = 1M String keys from a
 * small initial capacity, against a standard {@link BloomFilter} sized for 1M at the same p = 1%.
 *
 * <p>Grown from 1,000 the scalable filter has 10 layers (about 16.5 bits per key against 9.6), so a
 * query of an absent key probes every layer, and an add first asks every layer whether the key is
 * there; grown from 100,000 it has 4 layers. {@link #mightContain} uses the filled filters and the same
 * half-present query array as {@link MightContainBenchmark}. {@link #add} adds fresh keys to a filter
 * that is emptied per iteration and whenever the keys run out, as {@link FreshKeysState} explains; for
 * the scalable filters emptying means one small layer again, so the measured adds include growing
 * through all the layers (their allocations amortised over the adds).
 *
 * <p>The {@code impl}, {@code n} and {@code keys} parameters follow the other library benchmarks, so the
 * report puts these rows in the same tables (with no Guava row of their own, "vs Guava" is n/a when this
 * class runs alone).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ScalableBenchmark {

  /** The filters compared. */
  public enum Growth {
    /** A standard BloomFilter created for n keys. */
    SIZED_UP_FRONT,
    /** A ScalableBloomFilter with initial capacity 1,000 (growth factor 2, tightening ratio 0.9). */
    SCALABLE_FROM_1K,
    /** A ScalableBloomFilter with initial capacity 100,000. */
    SCALABLE_FROM_100K;

    MembershipFilter<CharSequence> create(long n) {
      return switch (this) {
        case SIZED_UP_FRONT -> BloomFilter.create(Funnels.stringFunnel(), n, BenchmarkDefaults.FPP);
        case SCALABLE_FROM_1K -> ScalableBloomFilter.create(Funnels.stringFunnel(), 1_000, BenchmarkDefaults.FPP);
        case SCALABLE_FROM_100K -> ScalableBloomFilter.create(Funnels.stringFunnel(), 100_000, BenchmarkDefaults.FPP);
      };
    }
  }

  /** The parameters both states share. */
  @State(Scope.Benchmark)
  public abstract static class Case {
    @Param({"SIZED_UP_FRONT", "SCALABLE_FROM_1K", "SCALABLE_FROM_100K"})
    public Growth impl;

    @Param({"1000000"})
    public int n;

    @Param({"STRING"})
    public KeyType keys;

    MembershipFilter<CharSequence> filter;
  }

  /** A filter that has taken its n keys, and the half-present query array. */
  public static class Grown extends Case {
    Object[] queries;

    @Setup(Level.Trial)
    public void grow() {
      filter = impl.create(n);
      for (long i = 0; i < n; i++) {
        filter.add((CharSequence) keys.key(i));
      }
      queries = QueryKeys.halfPresent(keys, n, QueryKeys.COUNT);
    }
  }

  /** An empty filter and n keys it has never seen. */
  public static class Growing extends Case {
    Object[] fresh;

    @Setup(Level.Trial)
    public void prepare() {
      filter = impl.create(n);
      fresh = QueryKeys.fresh(keys, n);
    }

    @Setup(Level.Iteration)
    public void empty() {
      filter.clear();
    }
  }

  @Benchmark
  @Threads(1)
  public boolean mightContain(Grown state, ThreadCursor cursor) {
    return lookUp(state, cursor);
  }

  @Benchmark
  @Threads(2)
  public boolean mightContainShared(Grown state, ThreadCursor cursor) {
    return lookUp(state, cursor);
  }

  @Benchmark
  @Threads(1)
  public boolean add(Growing state, ThreadCursor cursor) {
    return addFresh(state, cursor);
  }

  @Benchmark
  @Threads(2)
  public boolean addShared(Growing state, ThreadCursor cursor) {
    return addFresh(state, cursor);
  }

  private static boolean lookUp(Grown state, ThreadCursor cursor) {
    return state.filter.mightContain((CharSequence) state.queries[cursor.nextMasked(QueryKeys.COUNT - 1)]);
  }

  private static boolean addFresh(Growing state, ThreadCursor cursor) {
    int i = cursor.nextBelow(state.fresh.length);
    if (i < 0) {
      state.filter.clear();
      i = cursor.restart();
    }
    return state.filter.add((CharSequence) state.fresh[i]);
  }
}
