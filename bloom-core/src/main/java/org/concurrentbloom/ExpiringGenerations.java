package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.InstantSource;
import java.util.Arrays;
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
 * <h2>State and steps</h2>
 * One word, {@code state = cur << 8 | phase}: cur is the newest slot, the one adds go to. Phase 0 (IDLE):
 * no step. Phase j in [1, G − 1]: a step to slot cur + j is clearing the generations of slots
 * cur+1..cur+j (they hold slots cur+1−G..cur+j−G, past their time). Phase {@link #CATCH_UP}: the clock is
 * a whole rotation or more past cur, every generation is past its time, and a step is clearing them all.
 * Queries leave out the generations a step is clearing. A step is claimed by one CAS that says all of it,
 * so any thread can finish it: the pass is cut into chunks that the threads taking part share, each marked
 * when cleared, and whoever finds every chunk marked publishes the new slot. A participant checks, between
 * reading a word and its CAS, that the step is not yet published: a slow participant can then never clear
 * a bit that an add set in the new current generation.
 *
 * <h2>Why an add is never lost, and nothing is kept past its time (docs/EXPIRING.md, section 4)</h2>
 * An add writes its bits into cur's generation, then reads the clock (t, taken after its bits are in),
 * then reads the state again. Cur's generation lives until slot cur + G begins, which is at least t + W
 * when t ≤ {@link #deadline}(cur), the end of slot cur up to rounding. An add that reads a later t (a
 * late add: a step is due and not done) cannot return with its bits there: it takes part in the steps
 * until the current slot has reached t's, then redoes itself in the new current generation. So no
 * generation is ever kept past its time for a late add, and the forgetting bound holds exactly.
 *
 * <p>An add reads the clock once, after its bits are in, so the first add of a new slot writes into the
 * previous generation before it learns that it must step, and then redoes itself in the new one. That
 * leaves one extra item per step in a generation that is about to age out anyway: cheaper than a second
 * clock reading on every add.
 */
final class ExpiringGenerations {
  private static final VarHandle STATE;
  private static final VarHandle CURSOR;
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(ExpiringGenerations.class, "state", long.class);
      CURSOR = lookup.findVarHandle(ExpiringGenerations.class, "passCursor", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static final int PHASE_BITS = 8;
  private static final int PHASE_MASK = (1 << PHASE_BITS) - 1;
  private static final int IDLE = 0;
  /** The phase of a step that clears every generation (G ≤ 64, so no step to cur + j uses it). */
  static final int CATCH_UP = PHASE_MASK;
  /** At most this many chunks per pass, so that marking them costs nothing next to the pass. */
  private static final int MAX_CHUNKS = 1024;
  /** At least this many words per chunk (4 KiB), so that handing one out costs nothing next to clearing it. */
  private static final int MIN_CHUNK_WORDS = 512;
  /** The pass cursor: a step's slot (its low 53 bits) above the next chunk index. */
  private static final int CHUNK_BITS = 11;

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
  private final int chunkWords;
  private final int chunks;

  @SuppressWarnings("unused") // through STATE
  private volatile long state;
  /** Which chunk of the running step's pass to hand out next: a hint only, see {@link #nextChunk}. */
  @SuppressWarnings("unused") // through CURSOR
  private volatile long passCursor = -1;
  /** Per chunk: the slot the last step that finished clearing it started from. Volatile access. */
  private final long[] chunkCleared;
  /** Per generation: adds that returned true into it, for the slot it holds. */
  private final GenerationCounts counts;
  /** Steps published, for statistics and tests. */
  private final LongAdder steps = new LongAdder();

  ExpiringGenerations(ExpiringPlan plan, InstantSource clock, long origin, long currentSlot, long[] words,
      long[] counts) {
    this.plan = plan;
    this.clock = clock;
    this.origin = origin;
    this.words = words;
    this.g = plan.generations;
    this.log2G = Integer.numberOfTrailingZeros(g);
    this.cellShift = 6 - log2G;
    this.cellsPerWordMask = (1 << cellShift) - 1;
    this.allGenerations = g == 64 ? -1L : (1L << g) - 1;
    this.cellOnes = cellOnes(g);
    int n = Math.max(1, Math.min(MAX_CHUNKS, words.length / MIN_CHUNK_WORDS));
    this.chunkWords = (words.length + n - 1) / n;
    this.chunks = Math.max(1, (words.length + chunkWords - 1) / chunkWords);
    this.chunkCleared = new long[chunks];
    Arrays.fill(chunkCleared, -1);
    long[] held = new long[g];
    for (int p = 0; p < g; p++) {
      held[p] = heldSlot(currentSlot, p, g);
    }
    this.counts = new GenerationCounts(held, counts);
    STATE.setVolatile(this, currentSlot << PHASE_BITS);
  }

  /** 1 in the lowest bit of every G-bit cell of a word. */
  static long cellOnes(int g) {
    long ones = 0;
    for (int c = 0; c < 64; c += g) {
      ones |= 1L << c;
    }
    return ones;
  }

  /** Empty generations whose first slot begins now. */
  static ExpiringGenerations empty(ExpiringPlan plan, InstantSource clock) {
    return new ExpiringGenerations(plan, clock, clock.millis(), 0, new long[plan.words()], new long[plan.generations]);
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

  /**
   * The latest clock reading for which slot {@code cur}'s generation, which lives until slot cur + G
   * begins, still covers reading + W: origin + (cur + G)·s − W, that is the end of slot cur plus the
   * rounding (G − 1)·s − W ≥ 0. An add that reads a later time must not return with its bits there.
   */
  long deadline(long cur) {
    long end = slotStart(cur + g);
    if (end == Long.MAX_VALUE) {
      return end; // a saturated end: no clock reading passes it
    }
    long d = end - plan.windowMillis;
    return d > end ? Long.MIN_VALUE : d;
  }

  int generation(long slot) {
    return (int) (slot & (g - 1));
  }

  /** The slot generation {@code p} holds when {@code cur} is current: the largest i ≤ cur with i mod G = p. */
  static long heldSlot(long cur, int p, int g) {
    return cur - ((cur - p) & (g - 1));
  }

  // ---------------------------------------------------------------- state

  long stateVolatile() {
    return (long) STATE.getVolatile(this);
  }

  static long slotIn(long st) {
    return st >> PHASE_BITS;
  }

  private static int phaseOf(long st) {
    return (int) (st & PHASE_MASK);
  }

  /** The generations the step in {@code st} is clearing (none when IDLE). */
  private long clearing(long st) {
    int phase = phaseOf(st);
    if (phase == CATCH_UP) {
      return allGenerations;
    }
    long mask = 0;
    long cur = slotIn(st);
    for (int i = 1; i <= phase; i++) {
      mask |= 1L << generation(cur + i);
    }
    return mask;
  }

  /**
   * The generations a reader at clock time {@code t} may consult under state {@code st}: all but those a
   * step is clearing and those whose time is over at t. Slot i's generation is over once slot i + G has
   * begun.
   */
  long validAt(long st, long t) {
    long mask = allGenerations & ~clearing(st);
    long cur = slotIn(st);
    long ts = slotOf(t);
    if (ts > cur) {
      if (ts - g >= cur) {
        return 0;
      }
      for (long i = cur - g + 1; i <= ts - g; i++) {
        mask &= ~(1L << generation(i));
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
   * Redoes itself in the new current generation when a step ran meanwhile, and takes part in a step that
   * is due when its own clock reading is too late for the current generation.
   */
  boolean add(long h1, long h2) {
    boolean absent = false;
    boolean first = true;
    while (true) {
      long st = stateVolatile();
      long cur = slotIn(st);
      int p = generation(cur);
      long all = allCells(h1, h2);
      if ((all & (1L << p)) == 0) {
        setBits(h1, h2, p);
      }
      long t = now();
      if (first) {
        absent = (all & validAt(st, t)) == 0;
        first = false;
      }
      long ts = slotOf(t);
      if (ts > cur) {
        if (t > deadline(cur)) {
          catchUp(ts); // a late add: cur's generation ends before t + W, so it must go into a newer one
          continue;
        }
        stepIfIdle(ts);
      }
      if (slotIn(stateVolatile()) != cur) {
        continue; // stepped, by this thread or another: put the bits in the new current generation
      }
      if (absent) {
        counts.increment(p, cur);
      }
      return absent;
    }
  }

  boolean mightContain(long h1, long h2) {
    long t = now();
    long ts = slotOf(t);
    if (ts > slotIn(stateVolatile())) {
      stepIfIdle(ts);
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
   * Brings the current slot up to {@code target} (a slot some clock reading has reached) unless another
   * thread is stepping: then returns at once, leaving the step to it. For queries and for adds that are
   * not late.
   */
  void stepIfIdle(long target) {
    while (true) {
      long st = stateVolatile();
      if (slotIn(st) >= target || phaseOf(st) != IDLE) {
        return;
      }
      long claimed = claim(st, target);
      if (STATE.compareAndSet(this, st, claimed)) {
        finish(claimed);
      }
    }
  }

  /**
   * Brings the current slot up to at least {@code target} (a slot some clock reading has reached), taking
   * part in any step in progress. For late adds. Lock-free: a thread that stalls in a step never keeps
   * another from finishing it.
   */
  void catchUp(long target) {
    while (true) {
      long st = stateVolatile();
      if (slotIn(st) >= target) {
        return;
      }
      if (phaseOf(st) == IDLE) {
        long claimed = claim(st, target);
        if (!STATE.compareAndSet(this, st, claimed)) {
          continue;
        }
        st = claimed;
      }
      finish(st);
    }
  }

  /**
   * The state that claims the step from IDLE {@code st} towards {@code target}: to target itself when it is
   * within G − 1 slots (the current generation is never cleared then), else a catch-up.
   */
  private long claim(long st, long target) {
    long cur = slotIn(st);
    long phase = target - cur >= g ? CATCH_UP : target - cur;
    return (cur << PHASE_BITS) | phase;
  }

  /** Takes part in the step {@code st} and publishes it if no other thread has yet. */
  private void finish(long st) {
    if (!clearPass(st)) {
      return; // published by another thread
    }
    long cur = slotIn(st);
    int phase = phaseOf(st);
    // A catch-up clears everything, so it may go straight to the slot of the clock as it reads now (never
    // below cur + G, which the claiming thread's clock reached).
    long to = phase == CATCH_UP ? Math.max(cur + g, slotOf(now())) : cur + phase;
    if (STATE.compareAndSet(this, st, to << PHASE_BITS)) {
      steps.increment();
    }
  }

  /**
   * Clears the generations of step {@code st} in every word, sharing the chunks with the other threads that
   * take part; true once every chunk is cleared, false as soon as the step turns out published.
   */
  private boolean clearPass(long st) {
    long cur = slotIn(st);
    long inWord = spread(clearing(st));
    for (int c = nextChunk(cur); c >= 0; c = nextChunk(cur)) {
      if (!clearChunk(c, inWord, st)) {
        return false;
      }
      LONGS.setVolatile(chunkCleared, c, cur);
    }
    // Chunks handed out to a thread that has not finished them (it may have stalled): clear them too.
    // Clearing twice is harmless; leaving one would be a lost expiry.
    for (int c = 0; c < chunks; c++) {
      if ((long) LONGS.getVolatile(chunkCleared, c) != cur) {
        if (!clearChunk(c, inWord, st)) {
          return false;
        }
        LONGS.setVolatile(chunkCleared, c, cur);
      }
    }
    return true;
  }

  /**
   * The next chunk of step {@code cur}'s pass to clear, or −1 when all have been handed out. Only a hint
   * that spreads the threads over the chunks: a thread of an older step may reset it, which only makes
   * some chunk be cleared twice, and {@link #clearPass} clears whatever is not marked done anyway.
   */
  private int nextChunk(long cur) {
    long id = cur & (-1L >>> CHUNK_BITS);
    while (true) {
      long seen = (long) CURSOR.getVolatile(this);
      int c;
      long next;
      if ((seen >>> CHUNK_BITS) != id) {
        c = 0; // the first thread of this step
        next = (id << CHUNK_BITS) | 1;
      } else if ((seen & ((1 << CHUNK_BITS) - 1)) >= chunks) {
        return -1;
      } else {
        c = (int) (seen & ((1 << CHUNK_BITS) - 1));
        next = seen + 1;
      }
      if (CURSOR.compareAndSet(this, seen, next)) {
        return c;
      }
    }
  }

  /**
   * Clears the bits {@code inWord} in the words of chunk {@code c}; false (stopping at once) if step
   * {@code st} is found published. Each CAS's expected value was read before a check that the step is
   * still running, so it cannot hold a bit that an add set after the step was published: the CAS then
   * fails, and the next check stops the pass. Reads are volatile, to put them in one order with the checks.
   */
  private boolean clearChunk(int c, long inWord, long st) {
    int end = (int) Math.min(words.length, (long) (c + 1) * chunkWords);
    for (int w = c * chunkWords; w < end; w++) {
      // A compare-and-exchange, not a plain store: adds set bits of the current generation in these same
      // words meanwhile, and a plain read-modify-write would erase one.
      long seen = AtomicWords.getVolatile(words, w);
      while ((seen & inWord) != 0) {
        if (stateVolatile() != st) {
          return false;
        }
        long witness = (long) LONGS.compareAndExchange(words, w, seen, seen & ~inWord);
        if (witness == seen) {
          break;
        }
        seen = witness;
      }
    }
    return true;
  }

  /** A generation mask repeated in every cell of a word. */
  long spread(long generations) {
    return g == 64 ? generations : generations * cellOnes;
  }

  // ---------------------------------------------------------------- statistics and snapshots

  /** Set bits per generation, each counted in the generations valid at {@code t} (0 for the others). */
  long[] setBitsPerGeneration(long valid) {
    return Arrays.copyOf(setBitsAndUnion(valid), g);
  }

  /**
   * Set bits per generation in {@code valid} (index p < G, 0 for the others) and, at index G, the cells set
   * in any of them: the set bits of their OR. One pass over the words.
   */
  long[] setBitsAndUnion(long valid) {
    long[] set = new long[g + 1];
    long union = 0;
    for (int w = 0; w < words.length; w++) {
      long v = AtomicWords.getAcquire(words, w) & spread(valid);
      if (v == 0) {
        continue;
      }
      for (int p = 0; p < g; p++) {
        set[p] += Long.bitCount(v & (cellOnes << p));
      }
      // Fold each G-bit cell onto its lowest bit: after shifts 1, 2, .., G/2 that bit is the OR of the
      // cell's G bits (the bits shifted in from the next cell land above it and are masked away).
      long any = v;
      for (int shift = 1; shift < g; shift <<= 1) {
        any |= any >>> shift;
      }
      union += Long.bitCount(any & cellOnes);
    }
    set[g] = union;
    return set;
  }

  /** The generations not being cleared under state {@code st}, whatever the clock says. */
  long notClearing(long st) {
    return allGenerations & ~clearing(st);
  }

  /** Adds that returned true into the generations in {@code valid}, under state {@code st}. */
  long count(long st, long valid) {
    long sum = 0;
    for (int p = 0; p < g; p++) {
      if ((valid & (1L << p)) != 0) {
        sum = BitTable.saturatedSum(sum, countOf(p, heldSlot(slotIn(st), p, g)));
      }
    }
    return sum;
  }

  /** Adds that returned true into generation {@code p} while it held {@code slot}. */
  long countOf(int p, long slot) {
    return counts.count(p, slot);
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
