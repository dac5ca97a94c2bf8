package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real threads adding and removing on one {@link CountingBloomFilter}: keys that are never removed are
 * never reported absent (zero false negatives), removes of added keys always succeed and take exactly
 * one copy, and when the threads are done the counters are exactly those of a filter that was given the
 * surviving keys one by one (no increment or decrement lost or doubled). Threads start together
 * ({@link ConcurrentRun}, which also fails a test whose threads hang) and meet at barriers where a test
 * has rounds; nothing sleeps. A few seconds in all.
 *
 * <p>Keys are longs whose high bits name the owning thread, so the threads' key sets are disjoint and a
 * key is present only through its own adds.
 */
class CountingConcurrentStressTest {
  private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  private static long key(int owner, long index) {
    return ((long) owner << 40) | index;
  }

  /** Kept keys are even, removed keys odd. */
  private static boolean kept(long index) {
    return (index & 1) == 0;
  }

  /** A filter of the same shape given {@code keys} sequentially: what the counters must end up as. */
  private static long[] sequentialWords(CountingBloomFilter<Long> shape, int owners, long perOwner, long first) {
    CountingBloomFilter<Long> f = shape.copy(); // the same shape and hash strategy, emptied
    f.clear();
    for (int o = 0; o < owners; o++) {
      for (long i = first; i < first + perOwner; i++) {
        if (kept(i)) {
          f.add(key(o, i));
        }
      }
    }
    return f.currentWords();
  }

  /**
   * Each thread adds its keys and at once removes every odd one, publishing how far it got; the other
   * threads and background readers check that published even keys are present. At the end every even
   * key is present, every remove returned true, and the counters equal a sequential rebuild.
   */
  @Test
  @Timeout(60)
  void addsAndRemovesOfOtherKeysNeverLoseAKeptKey() throws Exception {
    int perThread = 400_000;
    CountingBloomFilter<Long> filter = CountingBloomFilter.create(Funnels.longFunnel(),
        (long) THREADS * perThread / 2, 0.01);
    AtomicLongArray done = new AtomicLongArray(THREADS);
    AtomicReference<String> firstFailure = new AtomicReference<>();
    AtomicLong lookups = new AtomicLong();

    ConcurrentRun run = new ConcurrentRun();
    run.tasks(THREADS, owner -> {
      for (long i = 0; i < perThread; i++) {
        long k = key(owner, i);
        filter.add(k);
        if (!kept(i) && !filter.remove(k)) {
          firstFailure.compareAndSet(null, "remove of added key " + Long.toHexString(k) + " returned false");
        }
        done.set(owner, i + 1);
        checkPublished(filter, done, firstFailure, lookups);
      }
    });
    run.background(() -> {
      while (!run.stopping()) {
        checkPublished(filter, done, firstFailure, lookups);
      }
    });
    run.run();

    assertThat(firstFailure.get()).as("first failure during the run").isNull();
    assertThat(lookups.get()).isPositive();
    long missing = 0;
    for (int o = 0; o < THREADS; o++) {
      for (long i = 0; i < perThread; i += 2) {
        missing += filter.mightContain(key(o, i)) ? 0 : 1;
      }
    }
    assertThat(missing).as("kept keys missing at the end").isZero();
    assertThat(filter.stuckCounters()).as("no saturation at this load, so counters are exact").isZero();
    assertThat(filter.currentWords()).isEqualTo(sequentialWords(filter, THREADS, perThread, 0));
  }

  /** Looks up a random published kept key of a random thread; records a miss. */
  private static void checkPublished(CountingBloomFilter<Long> filter, AtomicLongArray done,
      AtomicReference<String> firstFailure, AtomicLong lookups) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int owner = random.nextInt(done.length());
    long finished = done.get(owner);
    if (finished > 0) {
      long i = random.nextLong(finished) & ~1L; // an even index below finished
      lookups.incrementAndGet();
      if (!filter.mightContain(key(owner, i))) {
        firstFailure.compareAndSet(null, "kept key " + i + " of thread " + owner + " missing");
      }
    }
  }

  /**
   * Many short rounds on 1024 counters (64 words, 4 stripes) so that threads collide on words and
   * stripes all the time: every round each thread adds its keys and removes half of them, and between
   * rounds the counters must equal a sequential rebuild of the kept keys.
   */
  @Test
  @Timeout(60)
  void churnOnFewWordsIsExact() throws Exception {
    int counters = 1024;
    int perThread = 60;
    int rounds = 20_000;
    AtomicReference<CountingBloomFilter<Long>> current = new AtomicReference<>();
    AtomicLong round = new AtomicLong();
    AtomicLong wrongRounds = new AtomicLong();
    AtomicLong failedRemoves = new AtomicLong();
    CyclicBarrier barrier = new CyclicBarrier(THREADS, () -> {
      CountingBloomFilter<Long> done = current.get();
      if (done != null) {
        long first = round.get() * perThread;
        if (done.stuckCounters() != 0
            || !java.util.Arrays.equals(done.currentWords(), sequentialWords(done, THREADS, perThread, first))) {
          wrongRounds.incrementAndGet();
        }
      }
      round.incrementAndGet();
      current.set(CountingBloomFilter.withShape(Funnels.longFunnel(), counters, 3, 4));
    });

    ConcurrentRun.together(THREADS, owner -> {
      for (int r = 0; r <= rounds; r++) {
        barrier.await();
        if (r < rounds) {
          CountingBloomFilter<Long> filter = current.get();
          long first = round.get() * perThread;
          for (long i = first; i < first + perThread; i++) {
            filter.add(key(owner, i));
          }
          for (long i = first + 1; i < first + perThread; i += 2) {
            if (!filter.remove(key(owner, i))) {
              failedRemoves.incrementAndGet();
            }
          }
        }
      }
    });

    assertThat(round.get()).isEqualTo(rounds + 1);
    assertThat(failedRemoves.get()).as("removes of added keys that returned false").isZero();
    assertThat(wrongRounds.get()).as("rounds whose counters differ from a sequential rebuild").isZero();
  }

  /**
   * Every thread removes the same keys, each added once, in its own order: exactly one remove of each
   * key succeeds, and afterwards every counter is 0. (The filter is sized far above the key count, so
   * no key's counters stay covered by keys not yet removed, which would let a second remove succeed.)
   */
  @Test
  @Timeout(60)
  void racingRemovesOfOneAddSucceedOnce() throws Exception {
    int keys = 1 << 14;
    CountingBloomFilter<Long> filter = CountingBloomFilter.create(Funnels.longFunnel(), 1_000_000, 0.001);
    for (long i = 0; i < keys; i++) {
      filter.add(key(0, i));
    }
    AtomicIntegerArray successes = new AtomicIntegerArray(keys);
    ConcurrentRun.together(THREADS, t -> {
      int stride = 2 * t + 1; // odd, so coprime with the key count: each thread visits every key
      for (long j = 0; j < keys; j++) {
        int i = (int) (j * stride % keys);
        if (filter.remove(key(0, i))) {
          successes.incrementAndGet(i);
        }
      }
    });

    for (int i = 0; i < keys; i++) {
      assertThat(successes.get(i)).as("successful removes of key %d", i).isEqualTo(1);
    }
    assertThat(filter.currentWords()).containsOnly(0L);
    assertThat(filter.count()).isZero();
  }

  /**
   * Adders and removers of their own keys while one thread keeps merging another filter in and taking
   * snapshots (copy, write and read back). Published kept keys must be present in the filter, and in
   * every snapshot taken after they were published; the merged keys after the first merge returned.
   */
  @Test
  @Timeout(60)
  void keptKeysSurviveMergesAndSnapshots() throws Exception {
    int workerCount = Math.max(1, THREADS - 1);
    int perWorker = 1_000_000;
    int mergedKeys = 5_000;
    int mergeOwner = workerCount;
    CountingBloomFilter<Long> filter = CountingBloomFilter.create(Funnels.longFunnel(),
        (long) workerCount * perWorker / 2 + mergedKeys, 0.01);
    CountingBloomFilter<Long> other = CountingBloomFilter.create(Funnels.longFunnel(),
        (long) workerCount * perWorker / 2 + mergedKeys, 0.01);
    for (long i = 0; i < mergedKeys; i++) {
      other.add(key(mergeOwner, i));
    }
    AtomicLongArray done = new AtomicLongArray(workerCount);
    AtomicReference<String> firstFailure = new AtomicReference<>();
    AtomicLong merges = new AtomicLong();
    AtomicLong snapshots = new AtomicLong();
    ConcurrentRun run = new ConcurrentRun();

    run.tasks(workerCount, owner -> {
      for (long i = 0; i < perWorker; i++) {
        long k = key(owner, i);
        filter.add(k);
        if (!kept(i) && !filter.remove(k)) {
          firstFailure.compareAndSet(null, "remove of added key " + Long.toHexString(k) + " returned false");
        }
        done.set(owner, i + 1);
      }
    });
    run.background(() -> { // merges and snapshots
      ThreadLocalRandom random = ThreadLocalRandom.current();
      while (!run.stopping()) {
        filter.merge(other);
        merges.incrementAndGet();
        int owner = random.nextInt(workerCount);
        long finished = done.get(owner);
        CountingBloomFilter<Long> snapshot = random.nextBoolean() ? filter.copy()
            : CountingBloomFilter.readFrom(new ByteArrayInputStream(MembershipFilterContractTest.bytes(filter)),
                Funnels.longFunnel());
        snapshots.incrementAndGet();
        for (long i = 0; i < finished; i += 1 + random.nextInt(64)) {
          if (kept(i) && !snapshot.mightContain(key(owner, i))) {
            firstFailure.compareAndSet(null, "snapshot lacks kept key " + i + " of thread " + owner);
          }
        }
        if (!filter.mightContain(key(mergeOwner, random.nextInt(mergedKeys)))) {
          firstFailure.compareAndSet(null, "merged key missing after a merge returned");
        }
      }
    });
    run.run();

    assertThat(firstFailure.get()).as("first failure during the run").isNull();
    assertThat(merges.get()).isPositive();
    assertThat(snapshots.get()).isPositive();
    long missing = 0;
    for (int o = 0; o < workerCount; o++) {
      for (long i = 0; i < perWorker; i += 2) {
        missing += filter.mightContain(key(o, i)) ? 0 : 1;
      }
    }
    for (long i = 0; i < mergedKeys; i++) {
      missing += filter.mightContain(key(mergeOwner, i)) ? 0 : 1;
    }
    assertThat(missing).as("kept and merged keys missing at the end").isZero();
  }
}
