package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * An expiring filter across a crash: with AOF (appendfsync always) every acknowledged add, its count and
 * its keys' expiries are there after a restart; during the outage calls fail, never answer "absent".
 */
class RedisExpiringFaultTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension("--appendonly", "yes", "--appendfsync", "always");

  @ParameterizedTest
  @EnumSource(Client.class)
  void addsBeforeACrashAreFoundAfterARestartWithAof(Client client) throws Exception {
    String name = "exp-fault:aof:" + client;
    RedisExpiringBloomFilter<CharSequence> f = RedisExpiringBloomFilter.<CharSequence>builder(
        SERVER.adapter(client, Duration.ofSeconds(1)), name, Funnels.stringFunnel())
        .window(Duration.ofMinutes(10)).expectedInsertionsPerWindow(10_000).build();
    List<String> items = keys("item-", 1_000);
    for (String item : items) {
      f.add(item);
    }
    long count = f.count();
    RedisClient before = SERVER.client();
    Map<String, String> directory = before.hgetAll(ExpiringKeys.meta(name));

    SERVER.node().kill(); // SIGKILL: no shutdown save, only the AOF
    assertThatThrownBy(() -> f.mightContain("item-1")).isInstanceOf(RedisFilterException.class);
    SERVER.node().restart();

    RedisExpiringBloomFilter<CharSequence> after = RedisExpiringBloomFilter.<CharSequence>builder(
        SERVER.adapter(client), name, Funnels.stringFunnel())
        .window(Duration.ofMinutes(10)).expectedInsertionsPerWindow(10_000).build();
    assertThat(after.created()).isFalse();
    for (String item : items) {
      assertThat(after.mightContain(item)).as(item).isTrue();
    }
    assertThat(after.count()).isEqualTo(count);
    assertThat(SERVER.client().hgetAll(ExpiringKeys.meta(name))).as("the metadata and its directory survive")
        .isEqualTo(directory);
    assertThat(after.id()).isEqualTo(f.id());
    assertThat(f.mightContain("item-1")).as("the instance from before the crash still has its filter").isTrue();
    // The restarted server's script cache is empty: the add reloads its script.
    assertThat(after.add("after-restart")).isTrue();
    assertThat(after.mightContain("after-restart")).isTrue();
  }
}
