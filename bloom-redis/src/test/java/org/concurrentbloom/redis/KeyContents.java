package org.concurrentbloom.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32;
import redis.clients.jedis.Jedis;

/**
 * What every key whose name starts with a prefix held at one moment, to show that a refused call wrote
 * nothing. Every key of a filter starts with the filter's name (docs/REDIS.md), so the snapshot covers
 * the filter whatever its layout. A bit string is summed up by its length, BITCOUNT and a CRC of its
 * bytes, so that a difference reads as "bits were set" rather than as two walls of bytes. Immutable.
 *
 * @param contents key name to a description of its type and value (TTLs are left out: a refused call may
 *     not have set one either, but the tests compare values)
 * @param setBits BITCOUNT summed over the string keys longer than {@link #SHORT} bytes (the bit strings)
 */
record KeyContents(Map<String, String> contents, long setBits) {
  /** Strings up to this many bytes (counters, small values) are shown as text; longer ones summed up. */
  private static final int SHORT = 64;

  /** The keys starting with {@code prefix} (which must hold no glob characters) and their values, now. */
  static KeyContents of(Jedis redis, String prefix) {
    Map<String, String> contents = new TreeMap<>();
    long setBits = 0;
    for (String key : new TreeSet<>(redis.keys(prefix + "*"))) {
      String type = redis.type(key);
      switch (type) {
        case "string" -> {
          byte[] value = redis.get(key.getBytes(StandardCharsets.UTF_8));
          if (value.length <= SHORT) {
            contents.put(key, "string \"" + new String(value, StandardCharsets.UTF_8) + "\"");
          } else {
            long bits = redis.bitcount(key);
            setBits += bits;
            CRC32 crc = new CRC32();
            crc.update(value);
            contents.put(key, "string of " + value.length + " bytes, " + bits + " bits set, crc32 "
                + Long.toHexString(crc.getValue()));
          }
        }
        case "hash" -> contents.put(key, "hash " + new TreeMap<>(redis.hgetAll(key)));
        default -> contents.put(key, type);
      }
    }
    return new KeyContents(contents, setBits);
  }

  /** The keys whose contents differ from {@code before}'s, each as "key: before -> after". */
  List<String> changedSince(KeyContents before) {
    List<String> changed = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>(before.contents.keySet());
    keys.addAll(contents.keySet());
    for (String key : keys) {
      String was = before.contents.getOrDefault(key, "(absent)");
      String now = contents.getOrDefault(key, "(absent)");
      if (!was.equals(now)) {
        changed.add(key + ": " + was + " -> " + now);
      }
    }
    return changed;
  }
}
