package org.concurrentbloom;

import java.time.InstantSource;

/**
 * The G generations of an {@link ExpiringBloomFilter}: adds and queries over them, and their counts.
 * Every method may be called from any thread at any time; none blocks, and add and query allocate nothing.
 *
 * <p>Three parts, each with its own comment: {@link GenerationWords}, the bits, interleaved so that one
 * probe reads every generation at once; {@link SlotClock}, from clock time to slots and from slots to
 * generations; {@link ExpiringSteps}, the state word (the current slot, and which generations a step is
 * clearing) and the steps that move it on. How adds and queries use them, and why that keeps both
 * bounds, is here.
 *
 * <h2>Why an add is never lost, and nothing is kept past its time (docs/EXPIRING.md, section 4)</h2>
 * An add writes its bits into cur's generation, then reads the clock (t, taken after its bits are in),
 * then reads the state again. Cur's generation lives until slot cur + G begins, which is at least t + W
 * when t ≤ {@link #deadline}(cur), the end of slot cur up to rounding. An add that reads a later t (a
 * late add: a step is due and not done) cannot return with its bits there: it takes part in the steps
 * ({@link ExpiringSteps#catchUp}) until the current slot has reached t's, then redoes itself in the new
 * current generation. So no generation is ever kept past its time for a late add, and the forgetting
 * bound holds exactly.
 *
 * <p>An add reads the clock once, after its bits are in, so the first add of a new slot writes into the
 * previous generation before it learns that it must step, and then redoes itself in the new one. That
 * leaves one extra item per step in a generation that is about to age out anyway: cheaper than a second
 * clock reading on every add.
 */
final class ExpiringGenerations {
  final ExpiringPlan plan;
  final SlotClock slots;
  final GenerationWords bits;
  private final ExpiringSteps steps;
  private final int g;
  /** Per generation: adds that returned true into it, for the slot it holds. */
  private final GenerationCounts counts;

  ExpiringGenerations(ExpiringPlan plan, InstantSource clock, long origin, long currentSlot, long[] words,
      long[] counts) {
    this.plan = plan;
    this.g = plan.generations;
    this.slots = new SlotClock(clock, origin, plan);
    this.bits = new GenerationWords(plan, words);
    this.steps = new ExpiringSteps(plan, slots, bits, currentSlot);
    long[] held = new long[g];
    for (int p = 0; p < g; p++) {
      held[p] = SlotClock.heldSlot(currentSlot, p, g);
    }
    this.counts = new GenerationCounts(held, counts);
  }

  /** Empty generations whose first slot begins now. */
  static ExpiringGenerations empty(ExpiringPlan plan, InstantSource clock) {
    return new ExpiringGenerations(plan, clock, clock.millis(), 0, new long[plan.words()], new long[plan.generations]);
  }

  // ---------------------------------------------------------------- time

  long now() {
    return slots.now();
  }

  long slotOf(long t) {
    return slots.slotOf(t);
  }

  long slotStart(long i) {
    return slots.slotStart(i);
  }

  int generation(long slot) {
    return slots.generation(slot);
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

  // ---------------------------------------------------------------- state

  long stateVolatile() {
    return steps.stateVolatile();
  }

  static long slotIn(long st) {
    return ExpiringSteps.slotIn(st);
  }

  void stepIfIdle(long target) {
    steps.stepIfIdle(target);
  }

  /**
   * The generations a reader at clock time {@code t} may consult under state {@code st}: all but those a
   * step is clearing and those whose time is over at t. Slot i's generation is over once slot i + G has
   * begun.
   */
  long validAt(long st, long t) {
    long mask = bits.allGenerations & ~steps.clearing(st);
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
      long all = bits.allCells(h1, h2);
      if ((all & (1L << p)) == 0) {
        bits.setBits(h1, h2, p);
      }
      long t = now();
      if (first) {
        absent = (all & validAt(st, t)) == 0;
        first = false;
      }
      long ts = slotOf(t);
      if (ts > cur) {
        if (t > deadline(cur)) {
          steps.catchUp(ts); // a late add: cur's generation ends before t + W, so it must go into a newer one
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
      boolean found = bits.anyHas(h1, h2, validAt(st, t));
      if (stateVolatile() == st) {
        return found;
      }
    }
  }

  // ---------------------------------------------------------------- statistics

  long[] setBitsPerGeneration(long valid) {
    return bits.setBitsPerGeneration(valid);
  }

  long[] setBitsAndUnion(long valid) {
    return bits.setBitsAndUnion(valid);
  }

  /** The generations not being cleared under state {@code st}, whatever the clock says. */
  long notClearing(long st) {
    return bits.allGenerations & ~steps.clearing(st);
  }

  /** Adds that returned true into the generations in {@code valid}, under state {@code st}. */
  long count(long st, long valid) {
    long sum = 0;
    for (int p = 0; p < g; p++) {
      if ((valid & (1L << p)) != 0) {
        sum = BitTable.saturatedSum(sum, countOf(p, SlotClock.heldSlot(slotIn(st), p, g)));
      }
    }
    return sum;
  }

  /** Adds that returned true into generation {@code p} while it held {@code slot}. */
  long countOf(int p, long slot) {
    return counts.count(p, slot);
  }

  long stepsTaken() {
    return steps.stepsTaken();
  }
}
