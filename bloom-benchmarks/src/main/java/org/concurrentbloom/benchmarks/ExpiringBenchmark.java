package org.concurrentbloom.benchmarks;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 15: bloom-core's {@code ExpiringBloomFilter} against Commons Collections' {@code LayeredBloomFilter}
 * set up as the same sliding window ({@link ExpiringWindow}: G = 8 generations or layers of one one-hour
 * slot, a 7-hour window, n String keys per window at p = 1%, the same bits per window item), both on a
 * {@link ManualClock} that moves only when the benchmark says, so that nothing expires during a lookup or
 * add measurement.
 *
 * <ul>
 *   <li>{@link #mightContain}: a filter that has seen a full window (G slots of ⌈n/(G − 1)⌉ keys, so all
 *       G generations loaded) and the half-present, shuffled query array of {@link MightContainBenchmark}
 *       (present keys from the whole window). {@link #mightContainShared}: ours, two threads.
 *   <li>{@link #add}: fresh keys into the current generation of such a filter. One invocation adds
 *       {@value #ADDS_PER_CALL} keys (the time is per add); before an invocation that would take the slot
 *       past its ⌈n/(G − 1)⌉ keys, an untimed setup advances the clock and runs the expiry step, so the
 *       current generation's load cycles between empty and nearly full (as at the design rate), no step is
 *       timed. Keys come round again only after G slots, when their generation has been recycled, so
 *       every add is of a key absent from the filter. {@link #addShared}: ours, two threads sharing the
 *       filter and the key sequence (one thread may step while the other adds: that one's adds then read
 *       a time past the current slot and help finish the step, inside its timed invocation).
 *   <li>{@link #expiryStep}: one step of a full window: the clock advances one slot and one add runs the
 *       step (ours: clearing the generation to be reused, one pass over all G·m bits; Commons: dropping
 *       the oldest layer and allocating a new target). An untimed setup before each step fills the
 *       current generation back to ⌈n/(G − 1)⌉ keys, so every step recycles a fully loaded generation.
 *       Reported in µs.
 * </ul>
 *
 * <p>Commons' filter is not thread-safe and sits the two-thread cases out. The parameters follow the other
 * library benchmarks ({@code impl}, {@code n}, {@code keys}), and the report puts these rows in tables of
 * their own, compared with {@code COMMONS_LAYERED}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ExpiringBenchmark {
  /** Adds per invocation of {@link #add}: small against a slot's keys (142,858 at n = 1M), so a slot holds many. */
  static final int ADDS_PER_CALL = 8_192;

  /** The parameters every state shares, and filling a window. */
  @State(Scope.Benchmark)
  public abstract static class Window {
    @Param({"1000000", "10000000"})
    public int n;

    @Param({"STRING"})
    public KeyType keys;

    ExpiringUnderTest filter;
    /** ⌈n/(G − 1)⌉: the keys of one slot. */
    int perSlot;

    abstract ExpiringImpl impl();

    /** G·perSlot: the keys of a full window. */
    int windowKeys() {
      return ExpiringWindow.GENERATIONS * perSlot;
    }

    /**
     * A new filter that has seen a full window: slots 0 .. G − 1 of perSlot keys each, key i in slot
     * i / perSlot, the last slot current (and full). {@code cycle} holds the keys, or is null to make them.
     */
    void fillWindow(Object[] cycle) {
      filter = impl().create(n, BenchmarkDefaults.FPP);
      perSlot = ExpiringWindow.perSlot(n);
      for (int slot = 0; slot < ExpiringWindow.GENERATIONS; slot++) {
        if (slot > 0) {
          filter.advanceSlot();
        }
        for (int i = slot * perSlot; i < (slot + 1) * perSlot; i++) {
          filter.add(cycle == null ? keys.key(i) : cycle[i]);
        }
      }
      System.out.printf(Locale.ROOT, "# %s n=%d: %d layers, %d bits, %.2f bits per window item%n", impl(), n,
          filter.depth(), filter.bitSize(), (double) filter.bitSize() / n);
    }
  }

  /** A full window and the half-present query array. */
  public abstract static class Filled extends Window {
    Object[] queries;

    @Setup(Level.Trial)
    public void fillAndPrepare() {
      fillWindow(null);
      queries = QueryKeys.halfPresent(keys, windowKeys(), QueryKeys.COUNT);
    }

    boolean mightContainNext(ThreadCursor cursor) {
      return filter.mightContain(queries[cursor.nextMasked(QueryKeys.COUNT - 1)]);
    }
  }

  /** Any implementation, for one thread. */
  public static class AnyFilled extends Filled {
    @Param({"OURS_EXPIRING", "COMMONS_LAYERED"})
    public ExpiringImpl impl;

    @Override
    ExpiringImpl impl() {
      return impl;
    }
  }

  /** Ours, shared by two threads. */
  public static class SharedFilled extends Filled {
    @Param({"OURS_EXPIRING"})
    public ExpiringImpl impl;

    @Override
    ExpiringImpl impl() {
      return impl.requireThreadSafe();
    }
  }

  /**
   * A full window taking fresh keys: the window's G·perSlot keys in an array, added again in order from
   * the start (key i again in a slot G later than before, when its generation has been recycled).
   */
  public abstract static class Adding extends Window {
    Object[] cycle;
    /** The position of the next block of keys, claimed ADDS_PER_CALL at a time. */
    final AtomicLong next = new AtomicLong();
    /** Adds into the current slot's generation. */
    final AtomicInteger inSlot = new AtomicInteger();
    long steps;
    int fullestSlot;

    @Setup(Level.Trial)
    public void fillAndPrepare() {
      cycle = QueryKeys.fresh(keys, ExpiringWindow.GENERATIONS * ExpiringWindow.perSlot(n));
      fillWindow(cycle);
      inSlot.set(perSlot);
      next.set(0);
    }

    /**
     * Before each invocation, untimed: if the slot has no room for two more invocations' keys (one per
     * thread), begins the next slot and runs its expiry step with the first of its keys.
     */
    @Setup(Level.Invocation)
    public void stepIfDue() {
      if (inSlot.get() + 2 * ADDS_PER_CALL <= perSlot) {
        return;
      }
      synchronized (this) {
        int in = inSlot.get();
        if (in + 2 * ADDS_PER_CALL <= perSlot) {
          return;
        }
        fullestSlot = Math.max(fullestSlot, in);
        inSlot.set(0);
        filter.advanceSlot();
        addBlock(1);
        steps++;
      }
    }

    /** Adds the next {@code count} keys; returns how many the filter reported absent. */
    int addBlock(int count) {
      int length = cycle.length;
      int i = (int) (next.getAndAdd(count) % length);
      int absent = 0;
      for (int j = 0; j < count; j++) {
        if (filter.add(cycle[i])) {
          absent++;
        }
        if (++i == length) {
          i = 0;
        }
      }
      inSlot.addAndGet(count);
      return absent;
    }

    @TearDown(Level.Trial)
    public void report() {
      System.out.printf(Locale.ROOT, "# %s n=%d: %d expiry steps between invocations, at most %d of %d keys"
          + " in a slot%n", impl(), n, steps, Math.max(fullestSlot, inSlot.get()), perSlot);
    }
  }

  /** Any implementation, for one thread. */
  public static class AnyAdding extends Adding {
    @Param({"OURS_EXPIRING", "COMMONS_LAYERED"})
    public ExpiringImpl impl;

    @Override
    ExpiringImpl impl() {
      return impl;
    }
  }

  /** Ours, shared by two threads. */
  public static class SharedAdding extends Adding {
    @Param({"OURS_EXPIRING"})
    public ExpiringImpl impl;

    @Override
    ExpiringImpl impl() {
      return impl.requireThreadSafe();
    }
  }

  /** A full window whose current generation is filled back up before every step. */
  @State(Scope.Benchmark)
  public static class Stepping extends Window {
    @Param({"OURS_EXPIRING", "COMMONS_LAYERED"})
    public ExpiringImpl impl;

    Object[] cycle;
    int next;
    int inSlot;

    @Override
    ExpiringImpl impl() {
      return impl;
    }

    @Setup(Level.Trial)
    public void fillAndPrepare() {
      cycle = QueryKeys.fresh(keys, ExpiringWindow.GENERATIONS * ExpiringWindow.perSlot(n));
      fillWindow(cycle);
      next = 0;
      inSlot = perSlot;
    }

    /** Untimed: fills the current slot's generation to perSlot keys, so the window is fully loaded. */
    @Setup(Level.Invocation)
    public void refill() {
      while (inSlot < perSlot) {
        filter.add(nextKey());
        inSlot++;
      }
    }

    /** One expiry step: the next slot begins, and its first add recycles the oldest generation. */
    boolean step() {
      filter.advanceSlot();
      inSlot = 1;
      return filter.add(nextKey());
    }

    private Object nextKey() {
      Object key = cycle[next];
      next = next + 1 == cycle.length ? 0 : next + 1;
      return key;
    }
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

  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(ADDS_PER_CALL)
  public int add(AnyAdding state) {
    return state.addBlock(ADDS_PER_CALL);
  }

  @Benchmark
  @Threads(2)
  @OperationsPerInvocation(ADDS_PER_CALL)
  public int addShared(SharedAdding state) {
    return state.addBlock(ADDS_PER_CALL);
  }

  @Benchmark
  @Threads(1)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public boolean expiryStep(Stepping state) {
    return state.step();
  }
}
