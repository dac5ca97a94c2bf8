package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real threads growing one {@link ScalableBloomFilter} across many layer boundaries: no add that
 * finished is ever missing, exactly one layer is built per boundary, no layer takes more than its
 * capacity, and clear() racing with growth leaves a consistent filter. Threads start together
 * ({@link ConcurrentRun}, which joins them with a timeout) and meet at barriers where a test has
 * rounds; nothing sleeps. Four threads, whatever the core count (two here), so that
 * threads are also preempted in the middle of an add or a growth.
 *
 * <p>Keys are longs whose high bits name the thread that adds them, so the threads' keys are disjoint.
 * Most tests use "roomy" layers ({@link #roomyLayouts}): 256 bits per item of capacity and 12 hash
 * functions, a false-positive rate below 1e-16 even when full, so that no add is refused as a false
 * positive (with some 10^7 layer lookups per test, about one run in 10^9 would see one) and the number
 * of adds that return true, and with it the layer count, is known exactly in advance.
 */
class ScalableConcurrentStressTest {
  private static final int THREADS = 4;

  private static long key(int owner, long index) {
    return ((long) owner << 40) | index;
  }

  /** Layer i: 256 bits per item of its capacity n0·s^i, k = 12; counts the layers built in {@code built}. */
  static IntFunction<Layout> roomyLayouts(long initialCapacity, int growthFactor, AtomicInteger built) {
    return i -> {
      built.incrementAndGet();
      long capacity = initialCapacity;
      for (int j = 0; j < i; j++) {
        capacity *= growthFactor;
      }
      return new StandardLayout(256 * capacity, 12);
    };
  }

  /** n0·(1 + s + ... + s^(layers-1)): the adds after which the filter has layers + 1 layers. */
  private static long boundary(long initialCapacity, int growthFactor, int layers) {
    long sum = 0;
    long capacity = initialCapacity;
    for (int i = 0; i < layers; i++) {
      sum += capacity;
      capacity *= growthFactor;
    }
    return sum;
  }

  // ---------------------------------------------------------------- adds across boundaries

  /**
   * Four threads add 1,023,000 disjoint keys, exactly the capacity of ten layers of n0 = 1,000, s = 2.
   * Afterwards the filter must have exactly 11 layers (the 11th added by the add that took the last
   * slot, and empty), each of the first ten exactly full, 11 layers built in all, and every key present.
   */
  @Test
  @Timeout(60)
  void allThreadsAddingAcrossTenBoundariesGiveExactlyTheExpectedLayers() throws Exception {
    AtomicInteger built = new AtomicInteger();
    ScalableBloomFilter<Long> f = ScalableBloomFilter.withLayouts(Funnels.longFunnel(), 1_000, 2,
        roomyLayouts(1_000, 2, built));
    long total = boundary(1_000, 2, 10);
    long perThread = total / THREADS;
    assertThat(perThread * THREADS).isEqualTo(total);
    long reportedNew = addDisjointKeys(f, perThread);

    assertThat(falseNegatives(f, THREADS, perThread)).as("keys missing after all adds").isZero();
    assertThat(f.count()).isEqualTo(reportedNew).isEqualTo(total);
    assertThat(f.layerCount()).isEqualTo(11);
    assertThat(built.get()).as("layers built").isEqualTo(11);
    List<ScalableBloomFilter.LayerStats> layers = f.layerStats();
    for (int i = 0; i < 10; i++) {
      assertThat(layers.get(i).count()).as("adds in layer %d", i).isEqualTo(layers.get(i).capacity());
    }
    assertThat(layers.get(10).count()).isZero();
  }

  /**
   * The same with the real sizing (p = 1%, n0 = 1,000), where some adds return false because the item
   * is a false positive already: the layer count must match the adds that returned true, no layer may
   * hold more than its capacity (the guarantee behind the compound bound), and no key may be missing.
   */
  @Test
  @Timeout(60)
  void realSizingUnderConcurrentGrowthKeepsEveryLayerWithinItsCapacity() throws Exception {
    ScalableBloomFilter<Long> f = ScalableBloomFilter.create(Funnels.longFunnel(), 1_000, 0.01);
    long perThread = 250_000;
    long reportedNew = addDisjointKeys(f, perThread);

    assertThat(falseNegatives(f, THREADS, perThread)).as("keys missing after all adds").isZero();
    assertThat(f.count()).isEqualTo(reportedNew);
    assertThat(f.layerCount()).isEqualTo(ScalableBloomFilterTest.expectedLayers(1_000, 2, f.count())).isEqualTo(10);
    for (ScalableBloomFilter.LayerStats layer : f.layerStats()) {
      assertThat(layer.count()).isLessThanOrEqualTo(layer.capacity());
    }
    assertThat(f.fppBound()).isLessThan(0.01);
  }

  /**
   * Adders publish how far they got while readers look up keys whose add had returned: a query must
   * find every finished add while layers are being added, so it never sees a half-built layer and no
   * add lands where later queries do not look.
   */
  @Test
  @Timeout(60)
  void finishedAddsStayVisibleWhileTheFilterGrows() throws Exception {
    int adders = 2;
    long perAdder = 400_000;
    AtomicInteger built = new AtomicInteger();
    ScalableBloomFilter<Long> f = ScalableBloomFilter.withLayouts(Funnels.longFunnel(), 100, 2,
        roomyLayouts(100, 2, built));
    AtomicLongArray done = new AtomicLongArray(adders);
    AtomicLong lookups = new AtomicLong();
    AtomicReference<String> firstMiss = new AtomicReference<>();
    AtomicInteger addersRunning = new AtomicInteger(adders);

    ConcurrentRun.together(THREADS, t -> {
      if (t < adders) {
        for (long i = 0; i < perAdder; i++) {
          f.add(key(t, i));
          done.set(t, i + 1);
        }
        addersRunning.decrementAndGet();
        return;
      }
      ThreadLocalRandom random = ThreadLocalRandom.current();
      while (addersRunning.get() > 0) {
        int owner = random.nextInt(adders);
        long finished = done.get(owner);
        if (finished > 0) {
          for (long k : new long[] {key(owner, finished - 1), key(owner, random.nextLong(finished))}) {
            lookups.incrementAndGet();
            if (!f.mightContain(k)) {
              firstMiss.compareAndSet(null, "key " + Long.toHexString(k) + " finished but not found");
            }
          }
        }
      }
    });

    assertThat(firstMiss.get()).as("first finished key missing during the run").isNull();
    assertThat(lookups.get()).isPositive();
    assertThat(f.layerCount()).isEqualTo(ScalableBloomFilterTest.expectedLayers(100, 2, adders * perAdder));
    assertThat(built.get()).isEqualTo(f.layerCount());
  }

  /**
   * Two threads add while a third copies the filter again and again as it grows. Each copy must hold
   * every key whose add had returned before copy() began (read from the adders' progress just before
   * the call), no copied layer may count more adds than its capacity, and a copy must go on working as
   * a filter of its own: after the run, three of the copies take every key from two threads at once and
   * must then hold all of them, each layer within its capacity, while the original is left as it was.
   */
  @Test
  @Timeout(60)
  void aCopyTakenDuringAddsAndGrowthHoldsEveryFinishedAdd() throws Exception {
    int adders = 2;
    long perAdder = 200_000;
    ScalableBloomFilter<Long> f = ScalableBloomFilter.withLayouts(Funnels.longFunnel(), 100, 2,
        roomyLayouts(100, 2, new AtomicInteger()));
    AtomicLongArray done = new AtomicLongArray(adders);
    CountDownLatch underWay = new CountDownLatch(adders);
    AtomicInteger addersRunning = new AtomicInteger(adders);
    List<ScalableBloomFilter<Long>> kept = new ArrayList<>();
    List<long[]> keptDone = new ArrayList<>();
    AtomicReference<String> firstMiss = new AtomicReference<>();
    AtomicInteger copies = new AtomicInteger();

    ConcurrentRun.together(adders + 1, t -> {
      if (t < adders) {
        for (long i = 0; i < perAdder; i++) {
          f.add(key(t, i));
          done.set(t, i + 1);
          if (i == 1_000) {
            underWay.countDown();
          }
        }
        addersRunning.decrementAndGet();
        return;
      }
      underWay.await();
      ThreadLocalRandom random = ThreadLocalRandom.current();
      while (addersRunning.get() > 0) {
        long[] before = {done.get(0), done.get(1)};
        ScalableBloomFilter<Long> copy = f.copy();
        int n = copies.incrementAndGet();
        for (int owner = 0; owner < adders; owner++) {
          for (int j = 0; j < 200 && before[owner] > 0; j++) {
            long k = key(owner, j == 0 ? before[owner] - 1 : random.nextLong(before[owner]));
            if (!copy.mightContain(k)) {
              firstMiss.compareAndSet(null, "copy " + n + " misses " + Long.toHexString(k));
            }
          }
        }
        for (ScalableBloomFilter.LayerStats layer : copy.layerStats()) {
          if (layer.count() > layer.capacity()) {
            firstMiss.compareAndSet(null, "copy " + n + " has an overfull layer: " + layer);
          }
        }
        if (n == 1 || n == 4 || (kept.size() < 3 && addersRunning.get() == 1)) {
          kept.add(copy);
          keptDone.add(before);
        }
      }
    });

    assertThat(firstMiss.get()).as("first failure during the run").isNull();
    assertThat(copies.get()).as("copies taken").isGreaterThanOrEqualTo(1);
    assertThat(falseNegatives(f, adders, perAdder)).isZero();
    byte[] original = ScalableBloomFilterTest.bytes(f);
    for (int c = 0; c < kept.size(); c++) {
      ScalableBloomFilter<Long> copy = kept.get(c);
      for (int owner = 0; owner < adders; owner++) {
        for (long i = 0; i < keptDone.get(c)[owner]; i++) {
          assertThat(copy.mightContain(key(owner, i))).as("copy %d, key %d of %d", c, i, owner).isTrue();
        }
      }
      ConcurrentRun.together(adders, owner -> {
        for (long i = 0; i < perAdder; i++) {
          copy.add(key(owner, i));
        }
      });
      assertThat(falseNegatives(copy, adders, perAdder)).as("copy %d after adding every key", c).isZero();
      for (ScalableBloomFilter.LayerStats layer : copy.layerStats()) {
        assertThat(layer.count()).isLessThanOrEqualTo(layer.capacity());
      }
    }
    assertThat(ScalableBloomFilterTest.bytes(f)).as("the original, untouched by its copies").isEqualTo(original);
  }

  // ---------------------------------------------------------------- many threads at one boundary

  /**
   * Eight threads wait at a barrier while the filter is filled to one slot below a boundary, then all
   * add at once. One takes the last slot and builds the next layer; its layout is made to wait until
   * each of the other seven has either finished its add or is blocked inside it, so that they really
   * do arrive at a full layer while the next one is being built. They must wait (not overfill the full
   * layer) and then add to the new one. After each crossing exactly one more layer exists and has been
   * built, the full layer holds exactly its capacity, the new one the seven others, and all eight keys
   * are present. Ten boundaries per filter, twenty filters: 200 crossings.
   *
   * <p>"Blocked inside its add" is read from {@link Thread#getState()} after the thread has marked
   * that it entered the add: no latch can say that a thread is parked in the filter's own wait. The
   * builder polls with {@link Thread#yield()}; nothing sleeps.
   */
  @Test
  @Timeout(60)
  void exactlyOneLayerPerBoundaryWhenManyThreadsCrossAtOnce() throws Exception {
    int threads = 8;
    int boundaries = 10;
    int filters = 20;
    long n0 = 16;
    Thread[] workers = new Thread[threads];
    AtomicLongArray entered = new AtomicLongArray(threads); // the round whose add thread t has entered
    AtomicLongArray finished = new AtomicLongArray(threads); // the round whose add thread t has finished
    AtomicInteger built = new AtomicInteger();
    AtomicReference<ScalableBloomFilter<Long>> filter = new AtomicReference<>();
    AtomicLong round = new AtomicLong(-1);
    AtomicReference<String> firstProblem = new AtomicReference<>();
    IntFunction<Layout> roomy = roomyLayouts(n0, 2, built);
    IntFunction<Layout> layouts = i -> {
      if (i > 0) { // only crossings build layers past the first: fills stop one short of a boundary
        awaitOthersInOrPastTheirAdd(workers, entered, finished, round.get());
      }
      return roomy.apply(i);
    };
    // Runs while all threads wait: check the round just finished, then fill to one below the next boundary.
    CyclicBarrier barrier = new CyclicBarrier(threads, () -> {
      long r = round.get();
      if (r >= 0) {
        check(filter.get(), threads, r, (int) (r % boundaries) + 1, built.get(), firstProblem);
      }
      long next = round.incrementAndGet();
      int j = (int) (next % boundaries) + 1; // the boundary this round crosses
      if (j == 1) {
        built.set(0);
        filter.set(ScalableBloomFilter.withLayouts(Funnels.longFunnel(), n0, 2, layouts));
      }
      ScalableBloomFilter<Long> f = filter.get();
      for (long i = f.count(); f.count() < boundary(n0, 2, j) - 1; i++) {
        f.add(key(threads, i)); // the filler's namespace: owner `threads` is no worker
      }
    });

    ConcurrentRun.together(threads, t -> {
      workers[t] = Thread.currentThread();
      for (int r = 0; r < boundaries * filters; r++) {
        barrier.await();
        long now = round.get();
        entered.set(t, now);
        filter.get().add(key(t, now));
        finished.set(t, now);
      }
      barrier.await(); // lets the barrier action check the last round
    });

    assertThat(firstProblem.get()).isNull();
    assertThat(round.get()).isEqualTo((long) boundaries * filters);
  }

  /** Polls until every worker but the caller has entered its add of {@code round} and finished it or blocked in it. */
  @SuppressWarnings("ThreadPriorityCheck") // deliberate: let the other workers run (2 cores)
  private static void awaitOthersInOrPastTheirAdd(Thread[] workers, AtomicLongArray entered,
      AtomicLongArray finished, long round) {
    for (int t = 0; t < workers.length; t++) {
      if (workers[t] == Thread.currentThread()) {
        continue;
      }
      while (entered.get(t) != round
          || (finished.get(t) != round && workers[t].getState() != Thread.State.WAITING)) {
        Thread.yield();
      }
    }
  }

  /** After crossing boundary j: j + 1 layers, built once each; layer j-1 full, layer j holding the others. */
  private static void check(ScalableBloomFilter<Long> f, int threads, long round, int j, int built,
      AtomicReference<String> firstProblem) {
    StringBuilder problem = new StringBuilder();
    List<ScalableBloomFilter.LayerStats> layers = f.layerStats();
    if (layers.size() != j + 1 || built != j + 1) {
      problem.append("layers ").append(layers.size()).append(", built ").append(built).append(", expected ")
          .append(j + 1).append("; ");
    } else if (layers.get(j - 1).count() != layers.get(j - 1).capacity() || layers.get(j).count() != threads - 1) {
      problem.append("layer ").append(j - 1).append(" holds ").append(layers.get(j - 1).count()).append(" of ")
          .append(layers.get(j - 1).capacity()).append(", layer ").append(j).append(" holds ")
          .append(layers.get(j).count()).append("; ");
    }
    for (int t = 0; t < threads; t++) {
      if (!f.mightContain(key(t, round))) {
        problem.append("thread ").append(t).append("'s key missing; ");
      }
    }
    if (problem.length() > 0) {
      firstProblem.compareAndSet(null, "round " + round + ": " + problem);
    }
  }

  // ---------------------------------------------------------------- clear racing with growth

  /**
   * One thread clears over and over while three add to a filter of n0 = 4 that keeps growing, until the
   * adders are 80% done; the adders' last tenth waits for the clearer to stop. An add that overlaps a
   * clear may be cleared; but an add and a query with no clear running at any moment between them must
   * agree, every key whose add began after the last clear returned must be present, and the final
   * generation must have exactly the layers its count implies (a layer built for a cleared generation
   * must never be grafted onto a later one).
   */
  @Test
  @Timeout(60)
  void clearRacingWithGrowthKeepsEveryAddAfterTheLastClear() throws Exception {
    int adders = THREADS - 1;
    int perAdder = 300_000;
    long clearUntil = (long) adders * perAdder * 8 / 10;
    AtomicInteger built = new AtomicInteger();
    ScalableBloomFilter<Long> f = ScalableBloomFilter.withLayouts(Funnels.longFunnel(), 4, 2,
        roomyLayouts(4, 2, built));
    AtomicLong progress = new AtomicLong();
    AtomicLong started = new AtomicLong();
    AtomicLong completed = new AtomicLong();
    long[][] clearsBefore = new long[adders][perAdder];
    AtomicLong checkedPairs = new AtomicLong();
    AtomicReference<String> firstMiss = new AtomicReference<>();
    // Each adder adds its last tenth only after the clearer has stopped, so that some adds surely start
    // after the last clear however the threads are scheduled. The clearer stops at 80% of all adds,
    // which the adders reach before any of them waits at 90% of its own.
    CountDownLatch clearsOver = new CountDownLatch(1);
    int lastTenth = perAdder - perAdder / 10;

    ConcurrentRun.together(THREADS, t -> {
      if (t == adders) { // the clearer
        for (long c = 1; progress.get() < clearUntil; c++) {
          started.set(c);
          f.clear();
          completed.set(c);
        }
        clearsOver.countDown();
        return;
      }
      long checked = 0;
      for (int i = 0; i < perAdder; i++) {
        if (i == lastTenth) {
          clearsOver.await();
        }
        long completedBefore = completed.get();
        long startedBefore = started.get(); // read second: equal means no clear was running here
        clearsBefore[t][i] = completedBefore;
        f.add(key(t, i));
        boolean found = f.mightContain(key(t, i));
        if (startedBefore == completedBefore && started.get() == startedBefore) {
          checked++;
          if (!found) {
            firstMiss.compareAndSet(null, "adder " + t + " key " + i + " not found with no clear in between");
          }
        }
        if ((i & 1023) == 1023) {
          progress.addAndGet(1024);
        }
      }
      checkedPairs.addAndGet(checked);
    });

    long clears = completed.get();
    assertThat(firstMiss.get()).isNull();
    assertThat(clears).as("clears").isGreaterThan(1);
    assertThat(checkedPairs.get()).isPositive();
    long mustBePresent = 0;
    long missing = 0;
    for (int a = 0; a < adders; a++) {
      for (int i = 0; i < perAdder; i++) {
        if (clearsBefore[a][i] == clears) {
          mustBePresent++;
          if (!f.mightContain(key(a, i))) {
            missing++;
          }
        }
      }
    }
    assertThat(mustBePresent).as("keys added after the last clear").isPositive();
    assertThat(missing).as("of %d keys added after the last clear, missing", mustBePresent).isZero();
    assertThat(f.layerCount()).isEqualTo(ScalableBloomFilterTest.expectedLayers(4, 2, f.count()));
    List<ScalableBloomFilter.LayerStats> layers = f.layerStats();
    for (int i = 0; i < layers.size() - 1; i++) {
      assertThat(layers.get(i).count()).as("adds in layer %d", i).isEqualTo(layers.get(i).capacity());
    }
  }

  // ---------------------------------------------------------------- harness

  /** Each of the {@link #THREADS} threads adds its keys 0 .. perThread-1; returns the adds that returned true. */
  private static long addDisjointKeys(ScalableBloomFilter<Long> f, long perThread) throws Exception {
    LongAdder reportedNew = new LongAdder();
    ConcurrentRun.together(THREADS, owner -> {
      for (long i = 0; i < perThread; i++) {
        if (f.add(key(owner, i))) {
          reportedNew.increment();
        }
      }
    });
    return reportedNew.sum();
  }

  private static long falseNegatives(ScalableBloomFilter<Long> f, int owners, long perOwner) {
    long missing = 0;
    for (int o = 0; o < owners; o++) {
      for (long i = 0; i < perOwner; i++) {
        if (!f.mightContain(key(o, i))) {
          missing++;
        }
      }
    }
    return missing;
  }
}
