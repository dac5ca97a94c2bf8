package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Function;

/**
 * A filter's current {@link BitTable} and the protocol by which {@code clear()} and {@code merge()}
 * replace it with a successor ({@link Transition}): an empty table, or the old bits OR the other
 * filter's bits. {@code BloomFilter} is a facade over this class and a {@link Layout}.
 *
 * <p>Why not edit the words in place. Zeroing or OR-ing word by word is not atomic: a reader could see
 * item X already merged and then item Y not yet merged, an order no sequential filter produces, and a
 * clear could zero one bit of an add that is still running and then return, so the add would finish
 * after the clear with a bit missing: a false negative. So a clear or merge builds a new table and
 * swaps it in, and every operation checks, after touching the bits, whether its table was sealed.
 *
 * <p>The protocol. (1) The initiator seals the current table T by CAS-ing {@code T.next} from null to
 * this transition. (2) For a merge, the successor S is filled with T's words OR the other filter's
 * words, read <em>after</em> the seal. (3) Someone CASes the filter's table from T to S.
 * <ul>
 *   <li>An add first moves past any table that is already sealed (helping finish its transition):
 *       an add that starts after a seal belongs after it. It then sets its bits in T and reads
 *       {@code T.next}. If null, the read came before the seal, so (the accesses being volatile, or
 *       acquire reads followed by a volatile read) its bits were set before step 2 read them and are in
 *       S. If a clear sealed T, the add is ordered just before the clear and is cleared with it: it must
 *       not set its bits again in S, because a query may already have seen the item in T and the clear
 *       must then remove it. If a merge sealed T, the bits may have missed the copy, so the add sets
 *       them again in that merge's own successor S (never in whatever table is current by then, which a
 *       later clear may have emptied) and checks S the same way.
 *   <li>A query that finds a 0 bit answers false: T's bits only grow, so the item was absent when the
 *       query read the table reference. A query that finds all bits set trusts the answer only if T was
 *       still unsealed after the reads; otherwise the bits might come from an add that belongs after
 *       the transition, so it helps and asks the table that is current then.
 * </ul>
 * Any thread can finish a transition by itself (the copy is split into chunks; copying a chunk twice
 * is harmless because the successor's words are only ever OR-ed into), so a stalled initiator never
 * blocks adds or queries: the protocol is lock-free. The copy costs O(m/64) word reads and CASes, paid
 * once by the initiator and, only if they race with it, shared by concurrent operations.
 *
 * <p>A table made {@linkplain #fixed fixed} is never sealed: it serves the layers of a
 * {@link ScalableBloomFilter}, which are never cleared or merged on their own (the scalable filter
 * replaces its whole layer array instead), so their adds and queries skip the seal checks.
 *
 * <p>Any thread may call any method; {@link #clear} and {@link #union} throw on a fixed table.
 */
final class CurrentTable {
  private static final VarHandle TABLE;

  static {
    try {
      TABLE = MethodHandles.lookup().findVarHandle(CurrentTable.class, "table", BitTable.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** False for a fixed table: never sealed, so no operation checks for a seal. */
  private final boolean swappable;
  @SuppressWarnings("unused") // accessed through TABLE
  private volatile BitTable table;

  private CurrentTable(BitTable table, boolean swappable) {
    this.table = table;
    this.swappable = swappable;
  }

  /** A table that {@link #clear} and {@link #union} may replace. */
  static CurrentTable swappable(BitTable table) {
    return new CurrentTable(table, true);
  }

  /** A table that is never replaced: adds and queries skip the seal checks. */
  static CurrentTable fixed(BitTable table) {
    return new CurrentTable(table, false);
  }

  boolean isSwappable() {
    return swappable;
  }

  /** The current table (volatile read). */
  BitTable getVolatile() {
    return (BitTable) TABLE.getVolatile(this);
  }

  /** Sets the item's bits, in the table the protocol puts the add in; true iff a bit was off. */
  boolean add(Layout layout, long h1, long h2) {
    BitTable t = getVolatile();
    if (!swappable) {
      return count(t, layout.set(t.words, h1, h2));
    }
    for (Transition sealed; (sealed = t.nextVolatile()) != null; ) {
      t = help(sealed); // sealed before this add touched it: the add belongs after that transition
    }
    boolean changed = layout.set(t.words, h1, h2);
    // Sealed meanwhile. By a clear: this add is ordered just before it and stays cleared (a query may
    // already have seen it here). By a merge: our bits may have missed the copy, so set them again in
    // that merge's successor (not in whatever table is current: a later clear must still win).
    for (Transition next; (next = t.nextVolatile()) != null && !next.isClear(); ) {
      complete(next);
      t = next.to;
      changed |= layout.set(t.words, h1, h2);
    }
    return count(t, changed);
  }

  /**
   * {@link #add} of a batch of n &le; 64 items (h1 at {@code hashes[2i]}) in a word-pair layout, with the
   * protocol of one add applied to the batch as a whole: it moves past sealed tables, sets every item's
   * bits, then reads the seal once; a merge that sealed the table meanwhile gets every item's bits again
   * in its successor, a clear keeps them all before it. Returns how many items turned a bit on, counted
   * once for the batch.
   */
  int addAll(WordPairLayout layout, long[] hashes, int n, long[] seen) {
    BitTable t = getVolatile();
    if (swappable) {
      for (Transition sealed; (sealed = t.nextVolatile()) != null; ) {
        t = help(sealed);
      }
    }
    long changed = layout.setAll(t.words, hashes, n, seen);
    if (swappable) {
      for (Transition next; (next = t.nextVolatile()) != null && !next.isClear(); ) {
        complete(next);
        t = next.to;
        changed |= layout.setAll(t.words, hashes, n, seen);
      }
    }
    int count = Long.bitCount(changed);
    if (count > 0) {
      t.adds.add(count);
    }
    return count;
  }

  private static boolean count(BitTable t, boolean changed) {
    if (changed) {
      t.adds.increment();
    }
    return changed;
  }

  /** True iff all of the item's bits are set, starting from {@code start} (a table read earlier). */
  boolean mightContain(Layout layout, BitTable start, long h1, long h2) {
    BitTable t = start;
    for (;;) {
      if (!layout.test(t.words, h1, h2)) {
        return false;
      }
      if (!swappable) {
        return true;
      }
      Transition next = t.nextVolatile();
      if (next == null) {
        return true;
      }
      t = help(next); // the bits may be an add's that belongs after the transition: ask its successor
    }
  }

  /** Replaces the table with an empty one, atomically for concurrent operations. */
  void clear() {
    replace(Transition::toEmpty);
  }

  /** ORs {@code otherWords} (with their count) into the table, atomically for concurrent operations. */
  void union(long[] otherWords, long otherCount) {
    replace(current -> Transition.toUnion(current, otherWords, otherCount));
  }

  /** Finishes {@code t} (whoever started it): its successor is complete and installed on return. */
  private void complete(Transition t) {
    t.finishCopy();
    TABLE.compareAndSet(this, t.from, t.to);
  }

  /** Finishes {@code t} and returns the table that is current afterwards. */
  private BitTable help(Transition t) {
    complete(t);
    return getVolatile();
  }

  /** Seals the current table for a transition made by {@code maker}, completes it, and returns. */
  private void replace(Function<BitTable, Transition> maker) {
    if (!swappable) {
      throw new IllegalStateException("a fixed table is never replaced");
    }
    for (;;) {
      BitTable current = getVolatile();
      Transition pending = current.nextVolatile();
      if (pending != null) {
        help(pending);
        continue;
      }
      Transition mine = maker.apply(current);
      if (current.casSeal(mine)) {
        help(mine);
        return;
      }
    }
  }
}
