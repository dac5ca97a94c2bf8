package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Why bloom-core does not set bits with {@code words[w] |= mask}. Two threads OR different bits into
 * the same word of a plain {@code long[]}; each does read, OR, write, so one thread can overwrite the
 * word with a value read before the other's write, and that bit is lost. In a Bloom filter a lost bit
 * is a false negative, the one error a Bloom filter must never make.
 *
 * <p>Result: (bit 3 set, bit 41 set) after both threads finished. "One lost" is the demonstration;
 * it is timing-dependent and may take a longer run to show. Both lost is impossible: the last write
 * always carries its own writer's bit.
 *
 * <p>Compare {@link AtomicWordsNeverLoseBits}, the same race with bloom-core's CAS loop.
 */
@JCStressTest
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "Both bits kept.")
@Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE_INTERESTING,
    desc = "Lost update: one thread's read-OR-write overwrote the other's bit.")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "The last write carries its own bit.")
@State
public class PlainLongArrayLosesBits {
  final long[] words = new long[1];

  @Actor
  public void actor1() {
    words[0] |= 1L << 3;
  }

  @Actor
  public void actor2() {
    words[0] |= 1L << 41;
  }

  @Arbiter
  public void arbiter(ZZ_Result r) {
    r.r1 = (words[0] & (1L << 3)) != 0;
    r.r2 = (words[0] & (1L << 41)) != 0;
  }
}
