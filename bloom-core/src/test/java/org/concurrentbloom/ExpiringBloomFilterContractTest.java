package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link ExpiringBloomFilter} passes the suite every filter passes, driven at the steady rate it is sized
 * for: each add moves the filter's test clock on by W/n, so n adds take one window and spread over its
 * slots as at steady state (a clock standing still would put all n adds in one generation, sized for a
 * seventh of them). Steps therefore run during the suite, the concurrent tests included. The suite never
 * adds more than n items, so every add it checks is inside the window.
 */
class ExpiringBloomFilterContractTest extends MembershipFilterContractTest {
  /** W: 7,000 s, so a slot (W/7 with the default 8 generations) is 1,000 s and W/n is whole ms down to n = 7,000. */
  static final long WINDOW_MILLIS = 7_000_000;
  static final long START = 1_764_633_600_000L; // 2025-12-02T00:00Z

  @Override
  protected <T> MembershipFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    TestClock clock = new TestClock(START);
    // Built first so that the builder's checks (n, p) throw before the wrapper exists.
    ExpiringBloomFilter<T> filter = ExpiringBloomFilter.<T>builder(funnel).window(Duration.ofMillis(WINDOW_MILLIS))
        .expectedInsertionsPerWindow(expectedInsertions).fpp(fpp).clock(clock).build();
    lastClock = clock;
    return new SteadyRate<>(filter, clock, expectedInsertions);
  }

  @Override
  protected <T> MembershipFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException {
    // The suite compares a loaded filter with its original at the moment of loading: the clock of the
    // last filter created stands at that moment.
    return ExpiringBloomFilter.readFrom(in, funnel, lastClock);
  }

  private static volatile TestClock lastClock = new TestClock(START);

  /** The wrapped filter's addLong, moving the clock on as {@link SteadyRate#add} does. */
  @Override
  protected boolean addLong(MembershipFilter<?> f, long key) {
    return f instanceof SteadyRate<?> s ? s.addLong(key) : super.addLong(f, key);
  }

  @Override
  protected boolean mightContainLong(MembershipFilter<?> f, long key) {
    return f instanceof SteadyRate<?> s ? s.filter.mightContainLong(key) : super.mightContainLong(f, key);
  }

  /** The filter under test, with its clock moved on by W/n after every add. */
  private static final class SteadyRate<T> implements MembershipFilter<T> {
    private final ExpiringBloomFilter<T> filter;
    private final TestClock clock;
    private final long n;
    private final AtomicLong adds = new AtomicLong();

    SteadyRate(ExpiringBloomFilter<T> filter, TestClock clock, long n) {
      this.filter = filter;
      this.clock = clock;
      this.n = n;
    }

    @Override
    public boolean add(T item) {
      boolean changed = filter.add(item);
      long done = adds.incrementAndGet();
      clock.set(START + done * WINDOW_MILLIS / n);
      return changed;
    }

    boolean addLong(long key) {
      boolean changed = filter.addLong(key);
      long done = adds.incrementAndGet();
      clock.set(START + done * WINDOW_MILLIS / n);
      return changed;
    }

    @Override
    public boolean mightContain(T item) {
      return filter.mightContain(item);
    }

    @Override
    public long count() {
      return filter.count();
    }

    @Override
    public double fillRatio() {
      return filter.fillRatio();
    }

    @Override
    public double estimatedFpp() {
      return filter.estimatedFpp();
    }

    @Override
    public long approximateElementCount() {
      return filter.approximateElementCount();
    }

    @Override
    public long bitSize() {
      return filter.bitSize();
    }

    @Override
    public long expectedInsertions() {
      return filter.expectedInsertions();
    }

    @Override
    public double fpp() {
      return filter.fpp();
    }

    @Override
    public void clear() {
      filter.clear();
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
      filter.writeTo(out);
    }
  }
}
