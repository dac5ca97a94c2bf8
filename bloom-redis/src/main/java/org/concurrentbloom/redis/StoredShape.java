package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.util.List;
import java.util.Map;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.internal.BitIndexer;

/**
 * The shape in a partition's metadata hash, as {@code attach} reads it: parsed and checked, every
 * problem reported as a {@link RedisFilterMismatchException} naming the field and value. Also the
 * shape as the scripts receive it, so that what is written and what is checked come from one place.
 * Immutable; any thread.
 *
 * @param strategy the hash strategy: 4 (XXH3, the default of new filters) or 1 (MurmurHash3, filters
 *     made before strategy 4 was kept in Redis, and uploads of such local filters)
 */
record StoredShape(HashStrategy strategy, long bits, int hashFunctions, int partitions, long expectedInsertions,
    double fpp) {
  /**
   * The format version, strategy, m and k, in that order: the start of the shape every filter script
   * checks against the metadata (shape.lua), and of a guard generation's registration.
   */
  static List<byte[]> args(BitIndexer<?> indexer) {
    return List.of(ascii(RedisBloomFilter.FORMAT_VERSION), ascii(indexer.strategy().id()), ascii(indexer.bitSize()),
        ascii(indexer.hashFunctions()));
  }

  /**
   * The strategy a stored id names, if the standard layout in Redis may have it (1 or 4).
   *
   * @throws RedisFilterMismatchException naming the filter and the value otherwise
   */
  static HashStrategy strategy(String name, String value) {
    if ("4".equals(value)) {
      return HashStrategy.XXH3_64_ENHANCED_DOUBLE;
    }
    if ("1".equals(value)) {
      return HashStrategy.MURMUR3_128_ENHANCED_DOUBLE;
    }
    throw new RedisFilterMismatchException("filter \"" + name + "\" uses hash strategy " + value
        + "; Redis filters keep strategy 4 (" + HashStrategy.XXH3_64_ENHANCED_DOUBLE + ") or 1 ("
        + HashStrategy.MURMUR3_128_ENHANCED_DOUBLE + ")");
  }

  /** The shape of partition 0's metadata, every field checked. */
  static StoredShape parse(String name, Map<String, String> meta) {
    int version = (int) number(name, meta, "version");
    if (version != RedisBloomFilter.FORMAT_VERSION) {
      throw new RedisFilterMismatchException("filter \"" + name + "\" has format version " + version
          + "; this library reads version " + RedisBloomFilter.FORMAT_VERSION);
    }
    HashStrategy strategy = strategy(name, field(name, meta, "strategy"));
    long bits = number(name, meta, "m");
    long k = number(name, meta, "k");
    long partitions = number(name, meta, "partitions");
    long n = number(name, meta, "n");
    double fpp = fpp(name, field(name, meta, "fpp"));
    if (bits < 1 || bits > RedisBloomFilter.MAX_PARTITION_BITS) {
      throw invalid(name, "m", meta.get("m"));
    }
    if (k < 1 || k > Integer.MAX_VALUE) {
      throw invalid(name, "k", meta.get("k"));
    }
    if (partitions < 1 || partitions > FilterKeys.MAX_PARTITIONS) {
      throw invalid(name, "partitions", meta.get("partitions"));
    }
    if (n < 1) {
      throw invalid(name, "n", meta.get("n"));
    }
    return new StoredShape(strategy, bits, (int) k, (int) partitions, n, fpp);
  }

  /** n as the create script returns it: a positive decimal integer. */
  static long expectedInsertions(String name, String value) {
    long n = parse(name, "n", value);
    if (n < 1) {
      throw invalid(name, "n", value);
    }
    return n;
  }

  /** p as the create script returns it: a decimal number in (0, 1). */
  static double fpp(String name, String value) {
    double fpp;
    try {
      fpp = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw invalid(name, "fpp", value);
    }
    if (!(fpp > 0 && fpp < 1) || !value.strip().equals(value)) {
      throw invalid(name, "fpp", value);
    }
    return fpp;
  }

  private static String field(String name, Map<String, String> meta, String field) {
    String value = meta.get(field);
    if (value == null) {
      throw new RedisFilterMismatchException("filter \"" + name + "\" metadata lacks the field " + field
          + ": not a filter this library wrote");
    }
    return value;
  }

  private static long number(String name, Map<String, String> meta, String field) {
    return parse(name, field, field(name, meta, field));
  }

  /** A non-negative integer field as the scripts return it: decimal digits only, no sign, space or other notation. */
  static long parse(String name, String field, String value) {
    if (value == null || value.isEmpty() || value.length() > 18 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw invalid(name, field, value);
    }
    return Long.parseLong(value);
  }

  private static RedisFilterMismatchException invalid(String name, String field, String value) {
    return new RedisFilterMismatchException("filter \"" + name + "\" metadata has an invalid " + field + ": \""
        + value + "\"");
  }
}
