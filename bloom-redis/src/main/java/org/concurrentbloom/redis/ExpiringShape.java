package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.util.ArrayList;
import java.util.List;
import org.concurrentbloom.HashStrategy;

/**
 * What every expiring script checks against the metadata hash before touching a generation: layout
 * version, hash strategy, m bits per generation, k, G generations, slot span s and window W in ms, and
 * the clock that cuts the slots (the server's; a manual clock kept in the metadata for tests). A client
 * whose shape differs from the stored one gets {@link RedisFilterMismatchException}, never bits at other
 * offsets. Immutable; any thread.
 */
record ExpiringShape(HashStrategy strategy, long bitsPerGeneration, int hashFunctions, int generations,
    long spanMillis, long windowMillis, boolean serverClock) {
  /**
   * The layout version: 2 lists the written generations in the metadata and gives generation keys no
   * expiry; 1 (expiring keys, counter keys, no id) is upgraded in place when opened (exp-open.lua).
   */
  static final int LAYOUT_VERSION = 2;

  /** The same shape with another strategy: the stored one, learnt when opening. */
  ExpiringShape withStrategy(HashStrategy other) {
    return new ExpiringShape(other, bitsPerGeneration, hashFunctions, generations, spanMillis, windowMillis,
        serverClock);
  }

  /** ARGV[1..10] of every expiring script, in exp.lua's order: the shape, the filter's id and origin. */
  List<byte[]> args(String id, String origin) {
    List<byte[]> args = new ArrayList<>(List.of(ascii(LAYOUT_VERSION), ascii(strategy.id()), ascii(bitsPerGeneration),
        ascii(hashFunctions), ascii(generations), ascii(spanMillis), ascii(windowMillis),
        ascii(serverClock ? "server" : "manual")));
    args.add(ascii(id));
    args.add(ascii(origin));
    return args;
  }
}
