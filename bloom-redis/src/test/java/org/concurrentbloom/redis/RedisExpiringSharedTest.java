package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.time.Duration;
import java.util.List;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two instances of one expiring filter, each on its own client (one Jedis, one Lettuce), see each
 * other's adds and agree on the generations; an instance of another shape or another kind of clock is
 * refused and changes nothing.
 */
class RedisExpiringSharedTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  private static RedisExpiringBloomFilter.Builder<CharSequence> over(Client client, String name) {
    return RedisExpiringBloomFilter.builder(SERVER.adapter(client), name, Funnels.stringFunnel());
  }

  @Test
  void twoInstancesOnTwoClientsSeeEachOthersAddsAndForgetTogether() {
    String name = "exp-shared:clients";
    ManualClock clock = ManualClock.farFromNow(SERVER.client(), name);
    RedisExpiringBloomFilter<CharSequence> a = clock.on(over(Client.JEDIS, name)).window(Duration.ofSeconds(70))
        .expectedInsertionsPerWindow(5_000).build();
    RedisExpiringBloomFilter<CharSequence> b = clock.on(over(Client.LETTUCE, name)).window(Duration.ofSeconds(70))
        .expectedInsertionsPerWindow(5_000).build();
    assertThat(a.created()).isTrue();
    assertThat(b.created()).isFalse();
    assertThat(b.originMillis()).isEqualTo(a.originMillis());
    List<String> fromA = keys("a-", 500);
    List<String> fromB = keys("b-", 500);
    int fresh = 0;
    for (int i = 0; i < 500; i++) {
      fresh += a.add(fromA.get(i)) ? 1 : 0;
      fresh += b.add(fromB.get(i)) ? 1 : 0;
    }
    for (int i = 0; i < 500; i++) {
      assertThat(b.mightContain(fromA.get(i))).as(fromA.get(i)).isTrue();
      assertThat(a.mightContain(fromB.get(i))).as(fromB.get(i)).isTrue();
      assertThat(b.add(fromA.get(i))).as("b adds what a added").isFalse();
    }
    assertThat(a.count()).isEqualTo(b.count()).isEqualTo(fresh);

    clock.advance(a.maxRetention().toMillis()); // both forget slot 0 at once
    assertThat(a.mightContain("a-1")).isFalse();
    assertThat(b.mightContain("b-1")).isFalse();
    assertThat(b.count()).isZero();
  }

  @Test
  void anInstanceOfAnotherShapeOrClockIsRefusedAndWritesNothing() {
    String name = "exp-shared:mismatch";
    RedisExpiringBloomFilter<CharSequence> first = over(Client.JEDIS, name).window(Duration.ofMinutes(1))
        .expectedInsertionsPerWindow(10_000).build();
    first.add("kept");
    assertThatThrownBy(() -> over(Client.LETTUCE, name).window(Duration.ofMinutes(1))
        .expectedInsertionsPerWindow(1_000_000).build())
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("BLOOMSHAPE")
        .hasMessageContaining(ExpiringKeys.meta(name)).hasMessageContaining("m=" + first.bitsPerGeneration());
    assertThatThrownBy(() -> over(Client.LETTUCE, name).window(Duration.ofMinutes(2))
        .expectedInsertionsPerWindow(10_000).build())
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("window=60000");
    assertThatThrownBy(() -> over(Client.LETTUCE, name).window(Duration.ofMinutes(1))
        .expectedInsertionsPerWindow(10_000).generations(16).build())
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("generations=8");
    assertThatThrownBy(() -> over(Client.LETTUCE, name).window(Duration.ofMinutes(1))
        .expectedInsertionsPerWindow(10_000).manualClockForTest(0).build())
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("clock=server");
    // Another n and p that round to the same shape attach, reporting the stored ones.
    RedisExpiringBloomFilter<CharSequence> same = over(Client.LETTUCE, name).window(Duration.ofMinutes(1))
        .expectedInsertionsPerWindow(10_000).fpp(0.01).build();
    assertThat(same.created()).isFalse();
    assertThat(same.mightContain("kept")).isTrue();
    assertThat(first.count()).isEqualTo(1);
  }
}
