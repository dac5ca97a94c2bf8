package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.concurrentbloom.ConcurrentStressTest.runTogether;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The gate's exclusion, checked directly with real threads: while a thread holds a stripe exclusively no
 * other thread is inside it, shared or exclusive; shared holders do overlap each other.
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
    AtomicInteger sharedOverlaps = new AtomicInteger();
    AtomicReference<String> violation = new AtomicReference<>();
    List<Runnable> workers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int id = t;
      workers.add(() -> {
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
            if (shared.incrementAndGet() > 1) {
              sharedOverlaps.incrementAndGet();
            }
            if (exclusive.get() != 0) {
              violation.compareAndSet(null, "a shared holder met an exclusive one");
            }
            shared.decrementAndGet();
            gate.exitShared(1);
          }
        }
      });
    }
    runTogether(workers, List.of());
    assertThat(violation.get()).isNull();
    assertThat(sharedOverlaps.get()).as("shared holders inside together at some point").isPositive();
  }
}
