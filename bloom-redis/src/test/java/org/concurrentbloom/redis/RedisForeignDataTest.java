package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The edges where a Redis filter could answer from, or write into, data that is not its own: another
 * application's keys under the filter's names, a replaced bit string, a WAIT that reports on a write a
 * flushed script cache kept from running, a batch with a bad item, and key names outside the filter's
 * prefix.
 */
class RedisForeignDataTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  private RedisClient redis;
  private String name;

  /** Admin commands (planting foreign data, reading keys) go through Jedis; the filters through {@code client}. */
  private RedisClientAdapter filters;
  private String method;

  @BeforeEach
  void setUp(TestInfo info) {
    redis = SERVER.client();
    method = info.getTestMethod().orElseThrow().getName();
  }

  private void use(Client client) {
    filters = SERVER.adapter(client);
    name = "app:" + method + ":" + client;
  }

  private String meta(int partition) {
    return new String(FilterKeys.meta(name, partition), StandardCharsets.UTF_8);
  }

  private String bits(int partition) {
    return new String(FilterKeys.bits(name, partition), StandardCharsets.UTF_8);
  }

  /** Every key whose name starts with {@code prefix}. */
  private SortedSet<String> keysStartingWith(String prefix) {
    return keysMatching(prefix + "*");
  }

  /** Every key whose name contains this test's filter name, wherever. */
  private SortedSet<String> keysMentioningName() {
    return keysMatching("*" + name + "*");
  }

  private SortedSet<String> keysMatching(String pattern) {
    TreeSet<String> found = new TreeSet<>();
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = redis.scan(cursor, new ScanParams().match(pattern).count(1000));
      found.addAll(page.getResult());
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return found;
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void createOverAnotherApplicationsHashRefusesNamingTheKeyAndWritesNothing(Client client) {
    use(client);
    redis.hset(meta(0), Map.of("owner", "billing", "total", "42"));
    assertThatThrownBy(() -> RedisBloomFilter.create(filters, name, Funnels.stringFunnel(), 1_000, 0.01))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining(meta(0));
    assertThat(redis.hgetAll(meta(0))).isEqualTo(Map.of("owner", "billing", "total", "42"));
    assertThat(redis.exists(bits(0))).as("no bit string beside it").isFalse();
    assertThatThrownBy(() -> RedisBloomFilter.attach(filters, name, Funnels.stringFunnel()))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining(meta(0));
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aStringOrAListAtTheMetadataKeyIsAMismatchNamingKeyAndType(Client client) {
    use(client);
    redis.set(meta(0), "a cached page");
    assertThatThrownBy(() -> RedisBloomFilter.create(filters, name, Funnels.stringFunnel(), 1_000, 0.01))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining(meta(0)).hasMessageContaining("string");
    assertThatThrownBy(() -> RedisBloomFilter.attach(filters, name, Funnels.stringFunnel()))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining(meta(0)).hasMessageContaining("string");
    assertThat(redis.get(meta(0))).isEqualTo("a cached page");
    redis.del(meta(0));
    redis.rpush(meta(0), "job-1", "job-2");
    assertThatThrownBy(() -> RedisBloomFilter.create(filters, name, Funnels.stringFunnel(), 1_000, 0.01))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining(meta(0)).hasMessageContaining("list");
    assertThat(redis.lrange(meta(0), 0, -1)).containsExactly("job-1", "job-2");
    assertThat(redis.exists(bits(0))).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aForeignHashInOnePartitionIsRefusedBeforeAnyPartitionIsWritten(Client client) {
    use(client);
    redis.hset(meta(2), Map.of("owner", "billing"));
    assertThatThrownBy(() -> RedisBloomFilter.<CharSequence>builder(filters, name, Funnels.stringFunnel())
        .expectedInsertions(4_000).partitions(4).create())
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining(meta(2));
    assertThat(keysMentioningName()).as("only the foreign key").containsExactly(meta(2));
    assertThat(redis.hgetAll(meta(2))).isEqualTo(Map.of("owner", "billing"));
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aBitStringReplacedByAForeignValueIsNeitherWrittenIntoNorDownloaded(Client client) {
    use(client);
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(filters, name, Funnels.stringFunnel(), 1_000, 0.01);
    f.add("alice");
    redis.set(bits(0), "session:4711");
    assertThatThrownBy(() -> f.add("bob")).isInstanceOf(RedisFilterMismatchException.class)
        .hasMessageContaining(bits(0)).hasMessageContaining("bytes");
    assertThatThrownBy(() -> f.mightContain("alice")).isInstanceOf(RedisFilterMismatchException.class);
    assertThatThrownBy(f::download).isInstanceOf(RedisFilterMismatchException.class);
    assertThatThrownBy(f::count).isInstanceOf(RedisFilterMismatchException.class);
    assertThat(redis.get(bits(0))).isEqualTo("session:4711");
    redis.del(bits(0));
    redis.rpush(bits(0), "x");
    assertThatThrownBy(() -> f.add("bob")).isInstanceOf(RedisFilterMismatchException.class)
        .hasMessageContaining(bits(0)).hasMessageContaining("list");
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aWaitShortfallAfterScriptFlushIsReportedOnlyForAnAddThatRan(Client client) {
    use(client);
    // One server, no replica: every WAIT for one replica falls short, so every write here throws; the
    // question is whether what it says ("is on the master") is true.
    RedisBloomFilter<CharSequence> plain = RedisBloomFilter.create(filters, name, Funnels.stringFunnel(), 1_000, 0.01);
    RedisBloomFilter<CharSequence> durable = RedisBloomFilter.<CharSequence>builder(filters, name,
        Funnels.stringFunnel()).waitForReplicas(1, Duration.ofMillis(50)).attach();
    redis.scriptFlush(); // as after a restart or a failover
    assertThatThrownBy(() -> durable.add("after-flush")).isInstanceOf(RedisFilterException.class)
        .hasMessageContaining("is on the master");
    assertThat(plain.mightContain("after-flush")).as("the add it reported ran").isTrue();
    redis.scriptFlush();
    List<String> batch = keys("batch-", 500);
    assertThatThrownBy(() -> durable.addAll(batch)).isInstanceOf(RedisFilterException.class)
        .hasMessageContaining("is on the master");
    for (String key : batch) {
      assertThat(plain.mightContain(key)).as(key).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void addAllWithANullItemAfterTenThousandOthersWritesNothing(Client client) {
    use(client);
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(filters, name, Funnels.stringFunnel(), 20_000, 0.01);
    List<String> batch = new ArrayList<>(keys("k", 10_000));
    batch.add(null);
    assertThatThrownBy(() -> f.addAll(batch)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("10000");
    assertThat(f.count()).isZero();
    assertThat(f.mightContain("k0")).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void everyKeyOfAFilterAndOfASharedGuardStartsWithItsName(Client client) throws Exception {
    use(client);
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.<CharSequence>builder(filters, name, Funnels.stringFunnel())
        .expectedInsertions(4_000).partitions(3).create();
    f.add("x");
    assertThat(keysStartingWith(name + ":")).hasSize(6);
    String guardName = name + "-guard";
    try (MembershipGuard<String> guard = Guards.sharedInstance(TableSource.of("u", 10), guardName, filters)) {
      assertThat(guard.mightExist("u1")).isTrue();
      // The build's lock may still be held for a moment after the guard is ready (it starts with the
      // name too); close() below waits for the build, so the final count has no lock key.
      assertThat(keysStartingWith(guardName + ":")).as("state, generation bits and meta")
          .filteredOn(k -> !k.endsWith("}:lock")).hasSize(3);
    }
    assertThat(keysMentioningName()).hasSize(9).allMatch(k -> k.startsWith(name));
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void createWithAnotherNAndPOfTheSameShapeReportsTheStoredOnes(Client client) {
    use(client);
    RedisBloomFilter<CharSequence> first = RedisBloomFilter.create(filters, name, Funnels.stringFunnel(), 1_000, 0.01);
    RedisBloomFilter<CharSequence> second = RedisBloomFilter.create(filters, name, Funnels.stringFunnel(), 1_001, 0.01);
    assertThat(second.bitSize()).isEqualTo(first.bitSize());
    assertThat(second.hashFunctions()).isEqualTo(first.hashFunctions());
    assertThat(second.expectedInsertions()).as("the stored n").isEqualTo(1_000);
    assertThat(second.fpp()).isEqualTo(0.01);
  }
}
