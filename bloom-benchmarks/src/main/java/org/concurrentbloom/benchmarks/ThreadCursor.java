package org.concurrentbloom.benchmarks;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * One benchmark thread's position in a key array that all threads share: thread t of T reads indices
 * t, t + T, t + 2T, ... Interleaving keeps the threads on disjoint keys (two threads adding the same
 * "fresh" key would make the second add a cheaper re-add) while both still walk the array in memory
 * order. Thread-scoped, so each thread's cursor sits in its own padded object: no false sharing.
 */
@State(Scope.Thread)
public class ThreadCursor {
  private int first;
  private int step;
  private int next;

  @Setup(Level.Trial)
  public void init(ThreadParams thread) {
    first = thread.getThreadIndex();
    step = thread.getThreadCount();
    next = first;
  }

  /** Every iteration starts from the same place, as the filter it works on is reset per iteration. */
  @Setup(Level.Iteration)
  public void rewind() {
    next = first;
  }

  /** The next index into an array whose length is {@code mask + 1}, a power of two; wraps around. */
  public int nextMasked(int mask) {
    int i = next;
    next = (i + step) & mask;
    return i;
  }

  /**
   * The next index below {@code length}, or -1 once this thread has used up its share of the array;
   * the caller then empties its filter and continues with {@link #restart}.
   */
  public int nextBelow(int length) {
    int i = next;
    if (i >= length) {
      return -1;
    }
    next = i + step;
    return i;
  }

  /** Starts this thread's share over; returns its first index. */
  public int restart() {
    next = first + step;
    return first;
  }
}
