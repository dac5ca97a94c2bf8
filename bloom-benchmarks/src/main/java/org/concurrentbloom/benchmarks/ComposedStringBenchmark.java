package org.concurrentbloom.benchmarks;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.Arrays;
import java.util.List;
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
 * String lookups against what a user could compose instead of this library (issue 24): hash4j's XXH3-64
 * of the String (its chars, as strategy 6 hashes them) fed to FastFilter_java's {@code BlockedBloom} as a
 * long key, against our blocked filter's {@code mightContain(String)} and {@code mightContainAll(List)}.
 * The composition has no batch call; its batch row loops over its single lookup. Same e-mail-like keys
 * and half-present queries as {@link MightContainBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ComposedStringBenchmark {
  /** Keys per batch call, as {@link LongPathBenchmark#BATCH}. */
  static final int BATCH = 1024;
  private static final Hasher64 XXH3 = Hashing.xxh3_64();

  /** A filled filter of either kind and its queries. */
  @State(Scope.Benchmark)
  public static class Filled {
    /** XXH3_FASTFILTER: the composition; OURS_BLOCKED: {@code BloomFilter.builder(..).blocked()} at p = 1%. */
    @Param({"XXH3_FASTFILTER", "OURS_BLOCKED"})
    public String impl;

    @Param({"1000000", "10000000"})
    public int n;

    BlockedBloom composed;
    BloomFilter<CharSequence> ours;
    String[] queries;

    @Setup(Level.Trial)
    public void fill() {
      if (impl.equals("XXH3_FASTFILTER")) {
        composed = FastFilterBloom.empty(n);
        for (long i = 0; i < n; i++) {
          composed.add(XXH3.hashCharsToLong(Keys.email(i)));
        }
      } else if (impl.equals("OURS_BLOCKED")) {
        ours = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(n).fpp(0.01).blocked().build();
        for (long i = 0; i < n; i++) {
          ours.add(Keys.email(i));
        }
      } else {
        throw new IllegalArgumentException("impl must be XXH3_FASTFILTER or OURS_BLOCKED, not " + impl);
      }
      Object[] keys = QueryKeys.halfPresent(KeyType.STRING, n, QueryKeys.COUNT);
      queries = Arrays.copyOf(keys, keys.length, String[].class);
    }

    boolean mightContain(String s) {
      return composed != null ? composed.mayContain(XXH3.hashCharsToLong(s)) : ours.mightContain(s);
    }

    boolean[] mightContainAll(List<String> batch) {
      if (ours != null) {
        return ours.mightContainAll(batch);
      }
      boolean[] results = new boolean[batch.size()];
      for (int i = 0; i < results.length; i++) {
        results[i] = composed.mayContain(XXH3.hashCharsToLong(batch.get(i)));
      }
      return results;
    }
  }

  /** Per-thread: the next {@link #BATCH} queries as a list view (no copy). */
  @State(Scope.Thread)
  public static class Batch {
    int at;

    List<String> next(String[] queries) {
      List<String> view = Arrays.asList(queries).subList(at, at + BATCH);
      at = (at + BATCH) & (QueryKeys.COUNT - 1);
      return view;
    }
  }

  @Benchmark
  @Threads(1)
  public boolean mightContain(Filled state, ThreadCursor cursor) {
    return state.mightContain(state.queries[cursor.nextMasked(QueryKeys.COUNT - 1)]);
  }

  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(BATCH)
  public boolean[] mightContainAll(Filled state, Batch batch) {
    return state.mightContainAll(batch.next(state.queries));
  }
}
