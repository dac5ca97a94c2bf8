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
 * Time of one {@code add} of a key the filter has not seen, for the same implementations, key types and
 * sizes as {@link MightContainBenchmark} (FastFilter's adds are in {@link LongKeysBenchmark}). Adding a new key is the expensive case: it must write bits
 * (with compare-and-swap in the thread-safe filters), where re-adding a present key may only read.
 *
 * <p>The keys are prepared before the timed loop, n distinct ones per fork, and the filter is emptied
 * per iteration and whenever the keys run out, so it never holds more than n keys and no add is a
 * re-add; see {@link FreshKeysState} for why and what that costs. {@link #addShared} has two threads
 * add disjoint keys to one shared filter, which is where lock-free adds must show they scale.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class AddBenchmark {

  /** Any implementation, for one thread. */
  @State(Scope.Benchmark)
  public static class AnyFilter extends FreshKeysState {
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
  public static class SharedFilter extends FreshKeysState {
    @Param({"OURS_STANDARD", "OURS_BLOCKED", "GUAVA"})
    public Impl impl;

    @Override
    Impl impl() {
      return impl.requireThreadSafe();
    }
  }

  @Benchmark
  @Threads(1)
  public boolean add(AnyFilter state, ThreadCursor cursor) {
    return state.addNext(cursor);
  }

  @Benchmark
  @Threads(2)
  public boolean addShared(SharedFilter state, ThreadCursor cursor) {
    return state.addNext(cursor);
  }
}
