package org.concurrentbloom.benchmarks;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * An empty filter and n distinct keys it has never seen, for measuring adds of new keys.
 *
 * <p>How the filter is kept from overfilling: it is sized for n keys, the key array holds exactly n, and
 * it is reset (emptied) at the start of every iteration and again whenever a thread has used up its
 * share of the array. So it never holds more than n keys and every add is of a key not yet in it. Its
 * fill rises from empty towards n and starts over (a 10M filter may not get full within one iteration),
 * which is the same for every implementation. The reset inside the timed loop happens once per n adds
 * (twice, once per thread, with two threads) and costs about as much as allocating m/8 bytes: far below
 * 1% of the time of those adds. Without it an iteration of a fast filter at n = 1M would wrap many times
 * and re-add keys already present, which is cheaper and would flatter the fastest filters.
 */
@State(Scope.Benchmark)
public abstract class FreshKeysState {
  @Param({"1000000", "10000000"})
  public int n;

  @Param({"STRING", "LONG"})
  public KeyType keys;

  FilterUnderTest filter;
  Object[] fresh;

  abstract Impl impl();

  @Setup(Level.Trial)
  public void prepare() {
    filter = impl().create(keys, n, BenchmarkDefaults.FPP);
    fresh = QueryKeys.fresh(keys, n);
  }

  @Setup(Level.Iteration)
  public void empty() {
    filter.reset();
  }

  boolean addNext(ThreadCursor cursor) {
    int i = cursor.nextBelow(fresh.length);
    if (i < 0) {
      filter.reset();
      i = cursor.restart();
    }
    return filter.add(fresh[i]);
  }
}
