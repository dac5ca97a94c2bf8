package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.time.Duration;
import java.util.List;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Crashes, restarts and a frozen server, over both clients: failures surface as
 * {@link RedisFilterException}, never as "absent", and with AOF (appendfsync always) every add
 * acknowledged before a crash is there after it.
 */
class FaultTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension("--appendonly", "yes", "--appendfsync", "always");

  /** Each key answers true or throws RedisFilterException; returns how many threw. */
  private static int trueOrThrows(RedisBloomFilter<CharSequence> f, List<String> keys) {
    int threw = 0;
    for (String key : keys) {
      try {
        assertThat(f.mightContain(key)).as(key).isTrue();
      } catch (RedisFilterException expected) {
        threw++;
      }
    }
    return threw;
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aCrashedServerIsAnErrorAndAfterARestartWithAofEveryAckedAddIsThere(Client client) throws Exception {
    // Lettuce queues commands while it reconnects, so a call during the outage fails by its timeout.
    RedisClientAdapter before = SERVER.adapter(client, Duration.ofSeconds(1));
    String name = "fault:aof:" + client;
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(before, name, Funnels.stringFunnel(), 10_000, 0.01);
    List<String> batch = keys("batch-", 3_000);
    f.addAll(batch);
    List<String> singles = keys("single-", 300);
    for (String key : singles) {
      f.add(key);
    }
    long countBefore = f.count();

    SERVER.node().kill(); // SIGKILL: no shutdown save, only the AOF
    assertThatThrownBy(() -> f.mightContain("single-1")).isInstanceOf(RedisFilterException.class);
    assertThatThrownBy(() -> f.mightContainAll(singles)).isInstanceOf(RedisFilterException.class);
    assertThatThrownBy(() -> f.add("during-outage")).isInstanceOf(RedisFilterException.class);
    assertThatThrownBy(f::count).isInstanceOf(RedisFilterException.class);

    SERVER.node().restart();
    // The old connections died with the server: each call answers true or throws, never false.
    trueOrThrows(f, singles.subList(0, 20));

    RedisBloomFilter<CharSequence> after = RedisBloomFilter.attach(SERVER.adapter(client), name, Funnels.stringFunnel());
    assertThat(after.mightContainAll(batch)).containsOnly(true);
    assertThat(after.mightContainAll(singles)).containsOnly(true);
    assertThat(after.count()).isEqualTo(countBefore);
    // The restarted server has an empty script cache: the add reloads its script and works.
    assertThat(after.add("after-restart")).isTrue();
    assertThat(after.mightContain("after-restart")).isTrue();
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aFrozenServerTimesOutAsAnErrorNeverAbsent(Client client) throws Exception {
    RedisClientAdapter quick = SERVER.adapter(client, Duration.ofMillis(300));
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(quick, "fault:timeout:" + client,
        Funnels.stringFunnel(), 1_000, 0.01);
    f.add("present");
    SERVER.node().signal("STOP");
    try {
      if (client == Client.JEDIS) {
        assertThatThrownBy(() -> f.mightContain("absent-key")).isInstanceOf(RedisFilterException.class)
            .hasRootCauseInstanceOf(java.net.SocketTimeoutException.class)
            .hasCauseInstanceOf(JedisConnectionException.class);
      } else {
        assertThatThrownBy(() -> f.mightContain("absent-key")).isInstanceOf(RedisFilterException.class)
            .hasCauseInstanceOf(io.lettuce.core.RedisCommandTimeoutException.class);
      }
      assertThatThrownBy(() -> f.mightContainAll(List.of("a", "b"))).isInstanceOf(RedisFilterException.class);
      assertThatThrownBy(() -> f.add("x")).isInstanceOf(RedisFilterException.class);
    } finally {
      SERVER.node().signal("CONT");
    }
    assertThat(f.mightContain("present")).isTrue();
    assertThat(f.mightContain("absent-key")).isFalse();
  }
}
