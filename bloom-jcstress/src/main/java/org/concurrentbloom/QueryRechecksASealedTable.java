package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZZ_Result;

/**
 * A query that finds all of an item's bits in a table that a merge has sealed must not answer from that
 * table: it must ask the successor (see {@link CurrentTable}). This is the fault BloomFilterLincheckTest's
 * "known reach" says Lincheck misses.
 *
 * <p><b>The fault.</b> An add of x finds table T unsealed; a merge seals T and copies T's words into its
 * successor S before x's bits arrive; the add sets x's bits in T, where only T has them, and, seeing
 * the seal, is about to set them again in S. A query that trusts T finds all of x's bits there and says
 * true; the next query asks S, installed by then, before the add has redone its bits: false. True then
 * false while the add runs: no order of the operations explains it (true puts the add before the first
 * query, false after the second). A correct query sees T sealed after reading the bits, helps the merge
 * and asks S, which has x only once the add has redone it there: the answers only ever go from false
 * to true (nothing is removed here).
 *
 * <p><b>Two threads for three.</b> The interleaving needs an adder, a merger and a reader, and jcstress
 * runs no more actors than there are CPUs (two on the CI machine: a three-actor test is never
 * scheduled). So the reader thread also plays the merger, one that stalls between its copy and its
 * swap, a state the lock-free protocol must tolerate at any point: it seals T for a merge of a filter
 * holding z and copies T into S itself, through the package-private transition calls a merge makes,
 * but does not swap; then it asks for x twice, each query reading T unless the adder, finding T
 * sealed, has finished the merge already; then it adds y, an add that finishes a sealed table's
 * transition before anything else (the swap to S), and asks for x once more. Actor 1 adds x
 * meanwhile. The faulty query makes (true, *, false) or (*, true, false) in the first three answers
 * whenever one of x's bits lands in T after the copy read its word, all of them before a query, and
 * the query after the swap runs before the add's redo in S. Four words, with x's three bits in three
 * of them, give the add's three CASes more chances to straddle the copy than one word does. On a copy
 * of bloom-core whose query trusts a sealed table this showed the forbidden outcome 17 times in
 * 825,000 samples with C1 and 35 times in 950,000 with C2 and its scheduling-stress flags (one word,
 * C1: 3 in 800,000); on the real code, never (0 in 805,000 and in 989,000).
 *
 * <p>Result: (mightContain(x) twice before the swap, once after it, then mightContain(x) and
 * mightContain(z) after both actors).
 */
@JCStressTest
@Outcome(id = {"false, false, false, true, true", "false, false, true, true, true",
    "false, true, true, true, true", "true, true, true, true, true"},
    expect = ACCEPTABLE, desc = "x absent until the add took effect, present from then on.")
@Outcome(id = {"true, false, (true|false), (true|false), (true|false)",
    "(true|false), true, false, (true|false), (true|false)"},
    expect = FORBIDDEN, desc = "x seen, then missed: a query trusted bits of a table the merge had sealed.")
@Outcome(expect = FORBIDDEN, desc = "The finished add of x, or the merged z, is missing at the end.")
@State
public class QueryRechecksASealedTable extends SealedMergeRace {
  static final Layout LAYOUT = new StandardLayout(256, 3);
  static final int[] KEYS = JcstressKeys.disjoint(LAYOUT, 3);

  public QueryRechecksASealedTable() {
    super(LAYOUT, KEYS, 59);
  }

  @Override
  boolean has(int key) {
    return filter.mightContain(key);
  }

  @Actor
  public void adder() {
    addX();
  }

  @Actor
  public void readerAndStalledMerger(ZZZZZ_Result r) {
    stallMergeAndAsk(r);
  }

  @Arbiter
  public void arbiter(ZZZZZ_Result r) {
    askAfter(r);
  }
}
