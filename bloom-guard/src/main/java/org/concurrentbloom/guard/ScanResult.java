package org.concurrentbloom.guard;

import java.util.OptionalLong;

/**
 * What a {@link KeySource} scan reports: how many keys it passed on, and the largest watermark among
 * them (empty when the source has no watermark column, or the scan found no key).
 *
 * @param keys the number of keys passed to the sink, at least 0
 * @param maxWatermark the largest watermark seen, if any
 */
public record ScanResult(long keys, OptionalLong maxWatermark) {

  /**
   * Checks the arguments.
   *
   * @throws IllegalArgumentException if {@code keys} is negative
   */
  public ScanResult {
    if (keys < 0) {
      throw new IllegalArgumentException("keys must be >= 0, was " + keys);
    }
    if (maxWatermark == null) {
      throw new NullPointerException("maxWatermark");
    }
  }

  /** A result without a watermark. */
  public static ScanResult of(long keys) {
    return new ScanResult(keys, OptionalLong.empty());
  }

  /** A result with the largest watermark seen. */
  public static ScanResult of(long keys, long maxWatermark) {
    return new ScanResult(keys, OptionalLong.of(maxWatermark));
  }
}
