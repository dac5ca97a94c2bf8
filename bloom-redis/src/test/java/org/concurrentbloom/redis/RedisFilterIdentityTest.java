package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.concurrentbloom.ConcurrentRun;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.internal.BitIndexer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * A stored filter's identity on a real redis-server: the id every script checks, the creation protocol
 * of a partitioned filter (one creator under a lease, waiters, a takeover after the lease runs out),
 * and filters made before ids (standard and expiring, layout 1) opened and given one, with their bits.
 */
class RedisFilterIdentityTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  private RedisClient redis;
  private String name;

  @BeforeEach
  void setUp(TestInfo info) {
    redis = SERVER.client();
    name = "id:" + info.getTestMethod().orElseThrow().getName();
  }

  private RedisBloomFilter.Builder<CharSequence> builder(int partitions) {
    return RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel()).expectedInsertions(8_000)
        .fpp(0.01).partitions(partitions);
  }

  private long serverMillis() {
    try (Jedis admin = SERVER.node().admin()) {
      List<String> t = admin.time();
      return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }
  }

  @Test
  void aFilterDeletedAndCreatedAgainIsLostForTheInstancesOfTheOldOne() {
    RedisBloomFilter<CharSequence> a = builder(1).create();
    List<String> added = keys("a-", 300);
    added.forEach(a::add);
    redis.del(FilterKeys.bitsKey(name, 0), FilterKeys.metaKey(name, 0)); // as FLUSHDB or a restart without data
    RedisBloomFilter<CharSequence> b = builder(1).create();
    assertThat(b.created()).isTrue();
    assertThat(b.id()).isNotEqualTo(a.id());
    b.add("b-only");
    for (String key : added) {
      assertThatThrownBy(() -> a.mightContain(key)).isInstanceOf(RedisFilterLostException.class)
          .hasMessageContaining(a.id()).hasMessageContaining(b.id());
    }
    assertThatThrownBy(() -> a.add("x")).isInstanceOf(RedisFilterLostException.class);
    assertThatThrownBy(a::count).isInstanceOf(RedisFilterLostException.class);
    assertThat(b.count()).as("a's refused add wrote nothing").isEqualTo(1);
  }

  @Test
  void concurrentCreatesOfAPartitionedFilterMakeOneFilter() throws Exception {
    int threads = 6;
    List<RedisBloomFilter<CharSequence>> opened = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      opened.add(null);
    }
    List<RedisClientAdapter> adapters = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      adapters.add(SERVER.adapter(i % 2 == 0 ? Client.JEDIS : Client.LETTUCE));
    }
    ConcurrentRun.together(threads, i -> {
      RedisBloomFilter<CharSequence> f = RedisBloomFilter.<CharSequence>builder(adapters.get(i), name,
          Funnels.stringFunnel()).expectedInsertions(8_000).fpp(0.01).partitions(8).createOrAttach();
      synchronized (opened) {
        opened.set(i, f);
      }
    });
    int created = 0;
    Set<String> ids = new HashSet<>();
    for (RedisBloomFilter<CharSequence> f : opened) {
      created += f.created() ? 1 : 0;
      ids.add(f.id());
    }
    assertThat(created).as("instances that created it").isEqualTo(1);
    assertThat(ids).hasSize(1);
    for (int p = 0; p < 8; p++) {
      assertThat(redis.hget(FilterKeys.metaKey(name, p), "id")).as("partition %d", p).isEqualTo(ids.iterator().next());
    }
    assertThat(redis.hexists(FilterKeys.metaKey(name, 0), "creating")).as("the creation completed").isFalse();
    List<String> added = keys("k-", 500);
    opened.get(0).addAll(added);
    for (boolean found : opened.get(threads - 1).mightContainAll(added)) {
      assertThat(found).isTrue();
    }
  }

  /**
   * The interleaving of two concurrent creates that a server may run: another instance's whole creation
   * between the probes of this open's pipeline (a server runs other clients' commands between those of
   * a pipeline that reaches it in parts, as Lettuce's does, and a cluster runs each node's part on its
   * own). With {@code partitionZeroFirst}, this open reads partition 0 absent and then partitions 1..7
   * present; otherwise it reads partitions 1..7 absent and then partition 0 complete. Either torn probe
   * once read as a loss; it must end in the one filter the other instance made.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aCreationThatCompletesBetweenTheProbesOfAnotherOpenIsAttachedTo(boolean partitionZeroFirst) {
    String filter = name + ":" + (partitionZeroFirst ? "zero-first" : "zero-last");
    builder(1).create(); // create.lua loaded, so that no probe is resent after NOSCRIPT (which would reorder it)
    AtomicReference<RedisBloomFilter<CharSequence>> creator = new AtomicReference<>();
    RedisClientAdapter other = SERVER.adapter(Client.JEDIS);
    RedisClientAdapter torn = new TornProbes(SERVER.adapter(Client.JEDIS), 8, partitionZeroFirst,
        () -> creator.set(RedisBloomFilter.<CharSequence>builder(other, filter, Funnels.stringFunnel())
            .expectedInsertions(8_000).fpp(0.01).partitions(8).createOrAttach()));

    RedisBloomFilter<CharSequence> f = RedisBloomFilter.<CharSequence>builder(torn, filter, Funnels.stringFunnel())
        .expectedInsertions(8_000).fpp(0.01).partitions(8).createOrAttach();

    assertThat(creator.get()).as("the other creation ran between the probes").isNotNull();
    assertThat(creator.get().created()).isTrue();
    assertThat(f.created()).isFalse();
    assertThat(f.id()).isEqualTo(creator.get().id());
    List<String> added = keys("t-", 200);
    creator.get().addAll(added);
    for (boolean found : f.mightContainAll(added)) {
      assertThat(found).isTrue();
    }
  }

  /**
   * An adapter that runs the first pipeline of {@code probes} commands (an open's probe of every
   * partition) in two parts with {@code between} run in the middle: partition 0's command, then the
   * others ({@code partitionZeroFirst}), or the others, then partition 0's. Replies keep their order.
   */
  private static final class TornProbes extends RedisClientAdapter {
    private final RedisClientAdapter redis;
    private final int probes;
    private final boolean partitionZeroFirst;
    private final AtomicReference<Runnable> between;

    TornProbes(RedisClientAdapter redis, int probes, boolean partitionZeroFirst, Runnable between) {
      this.redis = redis;
      this.probes = probes;
      this.partitionZeroFirst = partitionZeroFirst;
      this.between = new AtomicReference<>(between);
    }

    @Override
    List<Object> pipeline(List<Command> commands) {
      if (commands.size() != probes || between.get() == null) {
        return redis.pipeline(commands);
      }
      Runnable middle = between.getAndSet(null);
      List<Command> zero = commands.subList(0, 1);
      List<Command> rest = commands.subList(1, commands.size());
      List<Object> zeroReplies;
      List<Object> restReplies;
      if (partitionZeroFirst) {
        zeroReplies = redis.pipeline(zero);
        middle.run();
        restReplies = redis.pipeline(rest);
      } else {
        restReplies = redis.pipeline(rest);
        middle.run();
        zeroReplies = redis.pipeline(zero);
      }
      List<Object> replies = new ArrayList<>(zeroReplies);
      replies.addAll(restReplies);
      return replies;
    }

    @Override
    Object evalsha(byte[] sha, List<byte[]> keys, List<byte[]> args) {
      return redis.evalsha(sha, keys, args);
    }

    @Override
    void scriptLoad(byte[] source, byte[] routingKey) {
      redis.scriptLoad(source, routingKey);
    }

    @Override
    void awaitRoute(byte[] key) {
      redis.awaitRoute(key);
    }

    @Override
    String type(byte[] key) {
      return redis.type(key);
    }

    @Override
    Map<String, String> hgetAll(byte[] key) {
      return redis.hgetAll(key);
    }

    @Override
    List<byte[]> hmget(byte[] key, byte[]... fields) {
      return redis.hmget(key, fields);
    }

    @Override
    byte[] hget(byte[] key, byte[] field) {
      return redis.hget(key, field);
    }

    @Override
    boolean exists(byte[] key) {
      return redis.exists(key);
    }

    @Override
    long hincrBy(byte[] key, byte[] field, long by) {
      return redis.hincrBy(key, field, by);
    }

    @Override
    long del(byte[]... keys) {
      return redis.del(keys);
    }

    @Override
    void set(byte[] key, byte[] value) {
      redis.set(key, value);
    }

    @Override
    byte[] get(byte[] key) {
      return redis.get(key);
    }

    @Override
    boolean setIfAbsent(byte[] key, byte[] value, long pxMillis) {
      return redis.setIfAbsent(key, value, pxMillis);
    }
  }

  @Test
  void aCreationInProgressIsWaitedForAndOneWhoseCreatorDiedIsTakenOver() throws Exception {
    // A creator that wrote partition 0 and partition 1 under its lease, then died: partition 2 never made.
    RedisBloomFilter<CharSequence> shape = builder(3).create(); // the shape's fields, then made to look half-done
    String dead = "00000000000000000000000000000dea";
    for (int p = 0; p < 3; p++) {
      redis.hset(FilterKeys.metaKey(name, p), "id", dead);
    }
    redis.del(FilterKeys.bitsKey(name, 2), FilterKeys.metaKey(name, 2));
    redis.setbit(FilterKeys.bitsKey(name, 1), 5, true); // a late write of the dead creator's run: emptied below
    long leaseMillis = 2_000;
    redis.hset(FilterKeys.metaKey(name, 0), "creating", Long.toString(serverMillis() + leaseMillis));
    assertThatThrownBy(() -> RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .creationLeaseForTest(Duration.ofMillis(100)).attach())
        .as("an attach while the lease runs waits (3 leases of its own), then refuses: it never creates")
        .isInstanceOf(RedisFilterException.class).hasMessageContaining("being created by another instance");

    // The lease still runs for a while: this create waits, then takes the creation over under a new id.
    long before = System.nanoTime();
    RedisBloomFilter<CharSequence> f = builder(3).creationLeaseForTest(Duration.ofMillis(leaseMillis)).create();
    assertThat(f.created()).isTrue();
    assertThat(f.id()).isNotEqualTo(dead).isNotEqualTo(shape.id());
    for (int p = 0; p < 3; p++) {
      assertThat(redis.hget(FilterKeys.metaKey(name, p), "id")).as("partition %d", p).isEqualTo(f.id());
    }
    assertThat(redis.bitcount(FilterKeys.bitsKey(name, 1))).as("the taken-over partition was emptied").isZero();
    assertThat(redis.hexists(FilterKeys.metaKey(name, 0), "creating")).isFalse();
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before)).as("waited for the lease").isPositive();
    assertThatThrownBy(() -> shape.add("x")).as("the first instance's filter is gone")
        .isInstanceOf(RedisFilterLostException.class);

    // A creation that completes while another instance waits: the waiter attaches to it.
    String other = name + ":2";
    RedisBloomFilter<CharSequence> made = RedisBloomFilter.<CharSequence>builder(redis, other, Funnels.stringFunnel())
        .expectedInsertions(8_000).partitions(2).create();
    redis.hset(FilterKeys.metaKey(other, 0), "creating", Long.toString(serverMillis() + 60_000));
    CompletableFuture<RedisBloomFilter<CharSequence>> waiter = CompletableFuture.supplyAsync(
        () -> RedisBloomFilter.<CharSequence>builder(redis, other, Funnels.stringFunnel()).expectedInsertions(8_000)
            .partitions(2).create());
    redis.hdel(FilterKeys.metaKey(other, 0), "creating"); // the creator completes, before or during the wait
    RedisBloomFilter<CharSequence> attached = waiter.get(30, TimeUnit.SECONDS);
    assertThat(attached.created()).isFalse();
    assertThat(attached.id()).isEqualTo(made.id());
  }

  @Test
  void aFilterMadeBeforeIdsGetsOneAndKeepsItsBitsWhileAMissingPartitionOfOneIsLost() {
    // The layout before ids: strategy 1, no id field; two partitions, items placed by the client.
    BitIndexer<CharSequence> indexer = BitIndexer.sized(Funnels.stringFunnel(), HashStrategy.MURMUR3_128_ENHANCED_DOUBLE,
        2_000, 0.01);
    List<String> added = keys("old-", 400);
    for (int p = 0; p < 2; p++) {
      redis.hset(FilterKeys.metaKey(name, p), Map.of("version", "1", "strategy", "1", "m",
          Long.toString(indexer.bitSize()), "k", Integer.toString(indexer.hashFunctions()), "partitions", "2",
          "n", "4000", "fpp", "0.01", "count", "0"));
      redis.setbit(FilterKeys.bitsKey(name, p), indexer.bitSize() - 1, false);
    }
    long[] h = new long[Math.max(2, indexer.hashFunctions())];
    for (String key : added) {
      indexer.hash(key, h);
      int partition = FilterKeys.partitionOf(h[0], h[1], 2);
      indexer.indexes(key, h);
      for (int i = 0; i < indexer.hashFunctions(); i++) {
        redis.setbit(FilterKeys.bitsKey(name, partition), h[i], true);
      }
    }
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.attach(redis, name, Funnels.stringFunnel());
    assertThat(f.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    assertThat(f.id()).isNotEmpty();
    assertThat(redis.hget(FilterKeys.metaKey(name, 1), "id")).isEqualTo(f.id());
    for (boolean found : f.mightContainAll(added)) {
      assertThat(found).isTrue();
    }
    RedisBloomFilter<CharSequence> again = RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .expectedInsertions(4_000).partitions(2).create();
    assertThat(again.id()).isEqualTo(f.id());
    assertThat(again.hashStrategy()).as("create keeps the stored strategy").isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);

    // The same layout with partition 1 gone: nothing is given an id or created, and the loss is named.
    String partial = name + ":partial";
    redis.hset(FilterKeys.metaKey(partial, 0), Map.of("version", "1", "strategy", "1", "m",
        Long.toString(indexer.bitSize()), "k", Integer.toString(indexer.hashFunctions()), "partitions", "2",
        "n", "4000", "fpp", "0.01", "count", "0"));
    redis.setbit(FilterKeys.bitsKey(partial, 0), indexer.bitSize() - 1, false);
    assertThatThrownBy(() -> RedisBloomFilter.<CharSequence>builder(redis, partial, Funnels.stringFunnel())
        .expectedInsertions(4_000).partitions(2).create()).isInstanceOf(RedisFilterLostException.class)
        .hasMessageContaining(FilterKeys.metaKey(partial, 1));
    assertThat(redis.exists(FilterKeys.metaKey(partial, 1))).as("no empty partition filled in").isFalse();
    assertThat(RedisBloomFilter.<CharSequence>builder(redis, partial, Funnels.stringFunnel()).delete())
        .as("the builder's delete removes what is left").isEqualTo(2);
  }

  @Test
  void anExpiringFilterOfLayoutOneIsUpgradedInPlaceWithItsBitsAndCounts() {
    // Layout 1: generation and counter keys with expiries, no directory, no id; strategy 1.
    ExpiringBloomFilter.Builder<CharSequence> plan = ExpiringBloomFilter.builder(Funnels.stringFunnel())
        .window(Duration.ofMinutes(10)).expectedInsertionsPerWindow(1_000).fpp(0.01);
    long m = plan.bitsPerGeneration();
    int k = plan.hashFunctions();
    long span = plan.generationSpan().toMillis();
    long origin = serverMillis() - 5_000; // slot 0 began 5 s ago
    String meta = ExpiringKeys.meta(name);
    redis.hset(meta, Map.ofEntries(Map.entry("version", "1"), Map.entry("kind", "expiring"), Map.entry("strategy", "1"),
        Map.entry("m", Long.toString(m)), Map.entry("k", Integer.toString(k)), Map.entry("generations", "8"),
        Map.entry("span", Long.toString(span)), Map.entry("window", "600000"), Map.entry("clock", "server"),
        Map.entry("origin", Long.toString(origin)), Map.entry("high", "0"), Map.entry("n", "1000"),
        Map.entry("fpp", "0.01")));
    BitIndexer<CharSequence> indexer = BitIndexer.withShape(Funnels.stringFunnel(), m, k);
    String g0 = ExpiringKeys.generation(name, 0);
    redis.setbit(g0, m - 1, false);
    long[] offsets = new long[Math.max(2, k)];
    List<String> added = keys("v1-", 3);
    for (String key : added) {
      indexer.indexes(key, offsets);
      for (int i = 0; i < k; i++) {
        redis.setbit(g0, offsets[i], true);
      }
    }
    String counter = name + ":{" + name + ":exp}:c0";
    redis.set(counter, "3");
    redis.pexpire(g0, 600_000);
    redis.pexpire(counter, 600_000);

    RedisExpiringBloomFilter<CharSequence> f = RedisExpiringBloomFilter.<CharSequence>builder(redis, name,
        Funnels.stringFunnel()).window(Duration.ofMinutes(10)).expectedInsertionsPerWindow(1_000).build();
    assertThat(f.created()).isFalse();
    assertThat(f.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    assertThat(f.originMillis()).isEqualTo(origin);
    for (String key : added) {
      assertThat(f.mightContain(key)).as(key).isTrue();
    }
    assertThat(f.count()).isEqualTo(3);
    assertThat(redis.pttl(g0)).as("the generation no longer expires").isEqualTo(-1);
    assertThat(redis.exists(counter)).as("the counter moved into the metadata").isFalse();
    assertThat(redis.hget(meta, "version")).isEqualTo("2");
    assertThat(redis.hget(meta, "s0")).isEqualTo("0");
    assertThat(redis.hget(meta, "id")).isEqualTo(f.id());
    assertThat(f.add("v2-new")).isTrue();
    assertThat(f.add("v1-0")).isFalse();
    assertThat(redis.get(g0.getBytes(StandardCharsets.UTF_8))).isNotNull();
  }
}
