package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisBloomFilter.ascii;

import java.util.List;
import org.concurrentbloom.internal.BitIndexer;

/**
 * One generation of a shared guard as a client knows it: its number, its shape (read once from its
 * metadata: a generation's shape never changes) and its keys. Immutable.
 *
 * @param number the generation's number, from 1
 * @param indexer the bit indexes of its shape
 * @param capacity n, the keys it was sized for
 * @param fpp p, the false-positive probability it was sized for
 * @param bitsKey {@code {G}:gN:bits}
 * @param metaKey {@code {G}:gN:meta}
 */
record GuardGeneration<K>(long number, BitIndexer<K> indexer, long capacity, double fpp, byte[] bitsKey,
    byte[] metaKey) {

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
    indexer.indexes(h1, h2, scratch);
    for (int i = 0; i < indexer.hashFunctions(); i++) {
      args.add(ascii(scratch[i]));
    }
  }

  /** This generation as a filter: for the scan's batched adds and for downloads. */
  RedisBloomFilter<K> asFilter(RedisClientAdapter redis, String guardName) {
    return RedisBloomFilter.atKeys(redis, guardName + " generation " + number, indexer, capacity, fpp, bitsKey,
        metaKey);
  }
}
