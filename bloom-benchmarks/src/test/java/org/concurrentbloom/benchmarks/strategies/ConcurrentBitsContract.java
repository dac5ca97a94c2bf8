package org.concurrentbloom.benchmarks.strategies;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What every strategy must do: keep every bit that two threads set at once. Each strategy's test class
 * extends this one and says how to build it.
 *
 * <p>The filter is small (about 30,000 words) and each thread sets 700,000 bits into it, so the two
 * threads write the same words all the time: an unguarded read-modify-write would lose bits, and some
 * key of the losing thread would then be reported absent. (Checked: a plain, unsynchronised filter
 * put through this test fails it.)
 */
abstract class ConcurrentBitsContract {
  private static final int KEYS_PER_THREAD = 100_000;
  private static final int THREADS = 2;

  abstract ConcurrentBits create(long n, double fpp);

  /** Rounds on fresh filters: a lost update needs two writes to meet in a few-nanosecond window. */
  private static final int ROUNDS = 5;

  @Test
  void twoThreadsAddingAtOnceLoseNoKey() throws InterruptedException {
    for (int round = 0; round < ROUNDS; round++) {
      addConcurrentlyAndFindEveryKey();
    }
  }

  private void addConcurrentlyAndFindEveryKey() throws InterruptedException {
    ConcurrentBits bits = create(THREADS * KEYS_PER_THREAD, 0.01);
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int first = t * KEYS_PER_THREAD;
      Thread thread = new Thread(() -> {
        try {
          start.await();
          for (int i = first; i < first + KEYS_PER_THREAD; i++) {
            bits.add(h1(i), h2(i));
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      thread.start();
      threads.add(thread);
    }
    start.countDown(); // both threads are waiting: release them together
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(failure.get()).isNull();
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < THREADS * KEYS_PER_THREAD; i++) {
      if (!bits.mightContain(h1(i), h2(i))) {
        missing.add(i);
      }
    }
    assertThat(missing).as("keys lost to concurrent adds").isEmpty();
  }

  @Test
  void answersAbsentForMostKeysNeverAddedAndAddReportsNewBits() {
    ConcurrentBits bits = create(10_000, 0.01);
    assertThat(bits.mightContain(h1(0), h2(0))).isFalse();
    int added = 0;
    for (int i = 0; i < 10_000; i++) {
      if (bits.add(h1(i), h2(i))) {
        added++;
      }
    }
    // An add finds all its bits set already about as often as a query is a false positive: rarely.
    assertThat(added).isBetween(9_900, 10_000);
    assertThat(bits.add(h1(0), h2(0))).as("re-adding sets nothing new").isFalse();
    int falsePositives = 0;
    for (int i = 10_000; i < 110_000; i++) {
      if (bits.mightContain(h1(i), h2(i))) {
        falsePositives++;
      }
    }
    assertThat(falsePositives).isBetween(500, 1500); // 1% of 100,000, with room for chance
  }

  /** Test hashes: two independent well-mixed longs per index, standing in for MurmurHash3's halves. */
  static long h1(long i) {
    return mix(2 * i);
  }

  static long h2(long i) {
    return mix(2 * i + 1);
  }

  private static long mix(long z) {
    z = (z + 0x9E3779B97F4A7C15L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
