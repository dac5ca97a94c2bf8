package org.concurrentbloom.benchmarks.profile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.benchmarks.BenchmarkDefaults;
import org.concurrentbloom.benchmarks.KeyType;
import org.concurrentbloom.benchmarks.Keys;
import org.concurrentbloom.benchmarks.QueryKeys;
import org.concurrentbloom.benchmarks.ThreadCursor;
import org.concurrentbloom.internal.BitIndexer;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The JMH states of the profile benchmarks. Every one walks the same query array as
 * {@code MightContainBenchmark}: {@link QueryKeys#halfPresent} of n keys, half present and half absent,
 * shuffled, the key objects laid out in walk order. Each state builds only what its benchmarks need, so
 * a key-read trial does not pay for filling a 10M-key filter.
 */
public final class ProfileStates {
  private static final int FILL_CHUNK = 4096;

  private ProfileStates() {}

  /** The query array for n keys of one type. */
  @State(Scope.Benchmark)
  public abstract static class Queries {
    @Param({"1000000", "10000000"})
    public int n;

    Object[] queries;
    /** Hashes exactly as bloom-core's standard filter of this n and p does (and has its m and k). */
    BitIndexer<Object> indexer;

    abstract KeyType keyType();

    @Setup(Level.Trial)
    public void prepare() {
      queries = QueryKeys.halfPresent(keyType(), n, QueryKeys.COUNT);
      indexer = BitIndexer.sized(funnel(keyType()), n, BenchmarkDefaults.FPP);
      prepareMore();
    }

    /** What a subclass adds to the setup, after the queries and the indexer exist. */
    void prepareMore() {}

    Object next(ThreadCursor cursor) {
      return queries[cursor.nextMasked(QueryKeys.COUNT - 1)];
    }
  }

  /** String or long keys. */
  public static class AnyKeys extends Queries {
    @Param({"STRING", "LONG"})
    public KeyType keys;

    @Override
    KeyType keyType() {
      return keys;
    }
  }

  /** String keys only: for the steps a long key does not have (its 8 bytes are hashed directly). */
  public static class StringKeys extends Queries {
    @Override
    KeyType keyType() {
      return KeyType.STRING;
    }
  }

  /** Long keys only: the hash candidates' long benchmarks. */
  public static class LongKeys extends Queries {
    @Override
    KeyType keyType() {
      return KeyType.LONG;
    }
  }

  /** Every query's (h1, h2) computed in advance, and an {@link EmulatedBits} holding keys 0 .. n-1. */
  public static class Hashed extends AnyKeys {
    /** h1, h2 of query i at 2i, 2i + 1. */
    long[] hashes;
    EmulatedBits bits;

    @Override
    void prepareMore() {
      long[] scratch = new long[Math.max(2, indexer.hashFunctions())];
      hashes = new long[2 * queries.length];
      for (int i = 0; i < queries.length; i++) {
        indexer.hash(queries[i], scratch);
        hashes[2 * i] = scratch[0];
        hashes[2 * i + 1] = scratch[1];
      }
      bits = new EmulatedBits(indexer.bitSize(), indexer.hashFunctions());
      for (long i = 0; i < n; i++) {
        indexer.hash(keys.key(i), scratch);
        bits.add(indexer, scratch[0], scratch[1], scratch);
      }
    }
  }

  /** As {@link Filled}, with hash strategy 1 (UTF-8 + MurmurHash3), the default before strategy 4. */
  public static class FilledMurmur3 extends AnyKeys {
    BloomFilter<Object> filter;

    @Override
    void prepareMore() {
      filter = BloomFilter.builder(funnel(keys)).expectedInsertions(n).fpp(BenchmarkDefaults.FPP)
          .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
      fill(filter, keys, n);
    }
  }

  /** bloom-core's standard-layout filter (the default layout and hash strategy 4) holding keys 0 .. n-1. */
  public static class Filled extends AnyKeys {
    BloomFilter<Object> filter;

    @Override
    void prepareMore() {
      filter = BloomFilter.create(funnel(keys), n, BenchmarkDefaults.FPP);
      fill(filter, keys, n);
    }
  }

  /** Adds keys 0 .. n-1 in batches (the benchmarks' filters are filled the same way). */
  static void fill(BloomFilter<Object> filter, KeyType type, long n) {
    if (type == KeyType.LONG) {
      long[] chunk = new long[FILL_CHUNK];
      for (long base = 0; base < n; base += FILL_CHUNK) {
        int len = (int) Math.min(FILL_CHUNK, n - base);
        for (int i = 0; i < len; i++) {
          chunk[i] = Keys.longKey(base + i);
        }
        filter.addAll(len == FILL_CHUNK ? chunk : Arrays.copyOf(chunk, len));
      }
    } else {
      List<Object> chunk = new ArrayList<>(FILL_CHUNK);
      for (long base = 0; base < n; base += FILL_CHUNK) {
        chunk.clear();
        for (long i = base; i < Math.min(base + FILL_CHUNK, n); i++) {
          chunk.add(type.key(i));
        }
        filter.addAll(chunk);
      }
    }
  }

  /** The library's funnel for {@code type}, typed for the Object keys the query arrays hold. */
  @SuppressWarnings("unchecked")
  static Funnel<Object> funnel(KeyType type) {
    Funnel<?> funnel = type == KeyType.LONG ? Funnels.longFunnel() : Funnels.stringFunnel();
    return (Funnel<Object>) funnel;
  }

  /** One thread's reused buffers: the encoding buffer and the (h1, h2) output. */
  @State(Scope.Thread)
  public static class Scratch {
    final FunnelEncoding encoding = new FunnelEncoding();
    final long[] hash = new long[2];
    /** For the bulk-copy benchmarks: longer than any benchmark key (they have under 64 chars). */
    final byte[] bulk = new byte[256];
  }
}
