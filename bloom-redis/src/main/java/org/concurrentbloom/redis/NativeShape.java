package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;
import static org.concurrentbloom.redis.RedisCodec.text;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parameters of a BF.* filter ({@link RedisNativeBloomFilter}): as BF.RESERVE takes them, as the
 * companion hash records them, and the check of an existing key against them. The server keeps no
 * error rate that a client can read back, hence the companion hash. Immutable; any thread.
 *
 * @param capacity n, the capacity of the first (or only) sub-filter
 * @param fpp p, the error rate
 * @param expansion the growth factor of each added sub-filter (kept, though unused, when non-scaling)
 * @param nonScaling one filter that never grows
 */
record NativeShape(long capacity, double fpp, int expansion, boolean nonScaling) {

  /** The arguments of BF.RESERVE after the key. */
  byte[][] reserveArgs() {
    List<byte[]> args = new ArrayList<>(List.of(ascii(Double.toString(fpp)), ascii(Long.toString(capacity))));
    if (nonScaling) {
      args.add(ascii("NONSCALING"));
    } else {
      args.add(ascii("EXPANSION"));
      args.add(ascii(Integer.toString(expansion)));
    }
    return args.toArray(new byte[0][]);
  }

  /** A script that deletes the filter (KEYS[1]) and reserves it again with {@link #clearArgs()}, atomically. */
  byte[] clearScript() {
    String reserve = nonScaling ? "'NONSCALING'" : "'EXPANSION', ARGV[3]";
    return ascii("redis.call('DEL', KEYS[1]) return redis.call('BF.RESERVE', KEYS[1], ARGV[1], ARGV[2], "
        + reserve + ")");
  }

  List<byte[]> clearArgs() {
    return List.of(ascii(Double.toString(fpp)), ascii(Long.toString(capacity)), ascii(Integer.toString(expansion)));
  }

  /** The companion hash's fields. */
  Map<String, String> params() {
    Map<String, String> p = new HashMap<>();
    p.put("capacity", Long.toString(capacity));
    p.put("error", Double.toString(fpp));
    p.put("expansion", nonScaling ? "0" : Integer.toString(expansion));
    p.put("nonscaling", nonScaling ? "1" : "0");
    return p;
  }

  /**
   * Checks the filter at {@code key}, whose companion hash holds {@code stored} (empty if another client
   * reserved it) and whose BF.INFO reply is {@code info}, against this shape.
   *
   * @throws RedisFilterMismatchException if they differ
   */
  void check(String key, Map<String, String> stored, Object info) {
    if (!stored.isEmpty()) {
      Map<String, String> wanted = params();
      if (!wanted.equals(stored)) {
        throw new RedisFilterMismatchException("BF filter " + key + " was reserved with " + stored + ", not "
            + wanted + "; delete it or use its parameters");
      }
      return;
    }
    // Reserved by another client: BF.INFO reports the total capacity and the expansion, not the error rate.
    Map<String, Long> fields = infoFields(info);
    long filters = fields.getOrDefault("Number of filters", 1L);
    Long rate = fields.get("Expansion rate");
    long e = rate == null ? 0 : rate;
    long firstCapacity = fields.getOrDefault("Capacity", -1L);
    if (filters > 1 && e > 1) {
      long sum = 0;
      long term = 1;
      for (long i = 0; i < filters; i++) {
        sum += term;
        term *= e;
      }
      firstCapacity = fields.get("Capacity") / sum;
    }
    boolean storedNonScaling = rate == null || e == 0;
    if (firstCapacity != capacity || storedNonScaling != nonScaling || (!nonScaling && e != expansion)) {
      throw new RedisFilterMismatchException("BF filter " + key + " has capacity " + firstCapacity + (storedNonScaling
          ? ", non-scaling" : ", expansion " + e) + " (BF.INFO " + fields + "), not capacity " + capacity
          + (nonScaling ? ", non-scaling" : ", expansion " + expansion) + "; delete it or use its parameters");
    }
  }

  /** BF.INFO's name/value pairs, the numeric ones. */
  private static Map<String, Long> infoFields(Object info) {
    Map<String, Long> fields = new HashMap<>();
    if (info instanceof List<?> list) {
      for (int i = 0; i + 1 < list.size(); i += 2) {
        String name = list.get(i) instanceof byte[] b ? text(b) : String.valueOf(list.get(i));
        if (list.get(i + 1) instanceof Long v) {
          fields.put(name, v);
        }
      }
    }
    return fields;
  }
}
