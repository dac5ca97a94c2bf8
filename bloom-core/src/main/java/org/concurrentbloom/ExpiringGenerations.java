package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.InstantSource;
import java.util.concurrent.atomic.LongAdder;

/**
 * The G generations of an {@link ExpiringBloomFilter} and the steps that retire them. Every method may be
 * called from any thread at any time; none blocks, and add and query allocate nothing.
 *
 * <h2>Layout</h2>
 * The generations share one {@code long[]}: cell c of every generation sits in one G-bit field, bit g for
 * generation g, so a word holds 64/G cells. A probe loads one word and learns at once which generations
 * have that bit, so a lookup touches k words, as a standard filter's does, instead of G·k. Generation g
 * holds the adds of every slot i with i mod G = g; slot i is the time [origin + i·s, origin + (i+1)·s).
 *
 * <h2>State</h2>
 * One word, {@code state = cur << 8 | phase}: cur is the newest slot, the one adds go to, and the phase
 * says what a step is doing. IDLE: none. CLAIMED: one thread owns the next step and is deciding how far it
 * may go. STEPPING(T): the owner is recycling the generations of slots cur+1..T, which hold slots
 * cur+1−G..T−G, past their time; queries leave those out. A step never recycles cur's own generation
 * (T ≤ cur + G − 1), so an add never loses its bits to the step it races.
 *
 * <h2>Why an add is never lost (docs/EXPIRING.md, section 4, has the proof)</h2>
 * An add writes its bits into cur's generation, then reads the clock (so its time t is a reading taken
 * after the bits are in), then reads the state again. If cur's slot had not ended at t, the generation
 * lives until slot cur + G begins, which is at least t + W. If it had ended (a step is due but another
 * thread is stepping, or a step is held back), the add raises cur's generation's {@code keptUntil} to
 * t + W before its last state read: a step reads every {@code keptUntil} after claiming the state, so
 * either it sees the raise and keeps the generation, or the add sees the claim and redoes itself in the
 * new current generation (the store-then-load pairs of Dekker's algorithm, sequentially consistent here
 * because both sides use volatile accesses). Queries drop a generation by the clock, not by the step, so
 * a step that has not run yet never lets an expired generation answer.
 *
 * <p>An add reads the clock once, after its bits are in, so the first add of a new slot writes into the
 * previous generation before it learns that it must step, and then redoes itself in the new one. That
 * leaves one extra item per step in a generation that is about to age out anyway: cheaper than a second
 * clock reading on every add.
 */
final class ExpiringGenerations {
  private static final VarHandle STATE;
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(ExpiringGenerations.class, "state", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static final int IDLE = 0;
  private static final int CLAIMED = 1;
  /** keptUntil of a generation no late add has raised. */
  static final long NOT_KEPT = Long.MIN_VALUE;

  final ExpiringPlan plan;
  final long origin;
  final long[] words;
  private final InstantSource clock;
  private final int g;
  /** log2(64/G): cell c is in word c >>> cellShift. */
  private final int cellShift;
  private final int cellsPerWordMask;
  private final int log2G;
  /** The low G bits. */
  private final long allGenerations;
  /** 1 in the lowest bit of every cell of a word: generation mask × this = that mask in every cell. */
  private final long cellOnes;

  @SuppressWarnings("unused") // through STATE
  private volatile long state;
  /** Per generation: the clock time until which a late add needs it (NOT_KEPT if none). Volatile access. */
  private final long[] keptUntil;
  /** Per generation: 1 once an add may have written to it since it was last cleared. Volatile access. */
  private final int[] dirty;
  /** Per generation: adds that returned true into it. */
  private final LongAdder[] counts;
  /** Steps that recycled at least one generation, for statistics and tests. */
  private final LongAdder steps = new LongAdder();

  ExpiringGenerations(ExpiringPlan plan, InstantSource clock, long origin, long currentSlot, long[] words,
      long[] keptUntil, long[] counts) {
    this.plan = plan;
    this.clock = clock;
    this.origin = origin;
    this.words = words;
    this.g = plan.generations;
    this.log2G = Integer.numberOfTrailingZeros(g);
    this.cellShift = 6 - log2G;
    this.cellsPerWordMask = (1 << cellShift) - 1;
    this.allGenerations = g == 64 ? -1L : (1L << g) - 1;
    long ones = 0;
    for (int c = 0; c < 64; c += g) {
      ones |= 1L << c;
    }
    this.cellOnes = ones;
    this.keptUntil = keptUntil.clone();
    this.dirty = new int[g];
    this.counts = new LongAdder[g];
    for (int p = 0; p < g; p++) {
      this.counts[p] = new LongAdder();
      this.counts[p].add(counts[p]);
    }
    markDirtyIfSet();
    STATE.setVolatile(this, currentSlot << 8);
  }

  /** Empty generations whose first slot begins now. */
  static ExpiringGenerations empty(ExpiringPlan plan, InstantSource clock) {
    long[] kept = new long[plan.generations];
    java.util.Arrays.fill(kept, NOT_KEPT);
    return new ExpiringGenerations(plan, clock, clock.millis(), 0, new long[plan.words()], kept,
        new long[plan.generations]);
  }

  private void markDirtyIfSet() {
    for (int w = 0; w < words.length; w++) {
      long v = words[w];
      for (int p = 0; p < g && v != 0; p++) {
        if ((v & (cellOnes << p)) != 0) {
          dirty[p] = 1;
        }
      }
    }
  }

  // ---------------------------------------------------------------- time

  long now() {
    return clock.millis();
  }

  /** The slot that clock time {@code t} falls in; before the origin, a negative slot; capped at MAX_SLOT. */
  long slotOf(long t) {
    long d = t - origin;
    if (((t ^ origin) & (t ^ d)) < 0) { // overflow: t and origin are more than 2^63 ms apart
      // Ahead of the origin, d is the true difference read as unsigned (below 2^64); behind it, far behind.
      return t < origin ? Long.MIN_VALUE / 2 : Math.min(Long.divideUnsigned(d, plan.slotMillis), ExpiringPlan.MAX_SLOT);
    }
    return Math.min(Math.floorDiv(d, plan.slotMillis), ExpiringPlan.MAX_SLOT);
  }

  /** Start of slot {@code i}: origin + i·s (saturating). */
  long slotStart(long i) {
    return slotStart(origin, plan.slotMillis, i);
  }

  /** origin + i·s, saturating at the ends of the long range. */
  static long slotStart(long origin, long slotMillis, long i) {
    long offset = multiplySaturated(i, slotMillis);
    long start = origin + offset;
    if (((origin ^ start) & (offset ^ start)) < 0) {
      return offset < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return start;
  }

  private static long multiplySaturated(long a, long b) {
    long hi = Math.multiplyHigh(a, b);
    long lo = a * b;
    if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
      return lo;
    }
    return (hi < 0) ? Long.MIN_VALUE : Long.MAX_VALUE;
  }

  private static long plusSaturated(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  int generation(long slot) {
    return (int) (slot & (g - 1));
  }

  // ---------------------------------------------------------------- state

  long stateVolatile() {
    return (long) STATE.getVolatile(this);
  }

  static long slotIn(long st) {
    return st >> 8;
  }

  private long keptUntilVolatile(int p) {
    return (long) LONGS.getVolatile(keptUntil, p);
  }

  /**
   * The generations a reader at clock time {@code t} may consult under state {@code st}: all but those a
   * step is recycling and those whose time is over at t. Slot i's generation is over once slot i + G has
   * begun and no late add keeps it past t.
   */
  long validAt(long st, long t) {
    long cur = slotIn(st);
    int phase = (int) (st & 0xFF);
    long mask = allGenerations;
    if (phase > CLAIMED) {
      for (long i = cur + 1; i <= cur + phase - 1; i++) {
        mask &= ~(1L << generation(i));
      }
    }
    long ts = slotOf(t);
    if (ts > cur) {
      long lastOver = Math.min(cur, ts - g);
      for (long i = cur - g + 1; i <= lastOver; i++) {
        int p = generation(i);
        if (keptUntilVolatile(p) <= t) {
          mask &= ~(1L << p);
        }
      }
    }
    return mask;
  }

  // ---------------------------------------------------------------- add and query

  /** The cells of (h1, h2)'s k probes ANDed: bit g set iff generation g has all k bits. Loads every probe. */
  private long allCells(long h1, long h2) {
    long all = allGenerations;
    for (Probes.Cursor c = new Probes.Cursor(h1, h2, plan.cells, plan.hashFunctions); c.hasNext(); ) {
      long cell = c.next();
      long word = AtomicWords.getAcquire(words, (int) (cell >>> cellShift));
      all &= word >>> ((cell & cellsPerWordMask) << log2G);
    }
    return all & allGenerations;
  }

  private void setBits(long h1, long h2, int p) {
    for (Probes.Cursor c = new Probes.Cursor(h1, h2, plan.cells, plan.hashFunctions); c.hasNext(); ) {
      long cell = c.next();
      AtomicWords.orWordCas(words, (int) (cell >>> cellShift), 1L << (((cell & cellsPerWordMask) << log2G) + p));
    }
  }

  /** True iff some generation in {@code valid} has all k bits of (h1, h2); stops at the first probe that rules all out. */
  private boolean anyHas(long h1, long h2, long valid) {
    long all = valid;
    long m = plan.cells;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    for (int i = 1; ; i++) {
      long word = AtomicWords.getAcquire(words, (int) (x >>> cellShift));
      all &= word >>> ((x & cellsPerWordMask) << log2G);
      if ((all & valid) == 0) {
        return false;
      }
      if (i == plan.hashFunctions) {
        return true;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  /**
   * Adds (h1, h2) to the current generation; true iff no generation valid at the add's time had it before.
   * Redoes itself in the new current generation when a step ran meanwhile.
   */
  boolean add(long h1, long h2) {
    boolean absent = false;
    boolean first = true;
    int wrote = -1;
    while (true) {
      if (wrote >= 0) {
        // The last try's bits went into a generation that a step may have recycled meanwhile, marking it
        // clean before they landed: mark it again, or no later step would clear them.
        INTS.setVolatile(dirty, wrote, 1);
        wrote = -1;
      }
      long st = stateVolatile();
      long cur = slotIn(st);
      int p = generation(cur);
      if ((int) INTS.getAcquire(dirty, p) == 0) {
        INTS.setVolatile(dirty, p, 1); // before the bits, so a step that finds it clean finds them absent
      }
      long all = allCells(h1, h2);
      if ((all & (1L << p)) == 0) {
        setBits(h1, h2, p);
        wrote = p;
      }
      long t = now();
      if (first) {
        absent = (all & validAt(st, t)) == 0;
        first = false;
      }
      if (slotOf(t) > cur) {
        advance(t);
        if (slotIn(stateVolatile()) != cur) {
          continue; // stepped, by this thread or another: put the bits in the new current generation
        }
        raiseKeptUntil(p, plusSaturated(t, plan.windowMillis)); // a late add: keep cur's generation for it
      }
      if (slotIn(stateVolatile()) != cur) {
        continue;
      }
      if (absent) {
        counts[p].increment();
      }
      return absent;
    }
  }

  private void raiseKeptUntil(int p, long until) {
    long seen = keptUntilVolatile(p);
    while (seen < until) {
      long witness = (long) LONGS.compareAndExchange(keptUntil, p, seen, until);
      if (witness == seen) {
        return;
      }
      seen = witness;
    }
  }

  boolean mightContain(long h1, long h2) {
    long t = now();
    if (slotOf(t) > slotIn(stateVolatile())) {
      advance(t);
    }
    while (true) {
      long st = stateVolatile();
      boolean found = anyHas(h1, h2, validAt(st, t));
      if (stateVolatile() == st) {
        return found;
      }
    }
  }

  // ---------------------------------------------------------------- steps

  /**
   * Brings the current slot up to the slot of {@code t}, one step of at most G − 1 slots at a time, unless
   * another thread is stepping or a late add keeps the next generation to recycle.
   */
  void advance(long t) {
    long target = slotOf(t);
    while (true) {
      long st = stateVolatile();
      long cur = slotIn(st);
      if (cur >= target || (st & 0xFF) != IDLE) {
        return;
      }
      if (!STATE.compareAndSet(this, st, (cur << 8) | CLAIMED)) {
        continue;
      }
      if (!step(cur, target, t)) {
        return;
      }
    }
  }

  /** The owner's step from {@code cur}; false if a late add held it back. Leaves the state IDLE. */
  private boolean step(long cur, long target, long t) {
    if (target - cur >= 2L * g && allClean(t)) {
      // Nothing to clear anywhere: jump straight to the target (a long pause, or a file read much later).
      // The current generation is recycled too, uncleared; an add racing this has its bits in it still.
      resetCounts();
      STATE.setVolatile(this, target << 8);
      steps.increment();
      return true;
    }
    long last = cur;
    for (long i = cur + 1; i <= Math.min(target, cur + g - 1); i++) {
      if (keptUntilVolatile(generation(i)) > t) {
        break;
      }
      last = i;
    }
    if (last == cur) {
      STATE.setVolatile(this, cur << 8);
      return false;
    }
    STATE.setVolatile(this, (cur << 8) | (1 + (last - cur)));
    long planes = 0;
    for (long i = cur + 1; i <= last; i++) {
      int p = generation(i);
      if ((int) INTS.getVolatile(dirty, p) != 0) {
        INTS.setVolatile(dirty, p, 0);
        planes |= 1L << p;
      }
    }
    clearPlanes(planes);
    for (long i = cur + 1; i <= last; i++) {
      int p = generation(i);
      counts[p].reset();
      LONGS.setVolatile(keptUntil, p, NOT_KEPT);
    }
    STATE.setVolatile(this, last << 8);
    steps.increment();
    return true;
  }

  private boolean allClean(long t) {
    for (int p = 0; p < g; p++) {
      if ((int) INTS.getVolatile(dirty, p) != 0 || keptUntilVolatile(p) > t) {
        return false;
      }
    }
    return true;
  }

  private void resetCounts() {
    for (LongAdder c : counts) {
      c.reset();
    }
  }

  /** Clears the bits of the generations in {@code planes} in every word, atomically per word. */
  private void clearPlanes(long planes) {
    if (planes == 0) {
      return;
    }
    long inWord = spread(planes);
    for (int w = 0; w < words.length; w++) {
      // A compare-and-exchange, not a plain store: adds set bits of the current generation in these same
      // words meanwhile, and a plain read-modify-write would erase one.
      long seen = AtomicWords.getAcquire(words, w);
      while ((seen & inWord) != 0) {
        long witness = (long) LONGS.compareAndExchange(words, w, seen, seen & ~inWord);
        if (witness == seen) {
          break;
        }
        seen = witness;
      }
    }
  }

  /** A generation mask repeated in every cell of a word. */
  long spread(long generations) {
    return g == 64 ? generations : generations * cellOnes;
  }

  // ---------------------------------------------------------------- statistics and snapshots

  /** Set bits per generation, each counted in the generations valid at {@code t} (0 for the others). */
  long[] setBitsPerGeneration(long valid) {
    long[] set = new long[g];
    for (int w = 0; w < words.length; w++) {
      long v = AtomicWords.getAcquire(words, w) & spread(valid);
      if (v == 0) {
        continue;
      }
      for (int p = 0; p < g; p++) {
        set[p] += Long.bitCount(v & (cellOnes << p));
      }
    }
    return set;
  }

  long count(long valid) {
    long sum = 0;
    for (int p = 0; p < g; p++) {
      if ((valid & (1L << p)) != 0) {
        sum = BitTable.saturatedSum(sum, counts[p].sum());
      }
    }
    return sum;
  }

  long countOf(int p) {
    return counts[p].sum();
  }

  long keptUntil(int p) {
    return keptUntilVolatile(p);
  }

  long stepsTaken() {
    return steps.sum();
  }

  /** The words with the generations outside {@code valid} cleared: what a snapshot at that moment holds. */
  long[] wordsOf(long valid) {
    long keep = spread(valid);
    long[] copy = new long[words.length];
    for (int w = 0; w < words.length; w++) {
      copy[w] = AtomicWords.getAcquire(words, w) & keep;
    }
    return copy;
  }
}
