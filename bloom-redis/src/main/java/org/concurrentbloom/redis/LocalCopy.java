package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.util.List;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.internal.BitIndexer;
import org.concurrentbloom.internal.FilterWords;

/**
 * Copies between a core {@link BloomFilter} and one Redis bit string: a filter's upload and download,
 * and a guard generation registered from a loaded snapshot. Only the standard layout is copied, because
 * only its bit indexes are the offsets the scripts set (PartitionCalls). Stateless; any thread may call
 * it. A local filter's adds that finish before a copy starts are in it; concurrent ones may not be.
 */
final class LocalCopy {
  private LocalCopy() {}

  /**
   * @throws IllegalArgumentException with {@code refusal} followed by the layout's name, unless
   *     {@code local} has the standard layout
   */
  static void requireStandardLayout(BloomFilter<?> local, String refusal) {
    String why = whyNotKept(local, refusal);
    if (why != null) {
      throw new IllegalArgumentException(why);
    }
  }

  /**
   * Why {@code local}'s bits cannot be kept in Redis, or null if they can: Redis holds the standard
   * layout's bits (the message is then {@code refusal} and the layout's name), of either of its hash
   * strategies (4, the default, or 1), whose offsets the client computes with BitIndexer and the
   * metadata records. (Every standard filter has one of the two.)
   */
  static String whyNotKept(BloomFilter<?> local, String refusal) {
    if (local.filterType() != FilterType.STANDARD) {
      return refusal + local.filterType().shortName();
    }
    return null;
  }

  /** The indexes of {@code local}'s shape and strategy, for items of {@code funnel}. */
  static <T> BitIndexer<T> indexerOf(Funnel<? super T> funnel, BloomFilter<?> local) {
    return BitIndexer.withShape(funnel, local.hashStrategy(), local.bitSize(), local.hashFunctions());
  }

  /** {@code local}'s bits as the Redis string of its m bits. */
  static byte[] redisBits(BloomFilter<?> local) {
    return RedisBits.toRedis(FilterWords.copyOf(local), local.bitSize());
  }

  /**
   * Stores {@code local} in the one partition of {@code target}, under {@code target}'s id, in one
   * script (upload.lua) that refuses to overwrite anything. n and p are {@code local}'s.
   */
  static <T> void upload(PartitionCalls<T> target, BloomFilter<T> local) {
    long count = local.count();
    byte[] bits = redisBits(local);
    List<byte[]> args = target.withShape(ascii(local.expectedInsertions()), ascii(Double.toString(local.fpp())),
        ascii(count), bits);
    target.write(target.onFirst(Script.UPLOAD, args), "upload");
  }

  /**
   * The one partition of {@code target}, read at one instant (snapshot.lua), as a standard filter with
   * this n and p.
   *
   * @throws RedisFilterException if Redis fails or the stored bits are corrupt
   */
  static <T> BloomFilter<T> download(PartitionCalls<T> target, long expectedInsertions, double fpp) {
    List<?> fields = (List<?>) target.read(target.onFirst(Script.SNAPSHOT, target.withShape()), "download");
    BitIndexer<T> indexer = target.indexer();
    try {
      long count = (Long) fields.get(2);
      long[] words = RedisBits.toWords((byte[]) fields.get(3), indexer.bitSize());
      return FilterWords.standardFilter(indexer.funnel(), indexer.strategy(), indexer.bitSize(),
          indexer.hashFunctions(), expectedInsertions, fpp, count, words);
    } catch (IllegalArgumentException e) {
      throw new RedisFilterException("download " + target.name() + " failed: the stored filter is corrupt: "
          + e.getMessage(), e);
    }
  }
}
