package org.concurrentbloom.benchmarks.redis;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.benchmarks.BenchmarkDefaults;
import org.concurrentbloom.redis.RedisBloomFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import redis.clients.jedis.RedisClient;

/**
 * Time per key of a Redis-backed filter, one call per key against pipelined batches of {@link #BATCH},
 * with the in-process filter for scale. Needs a running Redis: pass its URI as the system property
 * {@code bloom.redis.uri} (bloom-benchmarks/run-redis.sh starts a throwaway redis-server on a free
 * loopback port and passes it). The filter holds n = 100k String keys at p = 1%; queries are half
 * present. Single calls measure a round trip each (loopback: the client's and server's system calls, not
 * the network); batches pay one round trip per {@link #BATCH} keys, so they show what pipelining saves.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class RedisBenchmark {
  /** Keys per pipelined batch. */
  static final int BATCH = 100;
  static final int N = 100_000;
  private static final int QUERIES = 1 << 16;

  /** The Redis client and filter, the local filter, and the prepared keys. Thread-safe. */
  @State(Scope.Benchmark)
  public static class Filters {
    RedisClient client;
    RedisBloomFilter<CharSequence> redis;
    BloomFilter<CharSequence> local;
    String[] queries;
    List<List<String>> queryBatches;
    int next;

    @Setup(Level.Trial)
    public void connectAndFill() {
      String uri = System.getProperty("bloom.redis.uri");
      if (uri == null) {
        throw new IllegalStateException("set -Dbloom.redis.uri=redis://127.0.0.1:PORT (a Redis to use), or run"
            + " bloom-benchmarks/run-redis.sh, which starts one");
      }
      client = RedisClient.create(URI.create(uri));
      String name = "bench:" + System.nanoTime();
      redis = RedisBloomFilter.create(client, name, Funnels.stringFunnel(), N, BenchmarkDefaults.FPP);
      local = BloomFilter.create(Funnels.stringFunnel(), N, BenchmarkDefaults.FPP);
      List<String> members = new ArrayList<>(N);
      for (int i = 0; i < N; i++) {
        members.add("member-" + i);
      }
      redis.addAll(members);
      local.addAll(members);
      queries = new String[QUERIES];
      for (int i = 0; i < QUERIES; i++) {
        queries[i] = (i & 1) == 0 ? "member-" + (i * 7919 % N) : "absent-" + i;
      }
      queryBatches = new ArrayList<>();
      for (int b = 0; b + BATCH <= QUERIES; b += BATCH) {
        queryBatches.add(List.of(queries).subList(b, b + BATCH));
      }
    }

    @TearDown(Level.Trial)
    public void dropAndClose() {
      redis.delete();
      client.close();
    }

    String nextKey() {
      return queries[next++ & (QUERIES - 1)];
    }

    List<String> nextBatch() {
      next = (next + 1) % queryBatches.size();
      return queryBatches.get(next);
    }
  }

  /** A fresh key per add, so each one sets bits (the key counter is per state, the filter grows past n). */
  @State(Scope.Thread)
  public static class FreshKeys {
    long counter;

    String next() {
      return "fresh-" + counter++;
    }

    List<String> nextBatch() {
      List<String> batch = new ArrayList<>(BATCH);
      for (int i = 0; i < BATCH; i++) {
        batch.add(next());
      }
      return batch;
    }
  }

  @Benchmark
  public boolean redisMightContain(Filters f) {
    return f.redis.mightContain(f.nextKey());
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public boolean[] redisMightContainBatch(Filters f) {
    return f.redis.mightContainAll(f.nextBatch());
  }

  @Benchmark
  public boolean redisAdd(Filters f, FreshKeys keys) {
    return f.redis.add(keys.next());
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int redisAddBatch(Filters f, FreshKeys keys) {
    return f.redis.addAll(keys.nextBatch());
  }

  @Benchmark
  public boolean localMightContain(Filters f) {
    return f.local.mightContain(f.nextKey());
  }

  @Benchmark
  public boolean localAdd(Filters f, FreshKeys keys) {
    return f.local.add(keys.next());
  }
}
