package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/** The expiring filter's per-generation counts, marked by slot: no reset, so no late reset can wipe a new slot's counts. */
class GenerationCountsTest {
  @Test
  void countsBelongToTheirSlot() {
    GenerationCounts c = new GenerationCounts(new long[] {0, -3}, new long[] {5, 0});
    assertThat(c.count(0, 0)).isEqualTo(5);
    assertThat(c.count(1, -3)).isZero();
    c.increment(0, 0);
    assertThat(c.count(0, 0)).isEqualTo(6);
    // The generation moves on to slot 4: the first add there restarts its count, and slot 0's reads as gone.
    c.increment(0, 4);
    assertThat(c.count(0, 4)).isEqualTo(1);
    assertThat(c.count(0, 0)).isZero();
    // A thread that counts for slot 0 after the generation moved on (it stalled) is dropped.
    c.increment(0, 0);
    assertThat(c.count(0, 4)).isEqualTo(1);
    assertThat(c.count(0, 0)).isZero();
    // Negative slots (before the origin) and slots past 2^24 compare by their low bits' difference.
    c.increment(1, -3);
    c.increment(1, 1);
    assertThat(c.count(1, 1)).isEqualTo(1);
    c.increment(1, (1L << 30) + 9); // low 24 bits: 9, later than 1
    assertThat(c.count(1, (1L << 30) + 9)).isEqualTo(1);
    assertThat(c.count(1, 1)).isZero();
  }

  @Test
  void aCountFromAFileIsCappedSoThatItCannotWrap() {
    GenerationCounts c = new GenerationCounts(new long[] {7}, new long[] {Long.MAX_VALUE});
    assertThat(c.count(0, 7)).isEqualTo(GenerationCounts.MAX_LOADED);
    c.increment(0, 7);
    assertThat(c.count(0, 7)).isEqualTo(GenerationCounts.MAX_LOADED + 1);
    c.increment(0, 15); // the next slot starts from 0 whatever the counter holds
    assertThat(c.count(0, 15)).isEqualTo(1);
  }

  @Test
  void concurrentIncrementsAreAllCounted() throws Exception {
    GenerationCounts c = new GenerationCounts(new long[] {3, 3}, new long[2]);
    LongAdder done = new LongAdder();
    ConcurrentRun.together(4, t -> {
      for (int i = 0; i < 100_000; i++) {
        c.increment(t & 1, 3);
        done.increment();
      }
    });
    assertThat(c.count(0, 3) + c.count(1, 3)).isEqualTo(done.sum()).isEqualTo(400_000);
  }
}
