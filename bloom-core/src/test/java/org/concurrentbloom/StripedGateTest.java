package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The gate's exclusion, checked directly with real threads: while a thread holds a stripe exclusively no
 * other thread is inside it, shared or exclusive; shared holders are inside together.
 */
class StripedGateTest {
  private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  @Test
  void stripesAreAscendingRangesOfWords() {
    StripedGate gate = new StripedGate(16, 4);
    assertThat(gate.stripeOf(0)).isZero();
    assertThat(gate.stripeOf(3)).isZero();
    assertThat(gate.stripeOf(4)).isEqualTo(1);
    assertThat(gate.stripeOf(15)).isEqualTo(3);
    StripedGate fewWords = new StripedGate(3, 256);
    assertThat(fewWords.stripeOf(2)).isEqualTo(2);
    StripedGate manyWords = new StripedGate(Sizing.MAX_WORDS, 256);
    assertThat(manyWords.stripeOf(Sizing.MAX_WORDS - 1)).isEqualTo(255);
  }

  /**
   * Threads alternate shared and exclusive entries of one stripe, the exclusive ones mixed with entries
   * of all stripes. Inside, each records itself in a census that counts shared holders and exclusive
   * holders separately; an exclusive holder must find itself alone, a shared holder no exclusive one.
   */
  @Test
  @Timeout(60)
  void exclusiveHoldersAreAlone() throws Exception {
    StripedGate gate = new StripedGate(4, 4);
    AtomicInteger shared = new AtomicInteger();
    AtomicInteger exclusive = new AtomicInteger();
    AtomicReference<String> violation = new AtomicReference<>();
    ConcurrentRun.together(THREADS, id -> {
      for (int i = 0; i < 200_000; i++) {
        if ((i + id) % 8 == 0) {
          boolean all = i % 64 == 0;
          if (all) {
            gate.enterAllExclusive();
          } else {
            gate.enterExclusive(1);
          }
          exclusive.incrementAndGet();
          for (int j = 0; j < 20; j++) { // stay a while, looking for company
            if (exclusive.get() != 1 || shared.get() != 0) {
              violation.compareAndSet(null, "an exclusive holder was not alone");
            }
            Thread.onSpinWait();
          }
          exclusive.decrementAndGet();
          if (all) {
            gate.exitAllExclusive();
          } else {
            gate.exitExclusive(1);
          }
        } else {
          gate.enterShared(1);
          shared.incrementAndGet();
          if (exclusive.get() != 0) {
            violation.compareAndSet(null, "a shared holder met an exclusive one");
          }
          shared.decrementAndGet();
          gate.exitShared(1);
        }
      }
    });
    assertThat(violation.get()).isNull();
  }

  /**
   * Shared holders of one stripe are inside together: each waits inside for the other at a barrier,
   * which only both can pass. A gate that let one shared holder in at a time would time out here.
   */
  @Test
  @Timeout(60)
  void sharedHoldersAreInsideTogether() throws Exception {
    StripedGate gate = new StripedGate(4, 4);
    CyclicBarrier bothInside = new CyclicBarrier(2);
    // A thread that cannot pass the barrier fails with a TimeoutException, and the run with it.
    ConcurrentRun.together(2, t -> {
      gate.enterShared(1);
      try {
        bothInside.await(10, TimeUnit.SECONDS);
      } finally {
        gate.exitShared(1);
      }
    });
  }
}
