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
