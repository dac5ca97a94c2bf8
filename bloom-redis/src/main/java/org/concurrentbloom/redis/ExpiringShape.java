package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.util.List;
import org.concurrentbloom.internal.BitIndexer;

/**
 * What every expiring script checks against the metadata hash before touching a generation: format
 * version, hash strategy, m bits per generation, k, G generations, slot span s and window W in ms, and
 * whose clock decides the slots. A client whose shape differs from the stored one gets
 * {@link RedisFilterMismatchException}, never bits at other offsets. Immutable; any thread.
 */
record ExpiringShape(long bitsPerGeneration, int hashFunctions, int generations, long spanMillis,
    long windowMillis, boolean serverClock) {
  /** The only hash strategy kept in Redis: the standard layout's, whose indexes the scripts receive. */
  private static final int STRATEGY = BitIndexer.STRATEGY.id();

  /** ARGV[1..8] of every expiring script, in exp.lua's order. */
  List<byte[]> args() {
    return List.of(ascii(RedisBloomFilter.FORMAT_VERSION), ascii(STRATEGY), ascii(bitsPerGeneration),
        ascii(hashFunctions), ascii(generations), ascii(spanMillis), ascii(windowMillis),
        ascii(serverClock ? "server" : "caller"));
  }
}
