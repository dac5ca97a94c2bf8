package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;

/**
 * {@link AtomicWords#setBitCas} never loses a bit. The race of {@link PlainLongArrayLosesBits}, two
 * threads setting different bits (3 and 41) of one word, done with bloom-core's compare-and-exchange
 * loop: a CAS that meets a word changed since it was read fails and retries with the new value, so
 * neither bit can be overwritten.
 *
 * <p>Result: (actor 1's return, actor 2's return, bit 3 set, bit 41 set). Each call turned its own bit
 * on, so both must return true, and both bits must be set afterwards.
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE,
    desc = "Both calls report turning their bit on, and both bits are set.")
@Outcome(expect = FORBIDDEN, desc = "A lost bit, or a call that set its bit but reported it had not.")
@State
public class AtomicWordsNeverLoseBits {
  final long[] words = new long[1];

  @Actor
  public void actor1(ZZZZ_Result r) {
    r.r1 = AtomicWords.setBitCas(words, 3);
  }

  @Actor
  public void actor2(ZZZZ_Result r) {
    r.r2 = AtomicWords.setBitCas(words, 41);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    r.r3 = AtomicWords.testBitAcquire(words, 3);
    r.r4 = AtomicWords.testBitAcquire(words, 41);
  }
}
