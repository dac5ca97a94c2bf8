package org.concurrentbloom.benchmarks.redis;

import org.concurrentbloom.Funnels;
import org.concurrentbloom.redis.RedisBloomFilter;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * A fixed workload of script calls for counting the server's instructions per call under callgrind
 * (run-redis-callgrind.sh): on an empty server, creates a filter for 10^6 keys at 1%, makes 2,000 adds,
 * then {@code n} adds of fresh keys and {@code n} queries of absent ones. Instructions are counted
 * inside {@code evalShaCommand} only, so the client's speed and the machine's load do not matter; the
 * difference between a run with n and one with 0 is n adds and n queries.
 * Arguments: the server's port, n. Single-threaded.
 */
public final class RedisScriptWorkload {
  private RedisScriptWorkload() {}

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    int n = Integer.parseInt(args[1]);
    try (RedisClient redis = RedisClient.builder().hostAndPort(new HostAndPort("127.0.0.1", port)).build()) {
      RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(redis, "workload", Funnels.stringFunnel(),
          1_000_000, 0.01);
      for (int i = 0; i < 2_000; i++) {
        f.add("warm-" + i);
      }
      for (int i = 0; i < n; i++) {
        f.add("k-" + i);
      }
      for (int i = 0; i < n; i++) {
        f.mightContain("q-" + i);
      }
    }
  }
}
