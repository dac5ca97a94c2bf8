package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * add and mightContain of a String or a Long allocate nothing per call: the funnel writes into a
 * per-thread buffer and the hash lands in two fields. Measured with the JVM's per-thread allocation
 * counter over 400,000 calls (keys made beforehand); a regression to even one small object per call
 * would show as megabytes, while the bound tolerates a few hundred bytes of one-off JVM bookkeeping.
 * For the standard and blocked layouts under each of their hash strategies: 1 and 2 (MurmurHash3 of
 * the funnel's bytes), 4 and 5 (XXH3-64 of the String's chars or the long, straight from hash4j).
 */
class AllocationFreeHashingTest {
  private static final int CALLS = 100_000;

  @ParameterizedTest
  @EnumSource(value = HashStrategy.class, names = {"MURMUR3_128_ENHANCED_DOUBLE", "MURMUR3_128_BLOCKED",
      "XXH3_64_ENHANCED_DOUBLE", "XXH3_64_BLOCKED"})
  void stringAndLongOperationsDoNotAllocate(HashStrategy strategy) {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    BloomFilter<CharSequence> strings = FalsePositiveRateTest.filter(Funnels.stringFunnel(), strategy, 100_000, 0.01);
    BloomFilter<Long> longs = FalsePositiveRateTest.filter(Funnels.longFunnel(), strategy, 100_000, 0.01);
    String[] stringKeys = new String[1024];
    Long[] longKeys = new Long[1024];
    for (int i = 0; i < 1024; i++) {
      stringKeys[i] = "user" + i + "@example.com";
      longKeys[i] = 1_000_000_007L * i;
    }
    long hits = exercise(strings, longs, stringKeys, longKeys); // warm-up: buffers grow, code gets compiled
    long before = threads.getCurrentThreadAllocatedBytes();
    hits += exercise(strings, longs, stringKeys, longKeys);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(hits).isPositive();
    assertThat(allocated).as("bytes allocated by %d calls under %s", 4 * CALLS, strategy).isLessThan(16 * 1024);
  }

  private static long exercise(BloomFilter<CharSequence> strings, BloomFilter<Long> longs, String[] stringKeys,
      Long[] longKeys) {
    long hits = 0;
    for (int i = 0; i < CALLS; i++) {
      strings.add(stringKeys[i & 1023]);
      longs.add(longKeys[i & 1023]);
      if (strings.mightContain(stringKeys[(i * 7) & 1023])) {
        hits++;
      }
      if (longs.mightContain(longKeys[(i * 7) & 1023])) {
        hits++;
      }
    }
    return hits;
  }
}
