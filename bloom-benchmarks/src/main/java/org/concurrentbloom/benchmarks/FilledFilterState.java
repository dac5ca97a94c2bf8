package org.concurrentbloom.benchmarks;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A filter holding its n expected keys (so at its design false-positive rate) and a prepared array of
 * {@link QueryKeys#COUNT} lookups, half of them present. Subclasses declare which implementations may be
 * chosen: the two-thread benchmarks must leave out the ones that are not thread-safe.
 */
@State(Scope.Benchmark)
public abstract class FilledFilterState {
  @Param({"1000000", "10000000"})
  public int n;

  @Param({"STRING", "LONG"})
  public KeyType keys;

  FilterUnderTest filter;
  Object[] queries;

  /** The implementation chosen by the subclass's {@code @Param}. */
  abstract Impl impl();

  @Setup(Level.Trial)
  public void fillAndPrepare() {
    filter = impl().create(keys, n, BenchmarkDefaults.FPP);
    filter.fill(keys, 0, n);
    queries = QueryKeys.halfPresent(keys, n, QueryKeys.COUNT);
  }

  boolean mightContainNext(ThreadCursor cursor) {
    return filter.mightContain(queries[cursor.nextMasked(QueryKeys.COUNT - 1)]);
  }
}
