package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.util.List;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.SafeEncoder;

/**
 * The BF.* mode. The server the tests start is the installed redis-server: Debian 12's Redis 7.0 has
 * no BF commands, so there the functional tests are skipped and only detection and the refusal are
 * checked; on a server with them (Redis 8, or RedisBloom loaded) every test runs.
 */
class RedisNativeBloomFilterTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  @Test
  void detectionAgreesWithTheServerAndAServerWithoutBfIsRefusedClearly() {
    RedisClient redis = SERVER.client();
    // Independent of the detection under test: Redis 8 has the commands built in, or a module named bf.
    String info = redis.info("server");
    int major = Integer.parseInt(info.replaceAll("(?s).*redis_version:(\\d+)\\..*", "$1"));
    String modules = SafeEncoder.encodeObject(
        redis.executeCommand(new CommandArguments(Protocol.Command.MODULE).add("LIST"))).toString();
    boolean hasBf = major >= 8 || modules.contains("bf");
    assertThat(RedisNativeBloomFilter.isSupported(redis)).isEqualTo(hasBf);
    if (!hasBf) {
      assertThatThrownBy(() -> RedisNativeBloomFilter.create(redis, "native:none", Funnels.stringFunnel(), 100, 0.01))
          .isInstanceOf(RedisFilterException.class).hasMessageContaining("no BF.* commands")
          .hasMessageContaining("RedisBloomFilter");
      assertThat(redis.exists("native:none")).isFalse();
    }
    assertThatThrownBy(() -> RedisNativeBloomFilter.create(redis, "native:bad", Funnels.stringFunnel(), 0, 0.01))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
  }

  @Test
  void itemsAreSentAsTheirFunnelledBytesSoOtherClientsShareTheFilter() {
    assertThat(FunnelBytes.of(Funnels.stringFunnel(), "alice@example.com"))
        .isEqualTo("alice@example.com".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(FunnelBytes.of(Funnels.stringFunnel(), "Zürich")).isEqualTo("Zürich".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(FunnelBytes.of(Funnels.longFunnel(), 0x0102030405060708L))
        .containsExactly(8, 7, 6, 5, 4, 3, 2, 1);
    assertThat(FunnelBytes.of(Funnels.byteArrayFunnel(), new byte[] {9, 8})).containsExactly(9, 8);
    assertThatThrownBy(() -> FunnelBytes.of(Funnels.stringFunnel(), null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void theBuilderRefusesContradictoryOrBadOptionsNamingThem() {
    RedisClient redis = SERVER.client();
    assertThatThrownBy(() -> RedisNativeBloomFilter.builder(redis, "native:x", Funnels.stringFunnel()).expansion(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
    assertThatThrownBy(() -> RedisNativeBloomFilter.builder(redis, "native:x", Funnels.stringFunnel()).nonScaling()
        .expansion(4)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nonScaling");
    assertThatThrownBy(() -> RedisNativeBloomFilter.builder(redis, "native:x", Funnels.stringFunnel()).create())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("expectedInsertions");
    // A bad n is named, not reported as missing (before, -1 read as "not set").
    assertThatThrownBy(() -> RedisNativeBloomFilter.create(redis, "native:x", Funnels.stringFunnel(), -1, 0.01))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    assertThatThrownBy(() -> RedisNativeBloomFilter.create(redis, "native:x", Funnels.stringFunnel(), 0, 0.01))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
    assertThatThrownBy(() -> RedisNativeBloomFilter.builder(redis, "native:x", Funnels.stringFunnel())
        .waitForReplicas(0, java.time.Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> RedisNativeBloomFilter.builder(redis, "native:x", Funnels.stringFunnel())
        .waitForReplicas(1, java.time.Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout");
    assertThatThrownBy(() -> RedisNativeBloomFilter.builder(redis, "", Funnels.stringFunnel()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-empty");
  }

  @Test
  void anAddThatWaitsForAReplicaThisServerLacksSaysSoAndIsOnTheMaster() {
    RedisClient redis = SERVER.client();
    assumeTrue(RedisNativeBloomFilter.isSupported(redis), "this redis-server has no BF.* commands (Redis 7 without RedisBloom)");
    RedisNativeBloomFilter<CharSequence> f = RedisNativeBloomFilter.<CharSequence>builder(redis, "native:wait",
        Funnels.stringFunnel()).expectedInsertions(1_000).waitForReplicas(1, java.time.Duration.ofMillis(50)).create();
    assertThatThrownBy(() -> f.add("alice")).isInstanceOf(RedisFilterException.class)
        .hasMessageContaining("0 of 1 replicas");
    assertThat(f.mightContain("alice")).isTrue();
  }

  @Test
  @SuppressWarnings("deprecation") // sendCommand: another client's raw BF.* commands
  void anotherClientsBfExistsFindsOurItemsAndAnotherShapeIsRefused() {
    RedisClient redis = SERVER.client();
    assumeTrue(RedisNativeBloomFilter.isSupported(redis), "this redis-server has no BF.* commands (Redis 7 without RedisBloom)");
    RedisNativeBloomFilter<CharSequence> f = RedisNativeBloomFilter.<CharSequence>builder(redis, "native:shared",
        Funnels.stringFunnel()).expectedInsertions(1_000).fpp(0.001).expansion(4).create();
    assertThat(f.created()).isTrue();
    f.add("alice@example.com");
    Object theirs = redis.sendCommand(() -> SafeEncoder.encode("BF.EXISTS"), "native:shared", "alice@example.com");
    assertThat(theirs).isIn(1L, true);
    redis.sendCommand(() -> SafeEncoder.encode("BF.ADD"), "native:shared", "bob@example.com");
    assertThat(f.mightContain("bob@example.com")).isTrue();
    assertThat(RedisNativeBloomFilter.<CharSequence>builder(redis, "native:shared", Funnels.stringFunnel())
        .expectedInsertions(1_000).fpp(0.001).expansion(4).create().created()).isFalse();
    assertThatThrownBy(() -> RedisNativeBloomFilter.create(redis, "native:shared", Funnels.stringFunnel(), 5_000, 0.001))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("capacity");
    assertThatThrownBy(() -> RedisNativeBloomFilter.<CharSequence>builder(redis, "native:shared", Funnels.stringFunnel())
        .expectedInsertions(1_000).fpp(0.01).expansion(4).create())
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("error");
    redis.sendCommand(() -> SafeEncoder.encode("BF.RESERVE"), "native:foreign", "0.01", "777", "NONSCALING");
    assertThatThrownBy(() -> RedisNativeBloomFilter.create(redis, "native:foreign", Funnels.stringFunnel(), 1_000, 0.01))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("777");
    RedisNativeBloomFilter<Long> ids = RedisNativeBloomFilter.create(redis, "native:ids", Funnels.longFunnel(), 1_000, 0.01);
    assertThat(ids.addAll(new long[] {1, 2, 3})).isEqualTo(3);
    assertThat(ids.mightContainAll(new long[] {1, 2, 3})).containsOnly(true);
    f.delete();
    assertThat(redis.exists("native:shared")).isFalse();
  }

  @Test
  void addQueryBatchesCountAndClear() {
    RedisClient redis = SERVER.client();
    assumeTrue(RedisNativeBloomFilter.isSupported(redis), "this redis-server has no BF.* commands (Redis 7 without RedisBloom)");
    RedisNativeBloomFilter<CharSequence> f = RedisNativeBloomFilter.create(redis, "native:f", Funnels.stringFunnel(), 10_000, 0.01);
    assertThat(f.add("alice")).isTrue();
    assertThat(f.add("alice")).isFalse();
    assertThat(f.mightContain("alice")).isTrue();
    List<String> batch = keys("k", 5_000);
    f.addAll(batch);
    assertThat(f.mightContainAll(batch)).containsOnly(true);
    int falsePositives = 0;
    for (boolean b : f.mightContainAll(keys("absent", 10_000))) {
      falsePositives += b ? 1 : 0;
    }
    assertThat(falsePositives).isLessThan(300); // p = 1%: 100 expected, 300 is 20 sd above
    assertThat(f.count()).isGreaterThan(4_900);
    RedisNativeBloomFilter<CharSequence> other = RedisNativeBloomFilter.create(SERVER.client(), "native:f",
        Funnels.stringFunnel(), 10_000, 0.01);
    assertThat(other.mightContain("k42")).isTrue();
    f.clear();
    assertThat(f.mightContain("alice")).isFalse();
    assertThat(f.count()).isZero();
    f.delete();
    assertThat(redis.exists("native:f")).isFalse();
  }
}
