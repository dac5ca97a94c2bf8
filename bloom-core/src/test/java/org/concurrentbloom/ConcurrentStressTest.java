package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real threads hammering one filter: no add that finished is ever missing (no false negatives), while
 * other threads add, query, merge and clear. Uses every available core, at least two. Threads are
 * released together by {@link ConcurrentRun} (and meet at barriers where a test has rounds), which also
 * fails a test whose threads hang; nothing sleeps. The whole class takes a few seconds.
 *
 * <p>Keys are longs whose high bits name the thread that adds them, so the threads' key sets are
 * disjoint: a key can only be present because its own add (or a merge of a filter holding it) ran.
 * {@link #concurrentStringAddsLoseNothing} adds String keys, which strategies 4 and 5 hash from their
 * chars. Every test runs for hash strategies 1, 2 (standard and blocked layouts, MurmurHash3), 4 and 5
 * (the same layouts, XXH3-64); the class takes about four times as long as with one strategy.
 */
class ConcurrentStressTest {
  private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  private static long key(int owner, long index) {
    return ((long) owner << 40) | index;
  }

  /** Every test runs for the strategies of new filters (4, 5) and of older files (1, 2). */
  static Stream<HashStrategy> strategies() {
    return FalsePositiveRateTest.STRATEGIES.stream();
  }

  /** A filter sized for n keys at rate p, in the layout of {@code strategy}. */
  private static BloomFilter<Long> sized(HashStrategy strategy, long n, double p) {
    return FalsePositiveRateTest.filter(Funnels.longFunnel(), strategy, n, p);
  }

  /** A filter of exactly {@code bits} bits (a multiple of 512) and k hash functions. */
  private static BloomFilter<Long> shaped(HashStrategy strategy, long bits, int k) {
    Layout layout = FalsePositiveRateTest.isBlocked(strategy) ? new BlockedLayout(bits, k, strategy)
        : new StandardLayout(bits, k, strategy);
    return BloomFilter.withLayout(Funnels.longFunnel(), layout);
  }

  // ---------------------------------------------------------------- adds only

  /** All threads add disjoint keys to one filter sized for them; afterwards every key is present. */
  @ParameterizedTest
  @MethodSource("strategies")
  @Timeout(60)
  void concurrentAddsLoseNothing(HashStrategy strategy) throws Exception {
    int perThread = 1_000_000;
    BloomFilter<Long> filter = sized(strategy, (long) THREADS * perThread, 0.01);
    LongAdder reportedNew = new LongAdder();

    ConcurrentRun.together(THREADS, owner -> {
      for (long i = 0; i < perThread; i++) {
        if (filter.add(key(owner, i))) {
          reportedNew.increment();
        }
      }
    });

    assertThat(falseNegatives(filter, THREADS, perThread)).as("keys missing after all adds").isZero();
    // No two threads add the same key, so count() is exactly the number of adds that returned true.
    assertThat(filter.count()).isEqualTo(reportedNew.sum());
  }

  /** As {@link #concurrentAddsLoseNothing}, with String keys (strategies 4 and 5 hash their chars). */
  @ParameterizedTest
  @MethodSource("strategies")
  @Timeout(60)
  void concurrentStringAddsLoseNothing(HashStrategy strategy) throws Exception {
    int perThread = 200_000;
    BloomFilter<CharSequence> filter =
        FalsePositiveRateTest.filter(Funnels.stringFunnel(), strategy, (long) THREADS * perThread, 0.01);
    LongAdder reportedNew = new LongAdder();

    ConcurrentRun.together(THREADS, owner -> {
      for (int i = 0; i < perThread; i++) {
        if (filter.add(stringKey(owner, i))) {
          reportedNew.increment();
        }
      }
    });

    long missing = 0;
    for (int owner = 0; owner < THREADS; owner++) {
      for (int i = 0; i < perThread; i++) {
        if (!filter.mightContain(stringKey(owner, i))) {
          missing++;
        }
      }
    }
    assertThat(missing).as("string keys missing after all adds").isZero();
    assertThat(filter.count()).isEqualTo(reportedNew.sum());
  }

  /** Thread {@code owner}'s key i: distinct across threads, some with non-Latin-1 chars. */
  private static String stringKey(int owner, int i) {
    return (i % 4 == 0 ? "\u4e2d" : "k") + owner + ":" + i;
  }

  /**
   * Many short rounds on a 4096-bit filter (64 words) so that the threads keep colliding on words:
   * every round all threads start together, each adds its own keys, and then every key is checked.
   * Few enough keys per round that the filter stays under half full, so a lost bit cannot hide behind
   * other keys' bits for long.
   */
  @ParameterizedTest
  @MethodSource("strategies")
  @Timeout(60)
  void concurrentAddsOnFewWordsLoseNothing(HashStrategy strategy) throws Exception {
    int bits = 4096;
    int perThread = 300 / THREADS + 1;
    int rounds = 20_000;
    AtomicReference<BloomFilter<Long>> current = new AtomicReference<>();
    AtomicLong missing = new AtomicLong();
    AtomicLong round = new AtomicLong();
    // The barrier action runs between rounds, while every thread waits: check the last round, start
    // the next one.
    CyclicBarrier barrier = new CyclicBarrier(THREADS, () -> {
      BloomFilter<Long> done = current.get();
      if (done != null) {
        missing.addAndGet(falseNegatives(done, THREADS, perThread, round.get()));
      }
      round.incrementAndGet();
      current.set(shaped(strategy, bits, 3));
    });

    ConcurrentRun.together(THREADS, owner -> {
      for (int r = 0; r <= rounds; r++) {
        barrier.await();
        if (r < rounds) {
          BloomFilter<Long> filter = current.get();
          long base = round.get() * perThread;
          for (long i = 0; i < perThread; i++) {
            filter.add(key(owner, base + i));
          }
        }
      }
    });

    assertThat(round.get()).isEqualTo(rounds + 1);
    assertThat(missing.get()).as("keys missing at the end of their round").isZero();
  }

  // ---------------------------------------------------------------- adds, queries and merges

  /**
   * Adders add and publish how far they got; readers look up keys whose add had returned before they
   * looked; one thread keeps merging in another filter. Every published key, and after the first
   * merge returned every key of the other filter, must be found, during the run and after it.
   */
  @ParameterizedTest
  @MethodSource("strategies")
  @Timeout(60)
  void finishedAddsStayVisibleDuringMergesAndQueries(HashStrategy strategy) throws Exception {
    int adderCount = Math.max(1, THREADS - 2);
    int readerCount = Math.max(1, THREADS - adderCount - 1);
    int perAdder = 1_000_000;
    int mergedKeys = 20_000;
    int mergeOwner = adderCount; // a key namespace no adder uses

    long expected = (long) adderCount * perAdder + mergedKeys;
    BloomFilter<Long> filter = sized(strategy, expected, 0.01);
    BloomFilter<Long> other = sized(strategy, expected, 0.01);
    for (long i = 0; i < mergedKeys; i++) {
      other.add(key(mergeOwner, i));
    }

    // done[a] = number of keys adder a has finished adding (written after each add returns).
    AtomicLongArray done = new AtomicLongArray(adderCount);
    CountDownLatch firstMergeReturned = new CountDownLatch(1);
    AtomicLong merges = new AtomicLong();
    AtomicLong lookups = new AtomicLong();
    AtomicReference<String> firstMiss = new AtomicReference<>();
    ConcurrentRun run = new ConcurrentRun();

    run.tasks(adderCount, owner -> {
      for (long i = 0; i < perAdder; i++) {
        long k = key(owner, i);
        filter.add(k);
        if (!filter.mightContain(k)) { // read-your-writes: nothing removes keys in this test
          firstMiss.compareAndSet(null, "adder " + owner + " did not see its own key " + i);
        }
        done.set(owner, i + 1);
      }
    });
    run.background(() -> {
      while (!run.stopping()) {
        filter.merge(other);
        merges.incrementAndGet();
        firstMergeReturned.countDown();
      }
    });
    for (int r = 0; r < readerCount; r++) {
      run.background(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!run.stopping()) {
          int owner = random.nextInt(adderCount);
          long finished = done.get(owner);
          if (finished > 0) {
            // The newest finished key, and an older one.
            check(filter, key(owner, finished - 1), firstMiss, lookups);
            check(filter, key(owner, random.nextLong(finished)), firstMiss, lookups);
          }
          if (firstMergeReturned.getCount() == 0) {
            check(filter, key(mergeOwner, random.nextLong(mergedKeys)), firstMiss, lookups);
          }
        }
      });
    }
    run.run();

    assertThat(firstMiss.get()).as("first key missing during the run").isNull();
    assertThat(merges.get()).as("merges").isPositive();
    assertThat(lookups.get()).as("checked lookups").isPositive();
    assertThat(falseNegatives(filter, adderCount, perAdder)).as("added keys missing at the end").isZero();
    assertThat(falseNegatives(filter, mergeOwner, 1, mergedKeys, 0)).as("merged keys missing").isZero();
  }

  private static void check(BloomFilter<Long> filter, long key, AtomicReference<String> firstMiss,
      AtomicLong lookups) {
    lookups.incrementAndGet();
    if (!filter.mightContain(key)) {
      firstMiss.compareAndSet(null, "key " + Long.toHexString(key) + " finished but not found");
    }
  }

  // ---------------------------------------------------------------- adds and clears

  /**
   * One thread clears over and over while the others add, until the adders are 80% done. An add that
   * overlaps a clear may be cleared; but an add and a query with no clear running at any moment
   * between them must agree, and every key whose add began after the last clear returned must be
   * present at the end.
   */
  @ParameterizedTest
  @MethodSource("strategies")
  @Timeout(60)
  void addsAfterTheLastClearArePresent(HashStrategy strategy) throws Exception {
    int adderCount = Math.max(1, THREADS - 1);
    int perAdder = 1_000_000;
    long clearUntil = (long) adderCount * perAdder * 8 / 10;
    BloomFilter<Long> filter = shaped(strategy, 1 << 20, 7);
    AtomicLong progress = new AtomicLong(); // keys added so far, in steps of 1024

    // The clearer bumps started before each clear and completed after it returns.
    AtomicLong started = new AtomicLong();
    AtomicLong completed = new AtomicLong();
    // For each adder and key: how many clears had completed when its add began.
    long[][] clearsBefore = new long[adderCount][perAdder];
    AtomicLong checkedPairs = new AtomicLong();
    AtomicReference<String> firstMiss = new AtomicReference<>();
    // Each adder's last tenth waits until the clearer has stopped (it stops at 80% of all adds, which
    // 90% of each adder's keys exceed), so some adds always come after the last clear, however the
    // threads are scheduled.
    CountDownLatch clearerStopped = new CountDownLatch(1);
    int lastTenth = perAdder - perAdder / 10;

    ConcurrentRun run = new ConcurrentRun();
    run.tasks(adderCount, owner -> {
      long checked = 0;
      for (int i = 0; i < perAdder; i++) {
        if (i == lastTenth) {
          clearerStopped.await();
        }
        long k = key(owner, i);
        long completedBefore = completed.get();
        long startedBefore = started.get(); // read second: equal means no clear was running here
        clearsBefore[owner][i] = completedBefore;
        filter.add(k);
        boolean found = filter.mightContain(k);
        if (startedBefore == completedBefore && started.get() == startedBefore) {
          checked++;
          if (!found) {
            firstMiss.compareAndSet(null, "adder " + owner + " key " + i
                + " not found although no clear ran between its add and the query");
          }
        }
        if ((i & 1023) == 1023) {
          progress.addAndGet(1024);
        }
      }
      checkedPairs.addAndGet(checked);
    });
    run.task(() -> { // the clearer
      try {
        for (long c = 1; progress.get() < clearUntil; c++) {
          started.set(c);
          filter.clear();
          completed.set(c);
        }
      } finally {
        clearerStopped.countDown();
      }
    });
    run.run();

    long clears = completed.get();
    assertThat(firstMiss.get()).as("first add not seen by its own query").isNull();
    assertThat(clears).as("clears").isPositive();
    assertThat(checkedPairs.get()).as("add/query pairs with no clear between").isPositive();
    long mustBePresent = 0;
    long missing = 0;
    for (int a = 0; a < adderCount; a++) {
      for (int i = 0; i < perAdder; i++) {
        if (clearsBefore[a][i] == clears) {
          mustBePresent++;
          if (!filter.mightContain(key(a, i))) {
            missing++;
          }
        }
      }
    }
    assertThat(mustBePresent).as("keys added after the last clear").isPositive();
    assertThat(missing).as("of %d keys added after the last clear, missing", mustBePresent).isZero();
  }

  // ---------------------------------------------------------------- checks

  /** How many of keys 0..perOwner-1 of owners 0..owners-1 {@code filter} does not report. */
  private static long falseNegatives(BloomFilter<Long> filter, int owners, long perOwner) {
    return falseNegatives(filter, owners, perOwner, 0);
  }

  private static long falseNegatives(BloomFilter<Long> filter, int owners, long perOwner, long round) {
    return falseNegatives(filter, 0, owners, perOwner, round * perOwner);
  }

  private static long falseNegatives(BloomFilter<Long> filter, int firstOwner, int owners,
      long perOwner, long firstIndex) {
    long missing = 0;
    for (int o = firstOwner; o < firstOwner + owners; o++) {
      for (long i = firstIndex; i < firstIndex + perOwner; i++) {
        if (!filter.mightContain(key(o, i))) {
          missing++;
        }
      }
    }
    return missing;
  }
}
