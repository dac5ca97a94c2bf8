package org.concurrentbloom.redis;

import java.nio.charset.StandardCharsets;

/**
 * The bytes the package sends and reads: numbers as their decimal digits in ASCII, which is what the Lua
 * scripts' {@code tonumber} and Redis's own integer arguments parse, and names and replies as UTF-8.
 * Stateless; any thread may call any method.
 */
final class RedisCodec {
  private RedisCodec() {}

  /** A script argument: the decimal digits of {@code v}. */
  static byte[] ascii(long v) {
    return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
  }

  /** A protocol token or a number already in text form ({@code Double.toString}, a UUID). */
  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** A key or field name: names may hold any character, and Redis compares the bytes. */
  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A bulk reply (or a key, for a message) as text. */
  static String text(Object bulk) {
    return new String((byte[]) bulk, StandardCharsets.UTF_8);
  }

  /** A number field or reply; absent (null) is 0, as HINCRBY and the scripts treat a missing field. */
  static long number(Object bulk) {
    return bulk == null ? 0 : Long.parseLong(text(bulk));
  }

  /**
   * A script's integer answer read as a boolean. Strict on purpose: any other reply is a bug in a
   * script, and must throw rather than read as "absent".
   */
  static boolean isOne(Object reply) {
    return ((Long) reply) == 1L;
  }

  static int countOnes(Object[] replies) {
    int n = 0;
    for (Object r : replies) {
      if (isOne(r)) {
        n++;
      }
    }
    return n;
  }
}
