package org.concurrentbloom.cli.process;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnels;

/**
 * Writes an expiring filter file whose keys were added some time ago, as {@code bloom create --window}
 * would have had them: the filter is built and filled in this process on a clock set back by hand, so no
 * test waits for a window to pass. The commands then read it on the wall clock.
 */
public final class AgedFilter {
  private AgedFilter() {}

  /** Keys added together, {@code age} before the file is written. */
  public record Batch(Duration age, List<String> keys) {}

  /**
   * Writes to {@code file} an expiring filter of strings with window {@code window}, sized for
   * {@code perWindow} keys at p = 1%, whose first slot began {@code created} ago and which took
   * {@code batches} in order (oldest first), and was written {@code written} ago (no later than the last
   * batch: a file is saved after its adds).
   */
  public static void write(Path file, Duration window, long perWindow, Duration created, List<Batch> batches,
      Duration written) throws IOException {
    Instant now = Instant.now();
    Instant[] clock = {now.minus(created)};
    InstantSource source = () -> clock[0];
    ExpiringBloomFilter<CharSequence> filter = ExpiringBloomFilter.builder(Funnels.stringFunnel()).window(window)
        .expectedInsertionsPerWindow(perWindow).fpp(0.01).clock(source).build();
    for (Batch batch : batches) {
      clock[0] = now.minus(batch.age());
      batch.keys().forEach(filter::add);
    }
    clock[0] = now.minus(written);
    try (OutputStream out = Files.newOutputStream(file)) {
      filter.writeTo(out);
    }
  }
}
