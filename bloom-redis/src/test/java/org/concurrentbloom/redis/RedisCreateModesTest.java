package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.util.LinkedHashSet;
import java.util.Set;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/** Create, attach and create-or-attach, each saying what it did; the batch API's Iterable and long[] forms. */
class RedisCreateModesTest {
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
    name = "modes:" + method + ":" + client;
  }

  private RedisBloomFilter.Builder<CharSequence> builder(long n) {
    return RedisBloomFilter.<CharSequence>builder(filters, name, Funnels.stringFunnel()).expectedInsertions(n);
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void createNewCreatesOnceAndThenRefusesWritingNothing(Client client) {
    use(client);
    RedisBloomFilter<CharSequence> first = builder(1_000).createNew();
    assertThat(first.created()).isTrue();
    first.add("alice");
    assertThatThrownBy(() -> builder(1_000).createNew()).isInstanceOf(RedisFilterExistsException.class)
        .hasMessageContaining(FilterKeys.metaKey(name, 0));
    assertThat(first.count()).isEqualTo(1);
    assertThat(first.mightContain("alice")).isTrue();
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void createNewOfAPartitionedFilterRefusesIfAnyPartitionExists(Client client) {
    use(client);
    builder(4_000).partitions(4).createNew();
    assertThatThrownBy(() -> builder(4_000).partitions(4).createNew()).isInstanceOf(RedisFilterExistsException.class)
        .hasMessageContaining(FilterKeys.metaKey(name, 0));
    // Partition 0 gone, the others there: a filter that lost data, reported as such, never filled in.
    redis.del(FilterKeys.bitsKey(name, 0), FilterKeys.metaKey(name, 0));
    assertThatThrownBy(() -> builder(4_000).partitions(4).createNew()).isInstanceOf(RedisFilterLostException.class)
        .hasMessageContaining(FilterKeys.metaKey(name, 0)).hasMessageContaining("[1, 2, 3]");
    assertThatThrownBy(() -> builder(4_000).partitions(4).createOrAttach()).isInstanceOf(RedisFilterLostException.class);
    assertThat(redis.exists(FilterKeys.metaKey(name, 0))).as("the probes wrote nothing").isFalse();
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void createOrAttachSaysWhetherItCreated(Client client) {
    use(client);
    assertThat(builder(1_000).createOrAttach().created()).isTrue();
    RedisBloomFilter<CharSequence> again = builder(1_000).createOrAttach();
    assertThat(again.created()).isFalse();
    assertThat(builder(1_000).create().created()).as("create() is createOrAttach()").isFalse();
    assertThat(RedisBloomFilter.attach(filters, name, Funnels.stringFunnel()).created()).isFalse();
    assertThatThrownBy(() -> RedisBloomFilter.attach(filters, name + "-absent", Funnels.stringFunnel()))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("no filter named");
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void batchesTakeAnyIterableAndLongArrays(Client client) {
    use(client);
    RedisBloomFilter<CharSequence> strings = builder(10_000).create();
    Set<String> set = new LinkedHashSet<>(keys("s", 1_000));
    assertThat(strings.addAll(set)).isEqualTo(1_000);
    boolean[] answers = strings.mightContainAll(set);
    assertThat(answers).hasSize(1_000).containsOnly(true);
    assertThat(strings.mightContainAll(keys("absent", 100))).contains(false);

    RedisBloomFilter<Long> longs = RedisBloomFilter.create(filters, name + "-longs", Funnels.longFunnel(), 10_000, 0.01);
    long[] ids = new long[2_000];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = 1_000_000L + i;
    }
    assertThat(longs.addAll(ids)).isEqualTo(2_000);
    assertThat(longs.mightContainAll(ids)).containsOnly(true);
    assertThat(longs.mightContain(1_000_000L)).as("same offsets as add(Long)").isTrue();
    assertThat(longs.mightContainAll(new long[] {-1, -2, -3, -4, -5})).contains(false);
    assertThatThrownBy(() -> strings.addAll(new long[] {1})).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("longFunnel");
  }
}
