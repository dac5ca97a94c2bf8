package org.concurrentbloom.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.concurrentbloom.BloomFilter;
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
 * Time per key of our batch lookup, {@code mightContainAll}, over the same prepared half-present
 * queries as {@link MightContainBenchmark}, so the two can be compared row by row (Guava and Commons
 * have no batch lookup; the report compares these rows with Guava's single lookups).
 *
 * <p>A batch hashes a run of keys first and then touches every key's cache lines in one loop of
 * independent loads, so the CPU has many misses in flight instead of one: it should pay off at n = 10M,
 * where single lookups wait on memory. Each invocation checks {@link #BATCH} keys and JMH divides by
 * that ({@code @OperationsPerInvocation}), so the score is per key. String batches go through
 * {@code mightContainAll(List)}, long ones through {@code mightContainAll(long[])} (no boxing: that is
 * what the long API offers). The result array is returned to JMH, so nothing is optimised away.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class BatchBenchmark {
  /** Keys per call: large enough that the result array and the call cost vanish per key. */
  static final int BATCH = 1024;
  private static final int BATCHES = QueryKeys.COUNT / BATCH;

  /** Our filter, filled with n keys, and the query array cut into batches. Thread-safe. */
  @State(Scope.Benchmark)
  public static class Batches {
    @Param({"OURS_STANDARD", "OURS_BLOCKED"})
    public Impl impl;

    @Param({"1000000", "10000000"})
    public int n;

    @Param({"STRING", "LONG"})
    public KeyType keys;

    BloomFilter<Object> filter;
    List<?>[] objectBatches;
    long[][] longBatches;

    @Setup(Level.Trial)
    public void fillAndPrepare() {
      OursFilter ours = new OursFilter(keys, n, BenchmarkDefaults.FPP, impl.requireOurs());
      ours.fill(keys, 0, n);
      filter = ours.filter();
      Object[] queries = QueryKeys.halfPresent(keys, n, QueryKeys.COUNT);
      objectBatches = new List<?>[BATCHES];
      longBatches = new long[BATCHES][];
      for (int b = 0; b < BATCHES; b++) {
        Object[] batch = Arrays.copyOfRange(queries, b * BATCH, (b + 1) * BATCH);
        if (keys == KeyType.LONG) {
          longBatches[b] = Arrays.stream(batch).mapToLong(k -> (Long) k).toArray();
        } else {
          objectBatches[b] = Arrays.asList(batch);
        }
      }
    }

    boolean[] lookUpNext(ThreadCursor cursor) {
      int b = cursor.nextMasked(BATCHES - 1);
      return keys == KeyType.LONG
          ? filter.mightContainAll(longBatches[b])
          : filter.mightContainAll(objectBatches[b]);
    }
  }

  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(BATCH)
  public boolean[] mightContainAll(Batches state, ThreadCursor cursor) {
    return state.lookUpNext(cursor);
  }

  @Benchmark
  @Threads(2)
  @OperationsPerInvocation(BATCH)
  public boolean[] mightContainAllShared(Batches state, ThreadCursor cursor) {
    return state.lookUpNext(cursor);
  }
}
