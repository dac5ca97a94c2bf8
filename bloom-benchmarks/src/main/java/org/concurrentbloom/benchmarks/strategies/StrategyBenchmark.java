package org.concurrentbloom.benchmarks.strategies;

import java.util.concurrent.TimeUnit;
import org.concurrentbloom.benchmarks.BenchmarkDefaults;
import org.concurrentbloom.benchmarks.KeyHashes;
import org.concurrentbloom.benchmarks.KeyType;
import org.concurrentbloom.benchmarks.QueryKeys;
import org.concurrentbloom.benchmarks.ThreadCursor;
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
 * What thread safety costs, strategy by strategy: the same standard Bloom filter (same m, k and probe
 * positions) made safe by lock-free CAS, a read-write lock, striped locks or {@code synchronized}, with
 * one thread (the price of the mechanism alone) and two threads on one shared filter (how it scales or
 * collapses under contention). n = 10M e-mail keys at p = 1%, a 12 MB array, as in the library cases.
 *
 * <p>Unlike the library benchmarks, the keys are hashed before the timed loop, not just built: hashing
 * costs the same whatever the strategy, so leaving it out shows the differences that matter at full
 * size. The lookups walk a half-present shuffled array; the adds use fresh keys and an emptied filter
 * per iteration and per pass over the keys, for the reasons given in FreshKeysState. Results go back
 * to JMH, so nothing is optimised away. With two threads, ns/op is per thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class StrategyBenchmark {
  /** A filter holding keys 0 .. n-1 and the hashes of a half-present query array. */
  @State(Scope.Benchmark)
  public static class Filled {
    @Param({"ATOMIC_CAS", "READ_WRITE_LOCK", "STRIPED_LOCKS", "SYNCHRONIZED"})
    public Strategy strategy;

    @Param({"10000000"})
    public int n;

    ConcurrentBits bits;
    long[] queryHashes;

    @Setup(Level.Trial)
    public void fillAndPrepare() {
      bits = strategy.create(n, BenchmarkDefaults.FPP);
      int chunk = 1 << 16;
      for (long base = 0; base < n; base += chunk) {
        int len = (int) Math.min(chunk, n - base);
        long[] hashes = KeyHashes.ofEmails(base, len);
        for (int i = 0; i < len; i++) {
          bits.add(hashes[2 * i], hashes[2 * i + 1]);
        }
      }
      queryHashes = KeyHashes.of(QueryKeys.halfPresent(KeyType.STRING, n, QueryKeys.COUNT));
    }
  }

  /** An empty filter and the hashes of n fresh keys. */
  @State(Scope.Benchmark)
  public static class Fresh {
    @Param({"ATOMIC_CAS", "READ_WRITE_LOCK", "STRIPED_LOCKS", "SYNCHRONIZED"})
    public Strategy strategy;

    @Param({"10000000"})
    public int n;

    /** Volatile: a thread that runs out of keys swaps in an empty filter while the other adds. */
    volatile ConcurrentBits bits;
    long[] freshHashes;

    @Setup(Level.Trial)
    public void prepare() {
      freshHashes = KeyHashes.ofEmails(0, n);
    }

    @Setup(Level.Iteration)
    public void empty() {
      bits = strategy.create(n, BenchmarkDefaults.FPP);
    }

    boolean addNext(ThreadCursor cursor) {
      int i = cursor.nextBelow(n);
      if (i < 0) {
        bits = strategy.create(n, BenchmarkDefaults.FPP);
        i = cursor.restart();
      }
      return bits.add(freshHashes[2 * i], freshHashes[2 * i + 1]);
    }
  }

  private static boolean mightContainNext(Filled state, ThreadCursor cursor) {
    int i = cursor.nextMasked(QueryKeys.COUNT - 1);
    return state.bits.mightContain(state.queryHashes[2 * i], state.queryHashes[2 * i + 1]);
  }

  @Benchmark
  @Threads(1)
  public boolean mightContain(Filled state, ThreadCursor cursor) {
    return mightContainNext(state, cursor);
  }

  @Benchmark
  @Threads(2)
  public boolean mightContainShared(Filled state, ThreadCursor cursor) {
    return mightContainNext(state, cursor);
  }

  @Benchmark
  @Threads(1)
  public boolean add(Fresh state, ThreadCursor cursor) {
    return state.addNext(cursor);
  }

  @Benchmark
  @Threads(2)
  public boolean addShared(Fresh state, ThreadCursor cursor) {
    return state.addNext(cursor);
  }
}
