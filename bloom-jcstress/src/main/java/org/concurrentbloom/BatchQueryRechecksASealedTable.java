package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZZ_Result;

/**
 * {@link QueryRechecksASealedTable} for the batch query of the word-pair layout (hash strategy 6): a
 * {@code mightContainAll} reads every item's words in one loop and the table's seal once after it, and
 * must then ask again, through the protocol, for each item it found present if the table was sealed
 * meanwhile. The same two actors: an adder of x, and a reader that seals the first table for a merge,
 * copies it without swapping, asks for x twice by batch, finishes the merge with an add of y, and asks
 * once more. Lincheck's model checker does not reach this interleaving within its budget (it misses
 * the single query's fault too: BloomFilterLincheckTest's "known reach").
 *
 * <p>Result: (mightContainAll(x) twice before the swap, once after it, then mightContainAll(x) and
 * mightContainAll(z) after both actors).
 */
@JCStressTest
@Outcome(id = {"false, false, false, true, true", "false, false, true, true, true",
    "false, true, true, true, true", "true, true, true, true, true"},
    expect = ACCEPTABLE, desc = "x absent until the add took effect, present from then on.")
@Outcome(id = {"true, false, (true|false), (true|false), (true|false)",
    "(true|false), true, false, (true|false), (true|false)"},
    expect = FORBIDDEN, desc = "x seen, then missed: a batch trusted bits of a table the merge had sealed.")
@Outcome(expect = FORBIDDEN, desc = "The finished add of x, or the merged z, is missing at the end.")
@State
public class BatchQueryRechecksASealedTable extends SealedMergeRace {
  static final Layout LAYOUT = new WordPairLayout(BlockedLayout.BLOCK_BITS, 4);
  static final int[] KEYS = JcstressKeys.disjoint(LAYOUT, 3);

  public BatchQueryRechecksASealedTable() {
    super(LAYOUT, KEYS, 20);
  }

  @Override
  boolean has(int key) {
    return filter.mightContainAll(List.of(key))[0];
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
