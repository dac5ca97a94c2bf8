package org.concurrentbloom.redis;

/**
 * Key names of a {@link RedisExpiringBloomFilter} (docs/REDIS.md, "Expiring filters on Redis"). The
 * filter NAME is the metadata hash {@code NAME:{NAME:exp}:meta}, which also lists the generations written
 * and counts their adds, and for each slot i a generation's bit string {@code NAME:{NAME:exp}:g<i>}
 * (layout 1 also had counter keys {@code NAME:{NAME:exp}:c<i>}, which exp-open folds into the
 * metadata when it upgrades such a filter). One hash tag for
 * all of them puts the whole filter in one Cluster slot, so one script reads and writes any of them; the
 * tag differs from a {@link RedisBloomFilter}'s ({@code {NAME:p0}}), so the two kinds never share a key.
 * The scripts build the generation names from the metadata key, by replacing its {@code meta} suffix.
 * Stateless; any thread.
 */
final class ExpiringKeys {
  private ExpiringKeys() {}

  static String tag(String name) {
    return "{" + name + ":exp}";
  }

  static String meta(String name) {
    return name + ":" + tag(name) + ":meta";
  }

  /** The bit string of the generation of slot {@code slot}. */
  static String generation(String name, long slot) {
    return name + ":" + tag(name) + ":g" + slot;
  }
}
