package org.concurrentbloom.redis;

/**
 * Key names and the choice of partition (docs/REDIS.md, "Keys" and "Partitions").
 *
 * <p>Partition i of the filter NAME is the bit string {@code NAME:{NAME:pI}:bits} and the hash
 * {@code NAME:{NAME:pI}:meta}. Every key starts with the name, so an ACL key pattern ({@code ~app:*})
 * or {@code SCAN MATCH app:*} covers all of a filter's keys. The braces are a Redis Cluster hash tag:
 * the slot is the hash of the first {...} alone, so both keys of a partition share a slot (a script
 * may touch both) while the partitions' tags differ and spread over the masters. Names may not contain
 * braces, which would move the tag. Stateless; any thread.
 */
final class FilterKeys {
  /** The most partitions a filter may have. */
  static final int MAX_PARTITIONS = 1 << 16;

  private FilterKeys() {}

  static void checkName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("filter name must be a non-empty string, was " + (name == null ? "null" : "\"\""));
    }
    if (name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
      throw new IllegalArgumentException("filter name may not contain '{' or '}' (they would move the"
          + " Redis Cluster hash tag), was \"" + name + "\"");
    }
  }

  static void checkPartitions(int partitions) {
    if (partitions < 1 || partitions > MAX_PARTITIONS) {
      throw new IllegalArgumentException("partitions must be in [1, " + MAX_PARTITIONS + "], was " + partitions);
    }
  }

  static String tag(String name, int partition) {
    return "{" + name + ":p" + partition + "}";
  }

  static String bitsKey(String name, int partition) {
    return name + ":" + tag(name, partition) + ":bits";
  }

  static String metaKey(String name, int partition) {
    return name + ":" + tag(name, partition) + ":meta";
  }

  static byte[] bits(String name, int partition) {
    return RedisCodec.utf8(bitsKey(name, partition));
  }

  static byte[] meta(String name, int partition) {
    return RedisCodec.utf8(metaKey(name, partition));
  }

  /**
   * The partition of an item with hash (h1, h2). The bit indexes inside a partition come from the high
   * bits of h1 and h2 (multiply-high reductions), so the partition must not: it is the remainder of a
   * full-avalanche mix of both halves (the SplitMix64 finalizer, Steele, Lea and Flood 2014), in which
   * every output bit depends on every input bit. Knowing an item's partition then says nothing useful
   * about where its bits fall inside it, and each partition keeps the false-positive rate of its shape.
   */
  static int partitionOf(long h1, long h2, int partitions) {
    if (partitions == 1) {
      return 0;
    }
    long z = h1 + 0x9E3779B97F4A7C15L * h2;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return (int) Long.remainderUnsigned(z, partitions);
  }
}
