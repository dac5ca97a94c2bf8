package org.concurrentbloom.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time of one {@code mightContain} on a filter that holds its n expected keys, for our two layouts,
 * Guava, Commons Collections and DataSketches, String and long keys (FastFilter, which takes long keys
 * only, is in {@link LongKeysBenchmark}), n = 1M (a filter of 1.2 MB, about the size of a
 * core's L2 plus a share of L3) and 10M (12 MB, past the caches: every probe can miss to memory).
 *
 * <p>The keys are built before the timed loop, because making an e-mail string costs about as much as
 * the lookup itself and would blur the comparison; the loop only walks the prepared array. Half of the
 * queries are present and half absent, shuffled: absent keys usually stop at the first clear bit, present
 * ones test all k, and a fixed pattern would let the branch predictor learn the answers. Each result is
 * returned to JMH, which consumes it, so the lookup cannot be optimised away.
 *
 * <p>{@link #mightContainShared} runs two threads on one shared filter, each walking its own half of the
 * query array; its ns/op is per thread, so the total rate is two operations per that time.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class MightContainBenchmark {

  /** Any implementation, for one thread. */
  @State(Scope.Benchmark)
  public static class AnyFilter extends FilledFilterState {
    @Param({"OURS_STANDARD", "OURS_BLOCKED", "GUAVA", "COMMONS", "DATASKETCHES"})
    public Impl impl;

    @Override
    Impl impl() {
      return impl;
    }
  }

  /**
   * The thread-safe implementations, shared by two threads. Commons Collections, DataSketches and
   * FastFilter are not thread-safe, so they sit the two-thread cases out.
   */
  @State(Scope.Benchmark)
  public static class SharedFilter extends FilledFilterState {
    @Param({"OURS_STANDARD", "OURS_BLOCKED", "GUAVA"})
    public Impl impl;

    @Override
    Impl impl() {
      return impl.requireThreadSafe();
    }
  }

  @Benchmark
  @Threads(1)
  public boolean mightContain(AnyFilter state, ThreadCursor cursor) {
    return state.mightContainNext(cursor);
  }

  @Benchmark
  @Threads(2)
  public boolean mightContainShared(SharedFilter state, ThreadCursor cursor) {
    return state.mightContainNext(cursor);
  }
}
