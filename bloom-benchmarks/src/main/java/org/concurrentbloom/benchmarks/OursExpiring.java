package org.concurrentbloom.benchmarks;

import java.time.Duration;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnels;

/**
 * bloom-core's {@link ExpiringBloomFilter} on a {@link ManualClock}: the G generations interleaved in one
 * word array, an expiry step (clearing the generation to be reused, one pass over all G·m bits) run inside
 * the first add or lookup that sees from the clock that a new slot began. Thread-safe.
 */
final class OursExpiring implements ExpiringUnderTest {
  private final ManualClock clock = new ManualClock();
  private final ExpiringBloomFilter<CharSequence> filter;
  private final long slotMillis;

  OursExpiring(long n, double fpp) {
    filter = ExpiringBloomFilter.builder(Funnels.stringFunnel())
        .window(ExpiringWindow.WINDOW)
        .expectedInsertionsPerWindow(n)
        .fpp(fpp)
        .generations(ExpiringWindow.GENERATIONS)
        .clock(clock)
        .build();
    Duration span = filter.generationSpan();
    slotMillis = span.toMillis();
  }

  ExpiringBloomFilter<CharSequence> filter() {
    return filter;
  }

  @Override
  public boolean add(Object key) {
    return filter.add((CharSequence) key);
  }

  @Override
  public boolean mightContain(Object key) {
    return filter.mightContain((CharSequence) key);
  }

  @Override
  public void advanceSlot() {
    clock.advance(slotMillis);
  }

  @Override
  public long bitSize() {
    return filter.bitSize();
  }

  @Override
  public int depth() {
    return filter.generations().size();
  }
}
