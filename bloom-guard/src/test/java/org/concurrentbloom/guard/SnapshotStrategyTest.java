package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot written before hash strategy 4 became the default holds a strategy-1 filter: an in-memory
 * guard still adopts it (no full scan), catches it up and answers for every key; its next full rebuild
 * builds a filter of the new default, strategy 4, and the snapshot written at close holds that one.
 */
class SnapshotStrategyTest {
  private static final long N = 10_000;
  private static final double P = 1e-6;

  @TempDir
  Path dir;

  @Test
  void aStrategyOneSnapshotIsAdoptedAndTheNextRebuildBuildsStrategyFour() throws Exception {
    TableSource table = new TableSource(true);
    for (int i = 0; i < 1_000; i++) {
      table.insert("key-" + i);
    }
    BloomFilter<String> old = BloomFilter.<String>builder(Funnels.stringFunnel()).expectedInsertions(N).fpp(P)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    ScanResult scanned = table.scanAll(old::add);
    assertThat(old.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    Path file = dir.resolve("g.snapshot");
    FileSnapshotStore store = new FileSnapshotStore(file);
    store.write(out -> SnapshotCodec.write(out, "users", N, P, scanned.maxWatermark(), 1_700_000_000_000L, old));
    for (int i = 1_000; i < 1_200; i++) {
      table.insert("key-" + i); // after the snapshot: the catch-up must add them to the strategy-1 filter
    }
    int fullScans = table.scanAllCalls.get();

    try (MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table)
        .scheduler(new ManualScheduler()).name("users").expectedInsertions(N).fpp(P).snapshotStore(store).build()) {
      assertThat(guard.awaitReady(Duration.ofSeconds(30))).isTrue();
      assertThat(table.scanAllCalls.get()).as("adopted: no full scan").isEqualTo(fullScans);
      assertThat(table.scanAfterCalls.get()).as("caught up from its watermark").isEqualTo(1);
      assertAllPresent(guard, 1_200);
      assertThat(guard.mightExist("key-5000")).isFalse();
      assertThat(guard.stats().filterCount()).isEqualTo(1_200);

      guard.rebuildNow();
      assertThat(table.scanAllCalls.get()).as("the rebuild scans the source").isEqualTo(fullScans + 1);
      assertAllPresent(guard, 1_200);
      assertThat(guard.mightExist("key-5000")).isFalse();
    }

    try (InputStream in = Files.newInputStream(file)) {
      SnapshotCodec.Snapshot<String> written = SnapshotCodec.read(in, Funnels.stringFunnel());
      assertThat(written.filter().hashStrategy()).as("the rebuilt filter's strategy")
          .isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
      for (int i = 0; i < 1_200; i++) {
        assertThat(written.filter().mightContain("key-" + i)).as("key-%d", i).isTrue();
      }
    }
  }

  private static void assertAllPresent(MembershipGuard<String> guard, int to) {
    for (int i = 0; i < to; i++) {
      assertThat(guard.mightExist("key-" + i)).as("key-%d", i).isTrue();
    }
  }
}
