package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;
import static org.concurrentbloom.redis.RedisCodec.countOnes;
import static org.concurrentbloom.redis.RedisCodec.isOne;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.concurrentbloom.internal.BitIndexer;
import org.concurrentbloom.redis.ScriptCalls.Call;
import org.concurrentbloom.redis.ScriptCalls.Replication;

/**
 * The script calls of one {@link RedisBloomFilter}: its partitions' keys, the shape every script checks,
 * the partition and bit offsets of each item, and the replicas to wait for after a write. Immutable;
 * any thread may call any method, as the client may.
 *
 * @param <T> the type of item
 */
final class PartitionCalls<T> {
  /*
   * Bits: each partition is one Redis string of ceil(m/8) bytes; bit i is Redis offset i, the one SETBIT
   * and GETBIT address (byte i/8, bit 7 - i%8). The client computes the k offsets with the core's
   * BitIndexer (XXH3-64 for new filters, MurmurHash3 x64 128 for strategy-1 ones, and enhanced double
   * hashing, Dillinger and Manolios 2004), so Redis only flips and reads bits: the server needs no
   * module and the hashing stays identical to the local filter's. A string holds at most 512 MB, so a
   * partition holds at most 2^32 bits.
   *
   * Atomicity in one round trip: add is a Lua script (EVALSHA of a script loaded once per node) that
   * checks the partition's metadata against the client's shape, sets the k bits, and counts the add if a
   * bit changed. Redis runs a script alone, so two clients' adds cannot interleave and the count is
   * exact (unlike the local filter, concurrent adds of one item count once). A query is the same check
   * plus GETBITs that stop at the first zero. Checking the filter's id and shape inside every script,
   * rather than only when attaching, is what makes a client of a lost, replaced or reshaped filter
   * harmless: it gets an error, never a write in the wrong place or a false "absent".
   *
   * Batches pipeline one EVALSHA per item: one round trip per node for the whole batch (chunks of
   * BATCH_CHUNK items), and each item still atomic. MULTI/EXEC would add nothing but latency.
   *
   * Partitions (Redis Cluster): one string cannot span masters, and every key of a script must share a
   * slot, so a partitioned filter is N independent filters of m/N bits with hash tags {name:pI}. An
   * item's partition is a mixed function of its hash (FilterKeys.partitionOf), independent of where its
   * bits fall inside the partition, so each partition is an ordinary Bloom filter of ~n/N items and the
   * whole has the false-positive rate of one of them.
   */

  private final ScriptCalls calls;
  private final RedisClientAdapter redis;
  private final String name;
  private final BitIndexer<T> indexer;
  private final byte[][] bitsKeys;
  private final byte[][] metaKeys;
  /** The filter's id, which every partition's metadata holds: what the scripts check the filter by. */
  private final String id;
  /** ARGV[1..6] of every script: version, strategy, m, k, partitions, id. */
  private final List<byte[]> shapeArgs;
  /** Null: writes do not wait for replicas. */
  private final Replication replication;

  /**
   * The {@code partitions} partitions of the filter {@code name} with this id, at the keys of
   * docs/REDIS.md, "Keys".
   */
  PartitionCalls(RedisClientAdapter redis, String name, BitIndexer<T> indexer, int partitions, String id,
      Replication replication) {
    this(redis, name, indexer, keys(name, partitions, true), keys(name, partitions, false), id, replication);
  }

  private PartitionCalls(RedisClientAdapter redis, String name, BitIndexer<T> indexer, byte[][] bitsKeys,
      byte[][] metaKeys, String id, Replication replication) {
    this.calls = new ScriptCalls(redis);
    this.redis = redis;
    this.name = name;
    this.indexer = indexer;
    this.bitsKeys = bitsKeys;
    this.metaKeys = metaKeys;
    this.id = id;
    this.replication = replication;
    List<byte[]> shape = new ArrayList<>(StoredShape.args(indexer));
    shape.add(ascii(bitsKeys.length));
    shape.add(ascii(id));
    this.shapeArgs = List.copyOf(shape);
  }

  /**
   * One partition at {@code bitsKey} and {@code metaKey}, which must already hold the filter {@code id}:
   * a generation of a shared guard (GuardKeys), which its scripts create.
   */
  static <T> PartitionCalls<T> atKeys(RedisClientAdapter redis, String name, BitIndexer<T> indexer,
      byte[] bitsKey, byte[] metaKey, String id) {
    return new PartitionCalls<>(redis, name, indexer, new byte[][] {bitsKey}, new byte[][] {metaKey}, id, null);
  }

  private static byte[][] keys(String name, int partitions, boolean bits) {
    byte[][] keys = new byte[partitions][];
    for (int i = 0; i < partitions; i++) {
      keys[i] = bits ? FilterKeys.bits(name, i) : FilterKeys.meta(name, i);
    }
    return keys;
  }

  String name() {
    return name;
  }

  BitIndexer<T> indexer() {
    return indexer;
  }

  int partitions() {
    return bitsKeys.length;
  }

  String id() {
    return id;
  }


  // ---------------------------------------------------------------- building calls

  /** The shape arguments followed by {@code more}. */
  List<byte[]> withShape(byte[]... more) {
    List<byte[]> args = new ArrayList<>(shapeArgs.size() + more.length);
    args.addAll(shapeArgs);
    Collections.addAll(args, more);
    return args;
  }

  /** {@code script} with these arguments on every partition, in partition order. */
  List<Call> onEach(Script script, List<byte[]> args) {
    List<Call> all = new ArrayList<>(bitsKeys.length);
    for (int i = 0; i < bitsKeys.length; i++) {
      all.add(Call.onPartition(script, bitsKeys[i], metaKeys[i], args));
    }
    return all;
  }

  /** {@code script} with these arguments on the first partition, the only one of a one-partition filter. */
  Call onFirst(Script script, List<byte[]> args) {
    return Call.onPartition(script, bitsKeys[0], metaKeys[0], args);
  }

  /** The script call for one item: its partition's keys, the shape, and its k bit offsets. */
  Call item(Script script, T item) {
    int k = indexer.hashFunctions();
    long[] scratch = new long[Math.max(2, k)];
    indexer.hash(item, scratch);
    int partition = FilterKeys.partitionOf(scratch[0], scratch[1], bitsKeys.length);
    List<byte[]> args = new ArrayList<>(shapeArgs.size() + k);
    args.addAll(shapeArgs);
    addOffsets(indexer, scratch[0], scratch[1], scratch, args);
    return Call.onPartition(script, bitsKeys[partition], metaKeys[partition], args);
  }

  /** Appends the script arguments of the k bit offsets of hash (h1, h2); {@code scratch} holds k longs. */
  static void addOffsets(BitIndexer<?> indexer, long h1, long h2, long[] scratch, List<byte[]> args) {
    indexer.indexes(h1, h2, scratch);
    for (int i = 0; i < indexer.hashFunctions(); i++) {
      args.add(ascii(scratch[i]));
    }
  }

  // ---------------------------------------------------------------- running them

  /** Runs a call that reads. */
  Object read(Call call, String what) {
    return calls.run(call, what + " " + name);
  }

  /** Runs calls that read, in one pipeline. */
  Object[] readAll(List<Call> all, String what) {
    return calls.runAll(all, null, what + " " + name);
  }

  /**
   * Runs a call that writes, followed by a WAIT in the same pipeline if the filter waits for replicas;
   * that pipeline is retried through a failover as a plain call is (ScriptCalls.writeRetrying).
   */
  Object write(Call call, String what) {
    return replication == null ? calls.run(call, what + " " + name)
        : calls.writeRetrying(call, replication, what + " " + name);
  }

  /** Runs calls that write, in one pipeline, with a WAIT on each partition written if the filter waits. */
  Object[] writeAll(List<Call> all, String what) {
    return calls.runAll(all, replication, what + " " + name);
  }

  /** The calls for every item, all built before the first is sent: a funnel that throws sends nothing. */
  List<Call> items(Script script, List<? extends T> items) {
    List<Call> all = new ArrayList<>(items.size());
    for (T item : items) {
      all.add(item(script, item));
    }
    return all;
  }

  /** Runs adds in pipelines of {@link RedisBloomFilter#BATCH_CHUNK}; how many changed a bit. */
  int addAll(List<Call> all) {
    int changed = 0;
    for (int start = 0; start < all.size(); start += RedisBloomFilter.BATCH_CHUNK) {
      changed += countOnes(writeAll(all.subList(start, Math.min(all.size(), start + RedisBloomFilter.BATCH_CHUNK)),
          "batch add to"));
    }
    return changed;
  }

  /** Runs queries in pipelines of {@link RedisBloomFilter#BATCH_CHUNK}; element i answers call i. */
  boolean[] queryAll(List<Call> all) {
    boolean[] answers = new boolean[all.size()];
    for (int start = 0; start < all.size(); start += RedisBloomFilter.BATCH_CHUNK) {
      int end = Math.min(all.size(), start + RedisBloomFilter.BATCH_CHUNK);
      Object[] replies = readAll(all.subList(start, end), "batch query");
      for (int i = start; i < end; i++) {
        answers[i] = isOne(replies[i - start]);
      }
    }
    return answers;
  }

  /** The figures of every partition, read in one pipeline; checks every partition's shape. */
  PartitionStats stats() {
    return new PartitionStats(indexer, readAll(onEach(Script.STATS, shapeArgs), "statistics of"));
  }

  /** Empties every partition, each at one instant. */
  void clear() {
    writeAll(onEach(Script.CLEAR, shapeArgs), "clear");
  }

  /**
   * Deletes every partition's keys, partition 0 first: a delete cut short leaves partitions without
   * partition 0, which no create or attach takes for a filter (they report it), so it is never
   * mistaken for a whole one. Returns the number of keys deleted.
   */
  long delete() {
    return deletePartitions(redis, name, bitsKeys.length);
  }

  /** Deletes partitions 0 .. partitions-1 of the filter {@code name}, 0 first; the number of keys deleted. */
  static long deletePartitions(RedisClientAdapter redis, String name, int partitions) {
    long deleted = 0;
    for (int i = 0; i < partitions; i++) {
      byte[][] partition = {FilterKeys.meta(name, i), FilterKeys.bits(name, i)};
      deleted += ScriptCalls.command("delete " + name, () -> redis.del(partition));
    }
    return deleted;
  }
}
