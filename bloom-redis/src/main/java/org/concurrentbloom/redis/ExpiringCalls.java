package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.util.ArrayList;
import java.util.List;
import org.concurrentbloom.internal.BitIndexer;
import org.concurrentbloom.redis.ScriptCalls.Call;
import org.concurrentbloom.redis.ScriptCalls.Replication;

/**
 * The script calls of one {@link RedisExpiringBloomFilter}: its metadata key (which routes every call
 * and names the generations), the shape, id and origin every script checks, each item's k offsets, and
 * the replicas to wait for after a write. Immutable; any thread may call any method, as the client may.
 *
 * @param <T> the type of item
 */
final class ExpiringCalls<T> {
  /*
   * One script per operation, so each add and query is atomic on the server and costs one round trip.
   * The client only hashes (BitIndexer: the same offsets in every generation); the server's clock
   * decides the slot inside the script, so instances never disagree about which generation is current,
   * whatever their own clocks say, and an add that stalls between the client and the server still goes
   * to the slot of the moment it runs. The id and origin, learnt when opening, make every script refuse
   * a filter that was lost and built again (BLOOMLOST), instead of answering from its empty generations.
   */

  private final ScriptCalls calls;
  private final String name;
  private final List<byte[]> keys;
  private final List<byte[]> shapeArgs;
  private final BitIndexer<T> indexer;
  /** Null: writes do not wait for replicas. */
  private final Replication replication;

  ExpiringCalls(RedisClientAdapter redis, String name, ExpiringShape shape, BitIndexer<T> indexer, String id,
      long originMillis, Replication replication) {
    this.calls = new ScriptCalls(redis);
    this.name = name;
    this.keys = List.of(RedisCodec.utf8(ExpiringKeys.meta(name)));
    this.shapeArgs = List.copyOf(shape.args(id, Long.toString(originMillis)));
    this.indexer = indexer;
    this.replication = replication;
  }

  /**
   * Creates the metadata unless it exists (exp-open.lua): {created 1|0, n, p, origin, id, strategy}.
   * {@code manualStart} is a test filter's clock reading, or null for the server's clock.
   */
  static List<?> open(RedisClientAdapter redis, String name, ExpiringShape shape, String newId, long n, double fpp,
      Long manualStart, Replication replication) {
    List<byte[]> args = shape.args(newId, "");
    args.add(ascii(n));
    args.add(ascii(Double.toString(fpp)));
    args.add(manualStart == null ? new byte[0] : ascii(manualStart));
    Call call = new Call(Script.EXP_OPEN, List.of(RedisCodec.utf8(ExpiringKeys.meta(name))), args);
    String what = "opening expiring filter \"" + name + "\"";
    ScriptCalls calls = new ScriptCalls(redis);
    return (List<?>) (replication == null ? calls.run(call, what) : calls.writeRetrying(call, replication, what));
  }

  /**
   * Deletes the filter {@code name} whatever its id (exp-delete.lua with an empty id): for a filter that
   * cannot be opened. Returns the number of keys deleted.
   */
  static long deleteAny(RedisClientAdapter redis, String name) {
    List<byte[]> args = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      args.add(new byte[0]);
    }
    args.add(new byte[0]);
    args.add(new byte[0]);
    return (Long) new ScriptCalls(redis).eval(Script.EXP_DELETE, List.of(RedisCodec.utf8(ExpiringKeys.meta(name))),
        args, "delete expiring filter \"" + name + "\"");
  }

  BitIndexer<T> indexer() {
    return indexer;
  }

  boolean add(T item) {
    return RedisCodec.isOne(write(new Call(Script.EXP_ADD, keys, withOffsets(item)), "add to \"" + name + "\""));
  }

  boolean query(T item) {
    return RedisCodec.isOne(calls.eval(Script.EXP_QUERY, keys, withOffsets(item), "query of \"" + name + "\""));
  }

  PartitionStats stats() {
    Object reply = calls.eval(Script.EXP_STATS, keys, shapeArgs, "statistics of \"" + name + "\"");
    return new PartitionStats(indexer, (List<?>) reply);
  }

  /** Deletes the generations' keys and empties the directory; returns how many keys were deleted. */
  long clear() {
    return (Long) write(new Call(Script.EXP_CLEAR, keys, shapeArgs), "clear of \"" + name + "\"");
  }

  /** Deletes the generations and the metadata; returns how many keys were deleted. */
  long delete() {
    return (Long) write(new Call(Script.EXP_DELETE, keys, shapeArgs), "delete of \"" + name + "\"");
  }

  /** A write, with a WAIT in the same pipeline if the filter waits for replicas (retried through a failover). */
  private Object write(Call call, String what) {
    return replication == null ? calls.run(call, what) : calls.writeRetrying(call, replication, what);
  }

  private List<byte[]> withOffsets(T item) {
    int k = indexer.hashFunctions();
    long[] offsets = new long[Math.max(2, k)];
    indexer.indexes(item, offsets);
    List<byte[]> args = new ArrayList<>(shapeArgs.size() + k);
    args.addAll(shapeArgs);
    for (int i = 0; i < k; i++) {
      args.add(ascii(offsets[i]));
    }
    return args;
  }
}
