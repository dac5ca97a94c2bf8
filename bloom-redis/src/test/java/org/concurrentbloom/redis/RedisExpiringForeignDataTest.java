package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * An expiring filter whose keys hold someone else's data (another application's hash, a string, a
 * list, a generation key replaced, a counter field) refuses with {@link RedisFilterMismatchException}
 * naming the key, and leaves that data as it was; one whose metadata is gone refuses with
 * {@link RedisFilterLostException}.
 */
class RedisExpiringForeignDataTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  private RedisClient redis;
  private String method;
  private String name;
  private RedisClientAdapter filters;

  @BeforeEach
  void setUp(TestInfo info) {
    redis = SERVER.client();
    method = info.getTestMethod().orElseThrow().getName();
  }

  private RedisExpiringBloomFilter.Builder<CharSequence> use(Client client) {
    filters = SERVER.adapter(client);
    name = "app:" + method + ":" + client;
    return builder();
  }

  private RedisExpiringBloomFilter.Builder<CharSequence> builder() {
    return RedisExpiringBloomFilter.<CharSequence>builder(filters, name, Funnels.stringFunnel())
        .window(Duration.ofMinutes(1)).expectedInsertionsPerWindow(1_000);
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aListAStringOrAnotherApplicationsHashAtTheMetadataKeyIsRefused(Client client) {
    use(client);
    String meta = ExpiringKeys.meta(name);
    redis.rpush(meta, "job-1", "job-2");
    assertThatThrownBy(() -> builder().build()).isInstanceOf(RedisFilterMismatchException.class)
        .hasMessageContaining(meta).hasMessageContaining("list");
    assertThat(redis.lrange(meta, 0, -1)).containsExactly("job-1", "job-2");
    redis.del(meta);
    redis.set(meta, "a cached page");
    assertThatThrownBy(() -> builder().build()).isInstanceOf(RedisFilterMismatchException.class)
        .hasMessageContaining(meta).hasMessageContaining("string");
    assertThat(redis.get(meta)).isEqualTo("a cached page");
    redis.del(meta);
    redis.hset(meta, Map.of("owner", "billing", "version", "1"));
    assertThatThrownBy(() -> builder().build()).isInstanceOf(RedisFilterMismatchException.class)
        .hasMessageContaining(meta).hasMessageContaining("BLOOMFOREIGN");
    assertThat(redis.hgetAll(meta)).isEqualTo(Map.of("owner", "billing", "version", "1"));
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aGenerationKeyOrCounterFieldReplacedByForeignDataIsNeitherReadNorWritten(Client client) {
    use(client);
    ManualClock clock = ManualClock.farFromNow(redis, name);
    RedisExpiringBloomFilter<CharSequence> f = clock.on(builder()).build();
    f.add("alice");
    String bits = ExpiringKeys.generation(name, 0);
    byte[] before = redis.get(bits.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    redis.set(bits, "session:4711");
    assertThatThrownBy(() -> f.add("bob")).isInstanceOf(RedisFilterMismatchException.class)
        .hasMessageContaining(bits);
    assertThatThrownBy(() -> f.mightContain("alice")).isInstanceOf(RedisFilterMismatchException.class)
        .hasMessageContaining(bits);
    assertThatThrownBy(f::count).isInstanceOf(RedisFilterMismatchException.class);
    assertThatThrownBy(f::clear).isInstanceOf(RedisFilterMismatchException.class);
    assertThat(redis.get(bits)).isEqualTo("session:4711");

    redis.set(bits.getBytes(java.nio.charset.StandardCharsets.UTF_8), before);
    String meta = ExpiringKeys.meta(name);
    redis.hset(meta, "c0", "x");
    assertThatThrownBy(() -> f.add("carol")).isInstanceOf(RedisFilterMismatchException.class)
        .hasMessageContaining(meta).hasMessageContaining("field c0").hasMessageContaining("\"x\"");
    assertThat(redis.get(bits.getBytes(java.nio.charset.StandardCharsets.UTF_8))).as("the refused add wrote no bits")
        .isEqualTo(before);
    assertThat(redis.hget(meta, "c0")).isEqualTo("x");
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aListedGenerationThatIsGoneIsLostForEveryCallAndRefusedByBuild(Client client) {
    use(client);
    ManualClock clock = ManualClock.farFromNow(redis, name);
    RedisExpiringBloomFilter<CharSequence> f = clock.on(builder()).build();
    f.add("alice");
    String slot0 = ExpiringKeys.generation(name, 0);
    redis.del(slot0); // as an allkeys-* eviction or a DEL would
    assertThatThrownBy(() -> f.mightContain("alice")).isInstanceOf(RedisFilterLostException.class)
        .hasMessageContaining(slot0).hasMessageContaining("records it as written");
    assertThatThrownBy(() -> f.add("bob")).isInstanceOf(RedisFilterLostException.class);
    assertThatThrownBy(f::count).isInstanceOf(RedisFilterLostException.class);
    assertThatThrownBy(() -> clock.on(builder()).build()).as("build() never attaches to a filter with a hole")
        .isInstanceOf(RedisFilterLostException.class).hasMessageContaining(slot0);
    assertThat(redis.exists(slot0)).as("nothing filled in").isFalse();
    // Once slot 0 is out of the window, its loss no longer matters: the filter answers again.
    clock.advance(f.maxRetention().toMillis());
    assertThat(f.mightContain("alice")).isFalse();
    assertThat(f.add("carol")).isTrue();
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void deletedMetadataIsReportedNotAnsweredAsAbsent(Client client) {
    RedisExpiringBloomFilter<CharSequence> f = use(client).build();
    f.add("alice");
    redis.del(ExpiringKeys.meta(name));
    assertThatThrownBy(() -> f.mightContain("alice")).isInstanceOf(RedisFilterLostException.class)
        .hasMessageContaining("BLOOMLOST").hasMessageContaining(ExpiringKeys.meta(name));
    assertThatThrownBy(() -> f.add("bob")).isInstanceOf(RedisFilterLostException.class);
    assertThat(redis.exists(ExpiringKeys.meta(name))).as("the refused add created nothing").isFalse();
  }
}
