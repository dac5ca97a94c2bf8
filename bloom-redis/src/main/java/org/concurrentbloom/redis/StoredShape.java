package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.util.List;
import java.util.Map;
import org.concurrentbloom.internal.BitIndexer;

/**
 * The shape in a partition's metadata hash, as {@code attach} reads it: parsed and checked, every
 * problem reported as a {@link RedisFilterMismatchException} naming the field and value. Also the
 * shape as the scripts receive it, so that what is written and what is checked come from one place.
 * Immutable; any thread.
 */
record StoredShape(long bits, int hashFunctions, int partitions, long expectedInsertions, double fpp) {
  /** The only hash strategy kept in Redis: the standard layout's, whose indexes the scripts receive. */
  private static final int STRATEGY = BitIndexer.STRATEGY.id();

  /**
   * The format version, strategy, m and k, in that order: the start of the shape every filter script
   * checks against the metadata (shape.lua), and of a guard generation's registration.
   */
  static List<byte[]> args(long bits, int hashFunctions) {
    return List.of(ascii(RedisBloomFilter.FORMAT_VERSION), ascii(STRATEGY), ascii(bits), ascii(hashFunctions));
  }

  static StoredShape parse(String name, Map<String, String> meta) {
    int version = (int) number(name, meta, "version");
    if (version != RedisBloomFilter.FORMAT_VERSION) {
      throw new RedisFilterMismatchException("filter \"" + name + "\" has format version " + version
          + "; this library reads version " + RedisBloomFilter.FORMAT_VERSION);
    }
    long strategy = number(name, meta, "strategy");
    if (strategy != STRATEGY) {
      throw new RedisFilterMismatchException("filter \"" + name + "\" uses hash strategy " + strategy
          + "; only the standard layout's strategy " + STRATEGY + " is kept in Redis");
    }
    long bits = number(name, meta, "m");
    long k = number(name, meta, "k");
    long partitions = number(name, meta, "partitions");
    long n = number(name, meta, "n");
    double fpp;
    try {
      fpp = Double.parseDouble(field(name, meta, "fpp"));
    } catch (NumberFormatException e) {
      throw invalid(name, "fpp", meta.get("fpp"));
    }
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
    if (!(fpp > 0 && fpp < 1)) {
      throw invalid(name, "fpp", meta.get("fpp"));
    }
    return new StoredShape(bits, (int) k, (int) partitions, n, fpp);
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
    String value = field(name, meta, field);
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw invalid(name, field, value);
    }
  }

  private static RedisFilterMismatchException invalid(String name, String field, String value) {
    return new RedisFilterMismatchException("filter \"" + name + "\" metadata has an invalid " + field + ": " + value);
  }
}
