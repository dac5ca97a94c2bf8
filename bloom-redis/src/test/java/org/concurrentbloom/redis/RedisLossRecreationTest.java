package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.time.Duration;
import java.util.List;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;

/**
 * Issue 22, data replaced: a filter (or one partition of it) vanishes from Redis (deleted, FLUSHDB, a
 * restart without persistence) and another instance creates it again, empty. The instance that added
 * keys before must not then answer false for them: it may refuse (throw), since what it added is gone,
 * but an empty filter of the same shape is not the filter it wrote to. Each scenario counts, for the
 * keys whose add returned, how many queries answered false and how many threw.
 */
@Tag("jdk-independent") // data replaced in Redis, caught by the protocol: JDK-free (.ci/run)
class RedisLossRecreationTest {
  /** No persistence (RedisNode passes --save "", and AOF is off by default): a restart comes back empty. */
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  /**
   * (a) Partition 1 of a 4-partition filter is deleted (both of its keys). A second instance's
   * createOrAttach with the same n, p and partitions must refuse, rather than write a fresh partition 1
   * beside the three full ones; and instance A must answer no added key false.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  void aDeletedPartitionIsNotCreatedAgainBesideTheOthers(Client client) {
    String name = "loss:partition:" + client;
    RedisBloomFilter<CharSequence> a = RedisBloomFilter.<CharSequence>builder(SERVER.adapter(client), name,
        Funnels.stringFunnel()).expectedInsertions(20_000).fpp(0.01).partitions(4).create();
    List<String> added = keys("a-", 2_000);
    for (String key : added) {
      a.add(key);
    }
    String bits1 = FilterKeys.bitsKey(name, 1);
    String meta1 = FilterKeys.metaKey(name, 1);
    try (Jedis admin = SERVER.node().admin()) {
      admin.del(bits1, meta1);

      RedisBloomFilter.Builder<CharSequence> b = RedisBloomFilter.<CharSequence>builder(SERVER.adapter(client), name,
          Funnels.stringFunnel()).expectedInsertions(20_000).fpp(0.01).partitions(4);
      String outcome;
      RuntimeException refusal = null;
      try {
        outcome = "returned, created() = " + b.create().created();
      } catch (RuntimeException e) {
        refusal = e;
        outcome = "threw " + e;
      }
      boolean partitionWritten = admin.exists(bits1) || admin.exists(meta1);
      Answers answers = Answers.ask(added, a::mightContain);
      String report = "B.create() " + outcome + "; partition 1 written by it: " + partitionWritten
          + "; A's queries of its " + answers;
      System.out.println("RedisLossRecreationTest (a) " + client + ": " + report);

      Checks soft = new Checks();
      RuntimeException refused = refusal;
      soft.check(() -> assertThat(refused).as("B's create over a filter missing partition 1 must refuse: " + report)
          .isInstanceOf(RedisFilterMismatchException.class));
      if (refused != null) {
        soft.check(() -> assertThat(refused.getMessage()).as("the refusal names the missing partition")
            .contains("{" + name + ":p1}"));
      }
      soft.check(() -> assertThat(partitionWritten).as("the refused create wrote nothing: " + report).isFalse());
      soft.check(() -> assertThat(answers.falseAnswers()).as("A's added keys answered false: " + report).isZero());
      soft.assertAll();
    }
  }

  /**
   * (b) A one-partition filter's keys are deleted (as FLUSHDB would), another instance creates it again
   * (a new, empty filter is legitimate) and adds one other key. Instance A, still holding the old
   * filter, must not answer false for the 500 keys it added.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  void aFilterDeletedAndCreatedAgainIsNotAnsweredFromByTheOldInstance(Client client) {
    String name = "loss:recreated:" + client;
    RedisBloomFilter<CharSequence> a = RedisBloomFilter.create(SERVER.adapter(client), name, Funnels.stringFunnel(),
        10_000, 0.01);
    List<String> added = keys("a-", 500);
    for (String key : added) {
      a.add(key);
    }
    try (Jedis admin = SERVER.node().admin()) {
      admin.del(FilterKeys.bitsKey(name, 0), FilterKeys.metaKey(name, 0));
    }
    RedisBloomFilter<CharSequence> b = RedisBloomFilter.create(SERVER.adapter(client), name, Funnels.stringFunnel(),
        10_000, 0.01);
    b.add("b-only");

    Answers answers = Answers.ask(added, a::mightContain);
    String report = "B.create() created() = " + b.created() + "; A's queries of its " + answers;
    System.out.println("RedisLossRecreationTest (b) " + client + ": " + report);
    Checks soft = new Checks();
    soft.check(() -> assertThat(b.mightContain("b-only")).as("B's own add").isTrue());
    soft.check(() -> assertThat(answers.falseAnswers()).as("A's added keys answered false: " + report).isZero());
    soft.assertAll();
  }

  /**
   * (c) An expiring filter on a Redis without persistence: A adds 500 keys, Redis is killed and
   * restarted empty, B builds the filter again (new metadata, new origin). A must not answer false for
   * its 500 keys. (A's first calls may throw on connections that died with the server; they count as
   * threw.)
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  void anExpiringFilterBuiltAgainAfterAnEmptyRestartIsNotAnsweredFromByTheOldInstance(Client client)
      throws Exception {
    String name = "loss:restarted:" + client;
    RedisExpiringBloomFilter<CharSequence> a = expiring(SERVER.adapter(client), name);
    List<String> added = keys("a-", 500);
    for (String key : added) {
      a.add(key);
    }
    SERVER.node().kill();
    SERVER.node().restart();
    RedisExpiringBloomFilter<CharSequence> b = expiring(SERVER.adapter(client), name);
    assertThat(b.created()).as("infrastructure: the restarted server came back empty").isTrue();

    Answers answers = Answers.ask(added, a::mightContain);
    String report = "B.build() created() = " + b.created() + "; A's queries of its " + answers;
    System.out.println("RedisLossRecreationTest (c) " + client + ": " + report);
    Checks soft = new Checks();
    soft.check(() -> assertThat(answers.falseAnswers()).as("A's added keys answered false: " + report).isZero());
    soft.assertAll();
  }

  private static RedisExpiringBloomFilter<CharSequence> expiring(RedisClientAdapter redis, String name) {
    return RedisExpiringBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .window(Duration.ofMinutes(2)).expectedInsertionsPerWindow(10_000).build();
  }
}
