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
 * {@link MightContainBenchmark#mightContain} and {@link AddBenchmark#add} for the peers that take long
 * keys only: FastFilter_java's BlockedBloom. JMH crosses every {@code @Param} with every other, so in
 * those classes FastFilter would also get String cases it cannot run; here the keys are always LONG
 * and there is no {@code keys} parameter (so a command-line {@code -p keys=STRING} leaves this class
 * alone).
 *
 * <p>The states wrap the very states of those two benchmarks, with the same settings, so the rows are
 * measured exactly like theirs, and the report puts them in the same tables ({@code mightContain} and
 * {@code add}, 1 thread, long keys) next to ours, Guava and the others. Single-threaded only: BlockedBloom
 * is not thread-safe.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class LongKeysBenchmark {

  /** A filled filter of a long-key-only implementation and its half-present long queries. */
  @State(Scope.Benchmark)
  public static class Filled {
    @Param({"FASTFILTER"})
    public Impl impl;

    @Param({"1000000", "10000000"})
    public int n;

    FilledFilterState lookups;

    @Setup(Level.Trial)
    public void fillAndPrepare() {
      Impl chosen = impl;
      lookups = new FilledFilterState() {
        @Override
        Impl impl() {
          return chosen;
        }
      };
      lookups.n = n;
      lookups.keys = KeyType.LONG;
      lookups.fillAndPrepare();
    }
  }

  /** An empty filter of a long-key-only implementation and n fresh long keys. */
  @State(Scope.Benchmark)
  public static class Fresh {
    @Param({"FASTFILTER"})
    public Impl impl;

    @Param({"1000000", "10000000"})
    public int n;

    FreshKeysState adds;

    @Setup(Level.Trial)
    public void prepare() {
      Impl chosen = impl;
      adds = new FreshKeysState() {
        @Override
        Impl impl() {
          return chosen;
        }
      };
      adds.n = n;
      adds.keys = KeyType.LONG;
      adds.prepare();
    }

    /** As {@link FreshKeysState#empty}: JMH calls the wrapped state's iteration set-up only through here. */
    @Setup(Level.Iteration)
    public void empty() {
      adds.empty();
    }
  }

  @Benchmark
  @Threads(1)
  public boolean mightContain(Filled state, ThreadCursor cursor) {
    return state.lookups.mightContainNext(cursor);
  }

  @Benchmark
  @Threads(1)
  public boolean add(Fresh state, ThreadCursor cursor) {
    return state.adds.addNext(cursor);
  }
}
