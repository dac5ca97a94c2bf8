package org.concurrentbloom.guard;

import java.io.IOException;
import java.util.OptionalLong;
import org.concurrentbloom.BloomFilter;

/**
 * Writes a guard snapshot holding any filter, for tests in other modules (the codec is package-private):
 * a snapshot an older version wrote, for instance, with a filter of hash strategy 1.
 */
public final class Snapshots {
  private Snapshots() {}

  /**
   * Stores, as the guard {@code name} configured for n and p would, a snapshot of {@code filter} with
   * this watermark.
   */
  public static void store(SnapshotStore store, String name, long expectedInsertions, double fpp,
      OptionalLong watermark, BloomFilter<?> filter) throws IOException {
    store.write(out -> SnapshotCodec.write(out, name, expectedInsertions, fpp, watermark, System.currentTimeMillis(),
        filter));
  }
}
