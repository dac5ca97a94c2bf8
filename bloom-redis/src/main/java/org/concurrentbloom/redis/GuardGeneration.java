package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;

import java.util.List;
import org.concurrentbloom.internal.BitIndexer;

/**
 * One generation of a shared guard as a client knows it: its number, its shape (read once from its
 * metadata: a generation's shape never changes) and its keys. Immutable; any thread.
 *
 * @param number the generation's number, from 1
 * @param id its random id, which tells it from a generation of the same number made after Redis lost
 *     the state (numbers start again then)
 * @param indexer the bit indexes of its shape and strategy
 * @param capacity n, the keys it was sized for
 * @param fpp p, the false-positive probability it was sized for
 * @param bitsKey {@code {G}:gN:bits}
 * @param metaKey {@code {G}:gN:meta}
 */
record GuardGeneration<K>(long number, String id, BitIndexer<K> indexer, long capacity, double fpp, byte[] bitsKey,
    byte[] metaKey) {
  /** The argument for "no generation" where the scripts expect a generation's number, m or k. */
  static final byte[] NONE = ascii(0);

  static byte[] numberOrNone(GuardGeneration<?> g) {
    return g == null ? NONE : g.numberArg();
  }

  static byte[] bitsOrNone(GuardGeneration<?> g) {
    return g == null ? NONE : g.bitsArg();
  }

  static byte[] hashFunctionsOrNone(GuardGeneration<?> g) {
    return g == null ? NONE : g.hashFunctionsArg();
  }

  static byte[] idOrNone(GuardGeneration<?> g) {
    return g == null ? NONE : g.idArg();
  }

  byte[] idArg() {
    return ascii(id);
  }

  byte[] numberArg() {
    return ascii(number);
  }

  byte[] bitsArg() {
    return ascii(indexer.bitSize());
  }

  byte[] hashFunctionsArg() {
    return ascii(indexer.hashFunctions());
  }

  /** Appends the script arguments of a key's bit offsets here, for its hash (h1, h2). */
  void addOffsets(long h1, long h2, long[] scratch, List<byte[]> args) {
    PartitionCalls.addOffsets(indexer, h1, h2, scratch, args);
  }

  /** This generation as a filter: for the scan's batched adds and for downloads. */
  RedisBloomFilter<K> asFilter(RedisClientAdapter redis, String guardName) {
    return new RedisBloomFilter<>(PartitionCalls.atKeys(redis, guardName + " generation " + number, indexer, bitsKey,
        metaKey, id), capacity, fpp, false);
  }
}
