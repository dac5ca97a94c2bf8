package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * The state word of an {@link ExpiringGenerations} and the steps that move it on, clearing the generations
 * they retire. Any thread may call any method at any time, and none blocks or takes a lock: a step that
 * one thread claims, any thread can finish.
 *
 * <h2>State and steps</h2>
 * One word, {@code state = cur << 8 | phase}: cur is the newest slot, the one adds go to. Phase 0 (IDLE):
 * no step. Phase j in [1, G − 1]: a step to slot cur + j is clearing the generations of slots
 * cur+1..cur+j (they hold slots cur+1−G..cur+j−G, past their time). Phase {@link #CATCH_UP}: the clock is
 * a whole rotation or more past cur, every generation is past its time, and a step is clearing them all.
 * Queries leave out the generations a step is clearing ({@link #clearing}). A step is claimed by one CAS
 * that says all of it, so any thread can finish it: the pass is cut into chunks that the threads taking
 * part share, each marked when cleared, and whoever finds every chunk marked publishes the new slot. A
 * participant checks, between reading a word and its CAS, that the step is not yet published: a slow
 * participant can then never clear a bit that an add set in the new current generation.
 */
final class ExpiringSteps {
  private static final VarHandle STATE;
  private static final VarHandle CURSOR;
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(ExpiringSteps.class, "state", long.class);
      CURSOR = lookup.findVarHandle(ExpiringSteps.class, "passCursor", long.class);
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

  private final SlotClock slots;
  private final GenerationWords bits;
  private final int g;
  private final int chunkWords;
  private final int chunks;

  @SuppressWarnings("unused") // through STATE
  private volatile long state;
  /** Which chunk of the running step's pass to hand out next: a hint only, see {@link #nextChunk}. */
  @SuppressWarnings("unused") // through CURSOR
  private volatile long passCursor = -1;
  /** Per chunk: the slot the last step that finished clearing it started from. Volatile access. */
  private final long[] chunkCleared;
  /** Steps published, for statistics and tests. */
  private final LongAdder steps = new LongAdder();

  ExpiringSteps(ExpiringPlan plan, SlotClock slots, GenerationWords bits, long currentSlot) {
    this.slots = slots;
    this.bits = bits;
    this.g = plan.generations;
    int words = bits.words.length;
    int n = Math.max(1, Math.min(MAX_CHUNKS, words / MIN_CHUNK_WORDS));
    this.chunkWords = (words + n - 1) / n;
    this.chunks = Math.max(1, (words + chunkWords - 1) / chunkWords);
    this.chunkCleared = new long[chunks];
    Arrays.fill(chunkCleared, -1);
    STATE.setVolatile(this, currentSlot << PHASE_BITS);
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
  long clearing(long st) {
    int phase = phaseOf(st);
    if (phase == CATCH_UP) {
      return bits.allGenerations;
    }
    long mask = 0;
    long cur = slotIn(st);
    for (int i = 1; i <= phase; i++) {
      mask |= 1L << slots.generation(cur + i);
    }
    return mask;
  }

  long stepsTaken() {
    return steps.sum();
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
    long to = phase == CATCH_UP ? Math.max(cur + g, slots.slotOf(slots.now())) : cur + phase;
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
    long inWord = bits.spread(clearing(st));
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
    long[] words = bits.words;
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
}
