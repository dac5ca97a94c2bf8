package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.concurrentbloom.internal.BitIndexer;

/**
 * The script calls of one {@link RedisExpiringBloomFilter}: its metadata key (which routes every call
 * and names the generations), the shape every script checks, each item's k offsets, and the "now" the
 * scripts cut slots with. Immutable; any thread may call any method, as the client may.
 *
 * @param <T> the type of item
 */
final class ExpiringCalls<T> {
  /*
   * One script per operation, so each add and query is atomic on the server and costs one round trip.
   * The client only hashes (BitIndexer, strategy 1: the same offsets in every generation); the server
   * decides the slot, so instances never disagree about which generation is current, whatever their
   * own clocks say. A caller's clock (tests) is sent as ARGV[9]; the server clock is the empty string.
   */

  private final ScriptCalls calls;
  private final String name;
  private final List<byte[]> keys;
  private final List<byte[]> shapeArgs;
  private final BitIndexer<T> indexer;
  /** Null: the server's clock. */
  private final InstantSource clock;

  ExpiringCalls(RedisClientAdapter redis, String name, ExpiringShape shape, BitIndexer<T> indexer,
      InstantSource clock) {
    this.calls = new ScriptCalls(redis);
    this.name = name;
    this.keys = List.of(RedisCodec.utf8(ExpiringKeys.meta(name)));
    this.shapeArgs = shape.args();
    this.indexer = indexer;
    this.clock = clock;
  }

  BitIndexer<T> indexer() {
    return indexer;
  }

  /** Creates the metadata unless it exists: {created 1|0, n, p, origin} (exp-open.lua). */
  List<?> open(long expectedInsertions, double fpp) {
    List<byte[]> args = base(2);
    args.add(ascii(expectedInsertions));
    args.add(ascii(Double.toString(fpp)));
    return (List<?>) calls.eval(Script.EXP_OPEN, keys, args, "opening expiring filter \"" + name + "\"");
  }

  boolean add(T item) {
    return RedisCodec.isOne(calls.eval(Script.EXP_ADD, keys, withOffsets(item), "add to \"" + name + "\""));
  }

  boolean query(T item) {
    return RedisCodec.isOne(calls.eval(Script.EXP_QUERY, keys, withOffsets(item), "query of \"" + name + "\""));
  }

  PartitionStats stats() {
    Object reply = calls.eval(Script.EXP_STATS, keys, base(0), "statistics of \"" + name + "\"");
    return new PartitionStats(indexer, (List<?>) reply);
  }

  /** Deletes the remembered generations' keys; returns how many keys were deleted. */
  long clear() {
    return (Long) calls.eval(Script.EXP_CLEAR, keys, base(0), "clear of \"" + name + "\"");
  }

  /** ARGV[1..9]: the shape and now, with room for {@code more}. */
  private List<byte[]> base(int more) {
    List<byte[]> args = new ArrayList<>(shapeArgs.size() + 1 + more);
    args.addAll(shapeArgs);
    args.add(clock == null ? new byte[0] : ascii(clock.millis()));
    return args;
  }

  private List<byte[]> withOffsets(T item) {
    int k = indexer.hashFunctions();
    long[] offsets = new long[Math.max(2, k)];
    indexer.indexes(item, offsets);
    List<byte[]> args = base(k);
    for (int i = 0; i < k; i++) {
      args.add(ascii(offsets[i]));
    }
    return args;
  }
}
