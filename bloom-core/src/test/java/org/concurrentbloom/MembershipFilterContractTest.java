package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link MembershipFilter} must share: each filter type, layout and backend
 * subclasses this with its factory and reader, and passes the same suite before it ships. This is the
 * home of the guarantees, so every test method is final: a subclass supplies factories and hooks
 * ({@link #create}, {@link #read}, {@link #concurrentRounds}, {@link #fullLoad}) and cannot weaken a
 * test by overriding it. A subclass may add tests of its own.
 *
 * <p><b>Concurrency.</b> Two tests run real threads on the filter (through {@link ConcurrentRun}, which
 * releases them together and fails on a timeout): disjoint adds from several threads lose nothing, and
 * an add that has returned is seen by every later query. Both use filters of a few hundred bits sized
 * for the round's keys (a few 64-bit words, so the threads contend on the same words, or counters),
 * built by the implementation's own factory, and many short rounds on fresh filters: the filter stays
 * about half full, so a lost bit shows as a false negative instead of hiding behind other keys' bits.
 * Keys are longs whose high bits name round and thread, so the threads' keys are disjoint and a key can
 * only be present through its own add (or a false positive).
 */
public abstract class MembershipFilterContractTest {

  /** Creates an empty filter of the implementation under test, sized for n items at rate p. */
  protected abstract <T> MembershipFilter<T> create(Funnel<? super T> funnel, long expectedInsertions,
      double fpp);

  /** Reads back what {@link MembershipFilter#writeTo} wrote, with the reader of the implementation. */
  protected abstract <T> MembershipFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException;

  private MembershipFilter<CharSequence> strings(long n, double p) {
    return create(Funnels.stringFunnel(), n, p);
  }

  @Test
  final void addedItemsAreFoundAndAddReportsWhetherTheAnswerChanged() {
    MembershipFilter<CharSequence> f = strings(1_000, 0.01);
    assertThat(f.mightContain("alice@example.com")).isFalse();
    assertThat(f.add("alice@example.com")).isTrue();
    assertThat(f.add("alice@example.com")).isFalse();
    assertThat(f.mightContain("alice@example.com")).isTrue();
    assertThat(f.count()).isEqualTo(1);
  }

  /**
   * How many items {@link #noFalseNegativesAtFullLoad} sizes its filter for and adds. The check is exact
   * (every added item answers true), so any size that fills the whole bit array proves it; a backend
   * that pays a network round trip per call may fill a smaller filter.
   */
  protected long fullLoad() {
    return 50_000;
  }

  @Test
  final void noFalseNegativesAtFullLoad() {
    long n = fullLoad();
    MembershipFilter<Long> f = create(Funnels.longFunnel(), n, 0.01);
    for (long i = 0; i < n; i++) {
      f.add(i * 7919);
    }
    for (long i = 0; i < n; i++) {
      assertThat(f.mightContain(i * 7919)).as("key %d", i * 7919).isTrue();
    }
  }

  @Test
  final void statisticsAgreeWithTheLoad() {
    MembershipFilter<Integer> f = create(Funnels.integerFunnel(), 20_000, 0.01);
    assertThat(f.fillRatio()).isZero();
    assertThat(f.approximateElementCount()).isZero();
    assertThat(f.expectedInsertions()).isEqualTo(20_000);
    assertThat(f.fpp()).isEqualTo(0.01);
    assertThat(f.bitSize()).isPositive();
    int added = (int) IntStream.range(0, 20_000).filter(i -> f.add(i)).count();
    assertThat(f.count()).isEqualTo(added);
    // A few adds may return false (a false positive at the time), never many.
    assertThat(added).isGreaterThan(20_000 - 20_000 / 50);
    assertThat(f.fillRatio()).isBetween(0.0, 1.0).isPositive();
    // At its expected load the filter estimates at most its target rate (a little over, for rounding).
    assertThat(f.estimatedFpp()).isPositive().isLessThanOrEqualTo(1.05 * f.fpp());
    assertThat((double) f.approximateElementCount()).isCloseTo(20_000, within(20_000 * 0.05));
  }

  @Test
  final void clearRemovesEverythingAndResetsCount() {
    MembershipFilter<CharSequence> f = strings(100, 0.01);
    f.add("x");
    f.clear();
    assertThat(f.mightContain("x")).isFalse();
    assertThat(f.count()).isZero();
    assertThat(f.fillRatio()).isZero();
    assertThat(f.add("x")).isTrue();
  }

  @Test
  final void writeThenReadAnswersIdentically() throws IOException {
    MembershipFilter<CharSequence> f = strings(5_000, 0.02);
    for (int i = 0; i < 5_000; i++) {
      f.add("user" + i + "@example.com");
    }
    MembershipFilter<CharSequence> loaded = read(new ByteArrayInputStream(bytes(f)), Funnels.stringFunnel());
    assertThat(loaded.bitSize()).isEqualTo(f.bitSize());
    assertThat(loaded.count()).isEqualTo(f.count());
    assertThat(loaded.expectedInsertions()).isEqualTo(5_000);
    assertThat(loaded.fpp()).isEqualTo(0.02);
    assertThat(loaded.fillRatio()).isEqualTo(f.fillRatio());
    for (int i = 0; i < 20_000; i++) {
      String key = "user" + i + "@example.com";
      assertThat(loaded.mightContain(key)).isEqualTo(f.mightContain(key));
    }
  }

  /**
   * Random byte flips and truncations of a valid file: each mutant either fails with an IOException or,
   * if it loads, answers exactly as the original does (a loaded file is never silently wrong).
   */
  @Test
  final void corruptFilesAreRejectedOrLoadSoundly() throws IOException {
    MembershipFilter<CharSequence> f = strings(300, 0.05);
    for (int i = 0; i < 300; i++) {
      f.add("k" + i);
    }
    byte[] valid = bytes(f);
    SplittableRandom random = new SplittableRandom(20261129L);
    for (int trial = 0; trial < 2_000; trial++) {
      byte[] mutant;
      if (trial % 4 == 0) {
        mutant = java.util.Arrays.copyOf(valid, random.nextInt(valid.length));
      } else {
        mutant = valid.clone();
        int flips = 1 + random.nextInt(4);
        for (int j = 0; j < flips; j++) {
          mutant[random.nextInt(mutant.length)] ^= (byte) (1 + random.nextInt(255));
        }
      }
      MembershipFilter<CharSequence> loaded;
      try {
        loaded = read(new ByteArrayInputStream(mutant), Funnels.stringFunnel());
      } catch (IOException expected) {
        continue;
      }
      for (int i = 0; i < 600; i++) {
        assertThat(loaded.mightContain("k" + i)).as("mutant %d, key k%d", trial, i)
            .isEqualTo(f.mightContain("k" + i));
      }
    }
  }

  @Test
  final void rejectsBadSizingArgumentsNamingTheValue() {
    assertThatThrownBy(() -> strings(0, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> strings(-5, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was -5");
    for (double p : new double[] {0.0, 1.0, -0.1, 1.5, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> strings(100, p)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("fpp").hasMessageContaining("was " + p);
    }
  }

  // ---------------------------------------------------------------- the primitive long path

  /**
   * Whether the implementation has {@code addLong} and {@code mightContainLong} (every core filter does;
   * a backend without them overrides this to return false, and the long-path tests are skipped).
   */
  protected boolean hasLongPath() {
    return true;
  }

  /** {@code addLong} of the filter's own class; a subclass whose filters wrap a core filter unwraps them. */
  protected boolean addLong(MembershipFilter<?> f, long key) {
    if (f instanceof BloomFilter<?> b) {
      return b.addLong(key);
    } else if (f instanceof CountingBloomFilter<?> c) {
      return c.addLong(key);
    } else if (f instanceof ScalableBloomFilter<?> s) {
      return s.addLong(key);
    } else if (f instanceof ExpiringBloomFilter<?> e) {
      return e.addLong(key);
    }
    throw new AssertionError("no addLong on " + f.getClass() + ": override hasLongPath()");
  }

  /** {@code mightContainLong} of the filter's own class, as {@link #addLong}. */
  protected boolean mightContainLong(MembershipFilter<?> f, long key) {
    if (f instanceof BloomFilter<?> b) {
      return b.mightContainLong(key);
    } else if (f instanceof CountingBloomFilter<?> c) {
      return c.mightContainLong(key);
    } else if (f instanceof ScalableBloomFilter<?> s) {
      return s.mightContainLong(key);
    } else if (f instanceof ExpiringBloomFilter<?> e) {
      return e.mightContainLong(key);
    }
    throw new AssertionError("no mightContainLong on " + f.getClass() + ": override hasLongPath()");
  }

  /**
   * addLong and mightContainLong hash a key exactly as add(Long) and mightContain(Long) do: two filters
   * of one shape, one filled through each path, return the same answers from both paths for every key
   * added and for as many never added (about 1% of which are false positives, the same ones in both).
   */
  @Test
  final void theLongPathSetsAndReadsTheBitsOfTheBoxedPath() {
    assumeTrue(hasLongPath(), "no primitive long path");
    MembershipFilter<Long> primitive = create(Funnels.longFunnel(), 5_000, 0.01);
    MembershipFilter<Long> boxed = create(Funnels.longFunnel(), 5_000, 0.01);
    SplittableRandom random = new SplittableRandom(24);
    long[] keys = random.longs(10_000).toArray(); // the first half added, the second never
    for (int i = 0; i < keys.length / 2; i++) {
      assertThat(addLong(primitive, keys[i])).as("addLong(%d)", keys[i]).isEqualTo(boxed.add(keys[i]));
    }
    assertThat(primitive.count()).isEqualTo(boxed.count());
    long falsePositives = 0;
    for (int i = 0; i < keys.length; i++) {
      long key = keys[i];
      boolean answer = boxed.mightContain(key);
      assertThat(mightContainLong(primitive, key)).as("mightContainLong(%d)", key).isEqualTo(answer);
      assertThat(primitive.mightContain(key)).as("mightContain(%d) after addLong", key).isEqualTo(answer);
      assertThat(mightContainLong(boxed, key)).as("mightContainLong(%d) after add", key).isEqualTo(answer);
      if (i < keys.length / 2) {
        assertThat(answer).as("added key %d", key).isTrue();
      } else if (answer) {
        falsePositives++;
      }
    }
    assertThat(falsePositives).as("false positives of 5,000 never-added keys at p = 1%").isLessThan(150);
  }

  /**
   * A filter of another key type refuses the long path with IllegalStateException, as the long[] batches
   * do, and nothing is added: with {@code MembershipFilter<Integer>}, an overload {@code add(long)} would
   * have been chosen by widening for {@code add(5)}, which is why the methods have their own names.
   */
  @Test
  final void theLongPathRefusesAFilterOfOtherKeys() {
    assumeTrue(hasLongPath(), "no primitive long path");
    MembershipFilter<Integer> ints = create(Funnels.integerFunnel(), 100, 0.01);
    assertThatThrownBy(() -> addLong(ints, 5)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Funnels.longFunnel()").hasMessageContaining(Funnels.integerFunnel().toString());
    assertThatThrownBy(() -> mightContainLong(ints, 5)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Funnels.longFunnel()");
    assertThat(ints.count()).isZero();
    assertThat(ints.fillRatio()).isZero();
  }

  @Test
  final void nullItemsAreRejected() {
    MembershipFilter<CharSequence> f = strings(10, 0.01);
    assertThatThrownBy(() -> f.add(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> f.mightContain(null)).isInstanceOf(NullPointerException.class);
  }

  // ---------------------------------------------------------------- concurrency

  /** Threads of a round: more than the CI machine's two cores, so that threads are also preempted mid-add. */
  private static final int THREADS = 4;
  /** Keys each thread adds per round of {@link #disjointAddsFromSeveralThreadsLoseNothing}. */
  private static final int KEYS_PER_THREAD = 16;
  /** Writers, readers and keys per writer of {@link #anAddThatFinishedIsSeenByEveryLaterQuery}. */
  private static final int WRITERS = 2;
  private static final int READERS = 2;
  private static final int KEYS_PER_WRITER = 64;

  /**
   * How many rounds each concurrent test runs, each on a fresh filter. A backend that pays a network
   * round trip per call may run fewer; every round is the same check.
   */
  protected int concurrentRounds() {
    return 300;
  }

  /** Key {@code index} of thread {@code owner} in round {@code round}: disjoint across threads and rounds. */
  private static long key(int round, int owner, long index) {
    return ((long) round << 40) | ((long) owner << 24) | index;
  }

  /** The implementation's own filter for {@code keys} keys at 10%: about 4.8 bits per key, a few words. */
  private MembershipFilter<Long> small(long keys) {
    return create(Funnels.longFunnel(), keys, 0.1);
  }

  /**
   * Each round, {@value #THREADS} threads released together add their own {@value #KEYS_PER_THREAD} keys
   * to one fresh filter of about 300 bits (five words). Afterwards every key must be present, and
   * count() must equal the number of adds that returned true: that is {@link MembershipFilter#count}'s
   * contract, exact here because no two adds race for one item. Most adds must return true (a few are
   * false positives of the keys before them, as in {@link #statisticsAgreeWithTheLoad}).
   */
  @Test
  @Timeout(120)
  final void disjointAddsFromSeveralThreadsLoseNothing() throws Exception {
    int rounds = concurrentRounds();
    boolean longs = hasLongPath();
    long missing = 0;
    String firstMiss = null;
    for (int round = 0; round < rounds; round++) {
      int r = round;
      MembershipFilter<Long> f = small((long) THREADS * KEYS_PER_THREAD);
      LongAdder changed = new LongAdder();
      ConcurrentRun.together(THREADS, owner -> {
        for (int i = 0; i < KEYS_PER_THREAD; i++) {
          long key = key(r, owner, i);
          // Odd keys through the primitive path where there is one: both paths must lose nothing.
          if ((longs && (i & 1) == 1) ? addLong(f, key) : f.add(key)) {
            changed.increment();
          }
        }
      });
      for (int owner = 0; owner < THREADS; owner++) {
        for (int i = 0; i < KEYS_PER_THREAD; i++) {
          if (!f.mightContain(key(r, owner, i))) {
            missing++;
            if (firstMiss == null) {
              firstMiss = "round " + r + ", thread " + owner + ", key " + i;
            }
          }
        }
      }
      assertThat(f.count()).as("round %d: count() against the adds that returned true", r).isEqualTo(changed.sum());
      assertThat(changed.sum()).as("round %d: adds that returned true", r)
          .isGreaterThan(THREADS * KEYS_PER_THREAD / 2);
    }
    assertThat(missing).as("keys missing after their add returned (first: %s), of %d", firstMiss,
        (long) rounds * THREADS * KEYS_PER_THREAD).isZero();
  }

  /**
   * Each round, {@value #WRITERS} writer threads add their {@value #KEYS_PER_WRITER} keys one by one to a
   * fresh filter of about 600 bits and publish, after each add returns, how many they have finished.
   * {@value #READERS} reader threads, released with them, keep reading a writer's published count and
   * then query every key below it that they have not queried yet, and the newest finished key again;
   * once the writers are done each reader makes a last pass. Every one of those queries must answer
   * true: the add had returned before the query began.
   */
  @Test
  @Timeout(120)
  final void anAddThatFinishedIsSeenByEveryLaterQuery() throws Exception {
    int rounds = concurrentRounds();
    AtomicReference<String> firstMiss = new AtomicReference<>();
    LongAdder queries = new LongAdder();
    for (int round = 0; round < rounds && firstMiss.get() == null; round++) {
      int r = round;
      MembershipFilter<Long> f = small((long) WRITERS * KEYS_PER_WRITER);
      AtomicLongArray published = new AtomicLongArray(WRITERS);
      ConcurrentRun run = new ConcurrentRun();
      run.tasks(WRITERS, w -> {
        for (int i = 0; i < KEYS_PER_WRITER; i++) {
          f.add(key(r, w, i));
          published.set(w, i + 1);
        }
      });
      for (int reader = 0; reader < READERS; reader++) {
        run.background(() -> {
          long[] unchecked = new long[WRITERS]; // per writer, the first key this reader has not queried
          boolean last;
          do {
            last = run.stopping(); // read before the pass: once true, every writer has published its last key
            for (int w = 0; w < WRITERS; w++) {
              long finished = published.get(w);
              for (long i = unchecked[w]; i < finished; i++) {
                check(f, r, w, i, firstMiss, queries);
              }
              unchecked[w] = finished;
              if (finished > 0) {
                check(f, r, w, finished - 1, firstMiss, queries);
              }
            }
          } while (!last);
        });
      }
      run.run();
    }
    assertThat(firstMiss.get()).as("first query that missed a finished add").isNull();
    // Each reader queried each key at least once.
    assertThat(queries.sum()).isGreaterThanOrEqualTo((long) rounds * READERS * WRITERS * KEYS_PER_WRITER);
  }

  private static void check(MembershipFilter<Long> f, int round, int writer, long index,
      AtomicReference<String> firstMiss, LongAdder queries) {
    queries.increment();
    if (!f.mightContain(key(round, writer, index))) {
      firstMiss.compareAndSet(null, "round " + round + ": key " + index + " of writer " + writer
          + " was missing after its add returned");
    }
  }

  /** The bytes {@link MembershipFilter#writeTo} writes. */
  protected static byte[] bytes(MembershipFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }
}
