package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;
import static org.concurrentbloom.redis.RedisCodec.text;

import java.util.List;
import java.util.Map;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.internal.BitIndexer;
import org.concurrentbloom.redis.ScriptCalls.Call;

/**
 * What {@link RedisBloomFilter.Builder}'s create, attach and upload do: size the partitions, create
 * them or check the stored shape against the caller's, and return the filter. Stateless; called on the
 * builder's thread, which owns the builder it reads.
 */
final class FilterOpener {
  private FilterOpener() {}

  /**
   * Creates the missing partitions. With several partitions a dry run checks them all first, so that a
   * mismatch in any of them is reported before any is written; each partition's create re-checks
   * atomically, so a racing creator of another shape is still refused.
   */
  static <T> RedisBloomFilter<T> create(RedisBloomFilter.Builder<T> b, boolean exclusive) {
    if (!b.expectedInsertionsSet) {
      throw new IllegalStateException("expectedInsertions(n) must be set before create()");
    }
    BitIndexer.sized(b.funnel, b.expectedInsertions, b.fpp); // the core's checks of n and p, and their messages
    long perPartition = (b.expectedInsertions + b.partitions - 1) / b.partitions;
    BitIndexer<T> indexer = BitIndexer.sized(b.funnel, perPartition, b.fpp);
    checkPartitionBits(indexer.bitSize(), "expectedInsertions=" + b.expectedInsertions + " at fpp=" + b.fpp
        + " in " + b.partitions + " partition(s)");
    PartitionCalls<T> target = new PartitionCalls<>(b.redis, b.name, indexer, b.partitions, b.replication);
    if (b.partitions > 1) {
      target.readAll(createCalls(target, b, false, exclusive), "create");
    }
    Object[] replies = target.writeAll(createCalls(target, b, true, exclusive), "create");
    boolean wrote = false;
    for (Object reply : replies) {
      wrote |= (Long) ((List<?>) reply).get(0) == 1L;
    }
    List<?> first = (List<?>) replies[0];
    long storedN;
    double storedP;
    try {
      storedN = Long.parseLong(text(first.get(1)));
      storedP = Double.parseDouble(text(first.get(2)));
    } catch (RuntimeException e) {
      throw new RedisFilterMismatchException("filter \"" + b.name + "\" has invalid stored n or fpp ("
          + first + "): " + e.getMessage(), e);
    }
    return new RedisBloomFilter<>(target, storedN, storedP, wrote);
  }

  private static List<Call> createCalls(PartitionCalls<?> target, RedisBloomFilter.Builder<?> b, boolean write,
      boolean exclusive) {
    return target.onEach(Script.CREATE, target.withShape(ascii(b.expectedInsertions), ascii(Double.toString(b.fpp)),
        ascii(write ? 1 : 0), ascii(exclusive ? 1 : 0)));
  }

  /**
   * Reads the shape, n and p from partition 0's metadata, refusing a key this library did not write,
   * then checks in one pipeline that every partition is there with that shape.
   */
  static <T> RedisBloomFilter<T> attach(RedisBloomFilter.Builder<T> b) {
    StoredShape stored = StoredShape.parse(b.name, readMeta(b.redis, b.name));
    BitIndexer<T> indexer;
    try {
      indexer = BitIndexer.withShape(b.funnel, stored.bits(), stored.hashFunctions());
    } catch (IllegalArgumentException e) {
      throw new RedisFilterMismatchException("filter \"" + b.name + "\" has an invalid shape: " + e.getMessage(), e);
    }
    PartitionCalls<T> target = new PartitionCalls<>(b.redis, b.name, indexer, stored.partitions(), b.replication);
    target.stats(); // every partition present, with this shape
    return new RedisBloomFilter<>(target, stored.expectedInsertions(), stored.fpp(), false);
  }

  private static Map<String, String> readMeta(RedisClientAdapter redis, String name) {
    Map<String, String> meta;
    byte[] key = FilterKeys.meta(name, 0);
    String keyName = text(key);
    try {
      String type = redis.type(key);
      if (type.equals("none")) {
        throw new RedisFilterMismatchException("no filter named \"" + name + "\": " + keyName + " does not exist");
      }
      if (!type.equals("hash")) {
        throw new RedisFilterMismatchException("attach to " + name + " refused: " + keyName + " holds a " + type
            + ", not a filter's metadata hash: it was not made by this library");
      }
      meta = redis.hgetAll(key);
    } catch (RedisCallException e) {
      throw ScriptCalls.translate("attach to " + name, e);
    }
    if (!meta.containsKey("version")) {
      throw new RedisFilterMismatchException("attach to " + name + " refused: " + keyName + " is a hash without"
          + " this library's fields (" + String.join(", ", meta.keySet()) + "): it was not made by this library");
    }
    return meta;
  }

  /** Stores a copy of {@code local} as the one partition of the builder's filter (LocalCopy). */
  static <T> RedisBloomFilter<T> upload(RedisBloomFilter.Builder<T> b, BloomFilter<T> local) {
    LocalCopy.requireStandardLayout(local, "only the standard layout can be kept in Redis; this filter's layout is ");
    if (b.partitions != 1) {
      throw new IllegalArgumentException("a local filter uploads to one partition, not " + b.partitions);
    }
    checkPartitionBits(local.bitSize(), "this filter");
    PartitionCalls<T> target = new PartitionCalls<>(b.redis, b.name, LocalCopy.indexerOf(b.funnel, local), 1,
        b.replication);
    LocalCopy.upload(target, local);
    return new RedisBloomFilter<>(target, local.expectedInsertions(), local.fpp(), false);
  }

  private static void checkPartitionBits(long bits, String what) {
    if (bits > RedisBloomFilter.MAX_PARTITION_BITS) {
      throw new IllegalArgumentException(what + " needs " + bits + " bits in a partition, past the "
          + RedisBloomFilter.MAX_PARTITION_BITS + " (2^32) a Redis string can hold; use more partitions");
    }
  }
}
