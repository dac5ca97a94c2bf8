package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.concurrentbloom.guard.MembershipGuard;
import org.concurrentbloom.guard.NeverInserted;
import org.concurrentbloom.guard.TableSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * A shared guard whose live generation loses part of itself in Redis (its bit string evicted or
 * deleted while its metadata and the state remain, or its metadata gone): no check answers "absent"
 * meanwhile, every inserted row keeps answering "maybe", and the guard rebuilds from its key source by
 * itself, after which it filters again.
 */
@Tag("jdk-independent") // the guard's policy on lost data: JDK-free (.ci/run)
class GuardLossTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private static long live(RedisClient redis, GuardKeys keys) {
    String live = redis.hget(RedisCodec.text(keys.state), "live");
    return live == null ? 0 : Long.parseLong(live);
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aLiveGenerationWithItsBitsOrMetadataGoneIsRebuiltAndNeverAnswersAbsent(Client client) throws Exception {
    RedisClient redis = SERVER.client();
    for (String part : List.of("bits", "meta")) {
      String name = "loss.guard." + part + "." + client;
      TableSource table = TableSource.of("key-", 2_000);
      GuardKeys keys = new GuardKeys(name);
      try (MembershipGuard<String> guard = Guards.sharedInstance(table, name, SERVER.adapter(client))) {
        long before = live(redis, keys);
        assertThat(before).isPositive();
        redis.del(part.equals("bits") ? keys.bits(before) : keys.meta(before));
        for (String key : table.keys()) {
          assertThat(guard.mightExist(key)).as("%s with the live generation's %s gone", key, part).isTrue();
        }
        Await.until("the guard rebuilt from its source", DEADLINE, () -> {
          guard.mightExist("absent"); // a check meets the loss and tells the guard
          return live(redis, keys) != before && guard.stats().ready();
        });
        assertThat(table.scanAllCalls.get()).as("rebuilt by a scan of the source").isGreaterThanOrEqualTo(2);
        for (String key : table.keys()) {
          assertThat(guard.mightExist(key)).as(key).isTrue();
        }
        assertThat(NeverInserted.absentOf(guard, 200)).as("never-inserted keys answered absent again after the rebuild")
            .isGreaterThan(190);
      }
    }
  }
}
