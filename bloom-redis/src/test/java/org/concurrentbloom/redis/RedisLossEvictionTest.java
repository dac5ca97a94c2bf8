package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import static org.concurrentbloom.redis.TestKeys.keys;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.assertj.core.api.Assertions;
import org.concurrentbloom.ConcurrentRun;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/**
 * Issue 22, eviction: a Redis with {@code maxmemory} shared with another application, whose cache
 * fills it. Under each maxmemory policy, a standard and an expiring filter get 3,000 adds, then the
 * other application writes ~30 MB of cache keys with a TTL (2.5 times maxmemory), then every added key
 * is queried on both filters. A filter whose data was evicted may refuse to answer (throw), but must
 * never answer false for a key whose add returned. The expiring filter's generation keys carry TTLs, so
 * the volatile-* policies may evict them while its metadata (no TTL) stays behind.
 */
@Tag("jdk-independent") // what eviction leaves is Redis's and the protocol's: JDK-free (.ci/run)
class RedisLossEvictionTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension("--maxmemory", "12mb");

  private static final List<String> POLICIES = List.of("volatile-lru", "volatile-ttl", "allkeys-lru", "noeviction");
  private static final int ADDS = 3_000;
  /** 30,000 values of 1 KB: about 30 MB, so that a policy that evicts must evict most of what is there. */
  private static final int CACHE_KEYS = 30_000;
  private static final String CACHE_VALUE = "v".repeat(1024);
  /** Threads for the expiring filter's single adds and queries. */
  private static final int THREADS = 4;

  @ParameterizedTest
  @EnumSource(Client.class)
  void anotherApplicationsCacheMakesNoAddedKeyAnswerFalse(Client client) throws InterruptedException {
    RedisClientAdapter redis = SERVER.adapter(client);
    List<String> report = new ArrayList<>();
    Checks soft = new Checks();
    try (Jedis admin = SERVER.node().admin()) {
      for (String policy : POLICIES) {
        admin.flushAll();
        admin.configSet("maxmemory-policy", policy);
        admin.configResetStat(); // evicted_keys counts this case only
        // Infrastructure, not the scenario: the policy and the memory limit are in force.
        Assertions.assertThat(admin.configGet("maxmemory-policy")).containsEntry("maxmemory-policy", policy);
        Assertions.assertThat(admin.configGet("maxmemory")).containsEntry("maxmemory", Long.toString(12L << 20));

        String name = "loss:evict:" + policy + ":" + client;
        RedisBloomFilter<CharSequence> standard =
            RedisBloomFilter.create(redis, name + ":standard", Funnels.stringFunnel(), 10_000, 0.01);
        RedisExpiringBloomFilter<CharSequence> expiring = RedisExpiringBloomFilter.<CharSequence>builder(redis,
                name + ":expiring", Funnels.stringFunnel())
            .window(Duration.ofMinutes(2)).expectedInsertionsPerWindow(10_000).build();
        // What a filter learns of the policy when opened (and warns of, for allkeys-*).
        Assertions.assertThat(EvictionPolicy.check(redis, FilterKeys.meta(name + ":standard", 0), name)).isEqualTo(policy);
        List<String> added = keys("key-", ADDS);
        standard.addAll(added); // returns normally: the memory is not full yet
        // The expiring filter has no batch add: one round trip each, from a few threads at once.
        ConcurrentRun.together(THREADS, i -> Answers.slice(added, i, THREADS).forEach(expiring::add));

        awaitLruTick(admin, name);
        int refused = fillWithCache(admin);
        long evicted = evictedKeys(admin);
        // Infrastructure: the cache really outgrew maxmemory, so the policy had to act.
        if (policy.equals("noeviction")) {
          Assertions.assertThat(refused).as("%s: cache SETs refused with OOM", policy).isPositive();
        } else {
          Assertions.assertThat(evicted).as("%s: evicted_keys", policy).isPositive();
        }

        Answers fromStandard = Answers.askInBatches(standard, added);
        Answers fromExpiring = Answers.askConcurrently(added, expiring::mightContain, THREADS);
        String row = String.format(Locale.ROOT, "%s [%s]: evicted_keys=%,d, cache SETs refused=%,d;"
            + " standard filter: %s; expiring filter: %s", policy, client, evicted, refused, fromStandard, fromExpiring);
        report.add(row);
        soft.check(() -> assertThat(fromStandard.falseAnswers()).as("standard filter answered false under " + row).isZero());
        soft.check(() -> assertThat(fromExpiring.falseAnswers()).as("expiring filter answered false under " + row).isZero());
      }
      admin.flushAll();
    }
    System.out.println("RedisLossEvictionTest " + client + ":\n  " + String.join("\n  ", report));
    soft.assertAll();
  }

  /**
   * Waits until Redis's LRU clock, which ticks once a second, has moved past the last access to every key
   * of the two filters (OBJECT IDLETIME, which does not touch the key, reads at least 1). The cache keys
   * written after it are then strictly younger than the filters' keys, as when the cache is written after
   * the filters were last used; within the same tick they would tie with them, and which keys an LRU
   * policy evicts would be a matter of chance.
   */
  private static void awaitLruTick(Jedis admin, String name) {
    Await.until("the LRU clock has ticked past the last access to the keys of " + name, Duration.ofSeconds(10), () -> {
      for (String key : admin.keys(name + ":*")) {
        Long idle = admin.objectIdletime(key);
        if (idle == null || idle < 1) {
          return false;
        }
      }
      return true;
    });
  }

  /**
   * The other application: SET cache:i (1 KB) EX 3600 for every i, pipelined 1,000 at a time. Under
   * noeviction Redis refuses the writes past maxmemory with OOM errors, which the application ignores;
   * returns how many were refused.
   */
  private static int fillWithCache(Jedis admin) {
    int refused = 0;
    SetParams ttl = SetParams.setParams().ex(3600);
    for (int from = 0; from < CACHE_KEYS; from += 1_000) {
      List<Response<String>> replies = new ArrayList<>(1_000);
      try (Pipeline pipeline = admin.pipelined()) {
        for (int i = from; i < from + 1_000; i++) {
          replies.add(pipeline.set("cache:" + i, CACHE_VALUE, ttl));
        }
        pipeline.sync();
      }
      for (Response<String> reply : replies) {
        try {
          reply.get();
        } catch (JedisDataException e) {
          refused++;
        }
      }
    }
    return refused;
  }

  private static long evictedKeys(Jedis admin) {
    for (String line : admin.info("stats").split("\\r?\\n", -1)) {
      if (line.startsWith("evicted_keys:")) {
        return Long.parseLong(line.substring("evicted_keys:".length()).trim());
      }
    }
    throw new AssertionError("INFO stats has no evicted_keys");
  }
}
