package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * One generation of a filter's bits. A filter answers from exactly one current table; {@code clear()}
 * and {@code merge()} replace it with a successor instead of editing it in place (see
 * {@link Transition} for why), so a table's bits only ever go from 0 to 1.
 *
 * <p>A table is <em>sealed</em> once {@link #next} is set; from then on it is read-only as far as the
 * filter's guarantees go: an operation that finds its table sealed redoes its work on the successor.
 */
final class BitTable {
  private static final VarHandle NEXT;

  static {
    try {
      NEXT = MethodHandles.lookup().findVarHandle(BitTable.class, "next", Transition.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final long[] words;
  /** Adds that returned true on this table's lineage; shared with a merge successor, fresh after clear. */
  final LongAdder adds;
  /** Count inherited from outside this lineage: a loaded file, a copied filter, merged filters. */
  final long baseCount;

  @SuppressWarnings("unused") // written through NEXT
  private volatile Transition next;

  BitTable(long[] words, LongAdder adds, long baseCount) {
    this.words = words;
    this.adds = adds;
    this.baseCount = baseCount;
  }

  /** A table over {@code words}, counting {@code baseCount} adds from before it. */
  BitTable(long[] words, long baseCount) {
    this(words, new LongAdder(), baseCount);
  }

  static BitTable empty(int wordCount) {
    return new BitTable(new long[wordCount], 0);
  }

  /** The count, saturating at Long.MAX_VALUE: a wrapped, negative count would be written and then refused. */
  long count() {
    return saturatedSum(baseCount, adds.sum());
  }

  /** a + b for non-negative a and b, or Long.MAX_VALUE where that overflows. */
  static long saturatedSum(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  /** The transition that replaces this table, or null while it is current and open (volatile read). */
  Transition nextVolatile() {
    return (Transition) NEXT.getVolatile(this);
  }

  /** Seals this table for {@code t}; false if another transition sealed it first. */
  boolean casSeal(Transition t) {
    return NEXT.compareAndSet(this, null, t);
  }
}
