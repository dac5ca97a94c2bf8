package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.TableSource;
import redis.clients.jedis.UnifiedJedis;

/** Guards for the tests: p = 1e-6, so an absent key that answers "maybe" is a bug, not bad luck. */
final class Guards {
  private Guards() {}

  /** A guard named {@code name} over {@code table}, sized for 20,000 keys, retrying after 20 ms to 200 ms. */
  static MembershipGuard.Builder<String> over(TableSource table, String name) {
    return MembershipGuard.builder(Funnels.stringFunnel(), table).name(name).expectedInsertions(20_000).fpp(1e-6)
        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200));
  }

  /** {@link #over} in shared mode on {@code redis}: one application instance. */
  static MembershipGuard<String> sharedInstance(TableSource table, String name, UnifiedJedis redis)
      throws InterruptedException {
    return ready(over(table, name).backend(RedisGuardBackend.of(redis)));
  }

  /** {@link #over} in shared mode through {@code redis}, either client: one application instance. */
  static MembershipGuard<String> sharedInstance(TableSource table, String name, RedisClientAdapter redis)
      throws InterruptedException {
    return ready(over(table, name).backend(RedisGuardBackend.of(redis)));
  }

  /** Builds the guard and waits until a filter is live. */
  static MembershipGuard<String> ready(MembershipGuard.Builder<String> builder) throws InterruptedException {
    MembershipGuard<String> guard = builder.build();
    assertThat(guard.awaitReady(Duration.ofSeconds(30))).as("guard ready").isTrue();
    return guard;
  }
}
