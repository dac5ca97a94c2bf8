package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.concurrentbloom.ConcurrentRun;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.internal.BitIndexer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * RedisExpiringBloomFilter on one real redis-server: the window and retention of the core's semantics
 * (on a test filter's manual clock, kept in Redis), generations without expiry listed in the metadata,
 * one hash tag, statistics, clear, concurrent adds, and the builder's checks.
 */
class RedisExpiringBloomFilterTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  private RedisClient redis;
  private String name;

  @BeforeEach
  void setUp(TestInfo info) {
    redis = SERVER.client();
    name = "exp:" + info.getTestMethod().orElseThrow().getName();
  }

  private RedisExpiringBloomFilter.Builder<CharSequence> builder() {
    return RedisExpiringBloomFilter.builder(redis, name, Funnels.stringFunnel());
  }

  private static int found(RedisExpiringBloomFilter<CharSequence> f, List<String> keys) {
    int n = 0;
    for (String key : keys) {
      n += f.mightContain(key) ? 1 : 0;
    }
    return n;
  }

  private static int added(RedisExpiringBloomFilter<CharSequence> f, List<String> keys) {
    int n = 0;
    for (String key : keys) {
      n += f.add(key) ? 1 : 0;
    }
    return n;
  }

  /** The server's clock in ms (TIME). */
  private static long serverMillis() {
    try (Jedis admin = SERVER.node().admin()) {
      List<String> t = admin.time();
      return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }
  }

  @Tag("jdk-independent") // window arithmetic under a manual clock: JDK-free (.ci/run)
  @Test
  void itemsAreFoundThroughoutTheWindowAndForgottenFromMaxRetention() {
    // W = 70 s, G = 8: slots of s = 10 s, retention G·s = 80 s. The filter's clock moves only when told.
    ManualClock clock = ManualClock.farFromNow(redis, name);
    long perSlot = 2_000;
    RedisExpiringBloomFilter<CharSequence> f = clock.on(builder()).window(Duration.ofSeconds(70))
        .expectedInsertionsPerWindow(7 * perSlot).fpp(0.01).build();
    long s = f.generationSpan().toMillis();
    assertThat(s).isEqualTo(10_000);
    assertThat(f.maxRetention()).isEqualTo(Duration.ofSeconds(80));
    long origin = f.originMillis();
    assertThat(origin).isEqualTo(clock.millis());

    long t = origin + 1_234;
    clock.set(t);
    List<String> targets = keys("target-", 2_000);
    added(f, targets);
    assertThat(found(f, targets)).as("at t").isEqualTo(targets.size());
    long fillersAddedTrue = 0;
    for (int slot = 1; slot <= 8; slot++) {
      long start = origin + slot * s;
      clock.set(start - 1); // up to the last ms of slot 7, slot 0 is among the G remembered
      assertThat(found(f, targets)).as("the last ms of slot %d", slot - 1).isEqualTo(targets.size());
      clock.set(start);
      if (slot <= 7) {
        assertThat(found(f, targets)).as("the first ms of slot %d", slot).isEqualTo(targets.size());
      }
      // Other items at the steady rate the filter is sized for, so that the generations still
      // remembered when the targets are gone are full and answer falsely at about p.
      fillersAddedTrue += added(f, keys("fill-" + slot + "-", (int) perSlot));
      if (slot == 7) {
        clock.set(t + f.window().toMillis() - 1);
        assertThat(found(f, targets)).as("at t + W - 1").isEqualTo(targets.size());
      }
    }
    clock.set(t + f.maxRetention().toMillis());
    int stillFound = found(f, targets);
    // Slot 0 is forgotten: a target is found only as a false positive of the 8 full generations, at rate
    // at most p = 0.01. Of 2,000, the one-sided 99.9% bound (normal approximation of the binomial,
    // z = 3.09): 2000·p + 3.09·sqrt(2000·p·(1 − p)) = 20 + 13.75, so at most 33.
    double p = 0.01;
    double bound = targets.size() * p + 3.09 * Math.sqrt(targets.size() * p * (1 - p));
    System.out.printf("expiring filter on Redis: %d of %d targets found after max retention (bound %.1f)%n",
        stillFound, targets.size(), bound);
    assertThat((double) stillFound).isLessThanOrEqualTo(bound);
    // The count covers the remembered generations only: the fillers of slots 1..8, not the targets.
    assertThat(f.count()).isEqualTo(fillersAddedTrue);
  }

  @Test
  void generationsHaveNoExpiryAreListedInTheMetadataAndReplacedOutOfTheWindow() {
    ManualClock clock = ManualClock.farFromNow(redis, name);
    RedisExpiringBloomFilter<CharSequence> f = clock.on(builder()).window(Duration.ofSeconds(70))
        .expectedInsertionsPerWindow(1_000).build();
    long origin = f.originMillis();
    assertThat(origin).isEqualTo(clock.millis());
    long s = f.generationSpan().toMillis();
    clock.set(origin + 3_000);
    assertThat(f.add("alice")).isTrue();
    String slot0 = ExpiringKeys.generation(name, 0);
    String meta = ExpiringKeys.meta(name);
    // No expiry: a volatile-* maxmemory policy can never evict a generation.
    assertThat(redis.pexpireTime(slot0)).isEqualTo(-1);
    assertThat(redis.pexpireTime(meta)).as("the metadata never expires").isEqualTo(-1);
    assertThat(redis.hget(meta, "s0")).as("the directory lists slot 0 in ring position 0").isEqualTo("0");
    assertThat(redis.hget(meta, "c0")).isEqualTo("1");

    clock.set(origin + 3 * s);
    f.add("bob");
    assertThat(redis.hget(meta, "s3")).isEqualTo("3");
    // Slot 8 reuses ring position 0: the add that starts it deletes slot 0's generation, out of the window.
    clock.set(origin + 8 * s);
    assertThat(f.mightContain("alice")).as("slot 0 is forgotten once slot 8 begins").isFalse();
    assertThat(redis.exists(slot0)).as("not yet replaced").isTrue();
    f.add("carol");
    assertThat(redis.exists(slot0)).isFalse();
    assertThat(redis.hget(meta, "s0")).isEqualTo("8");
    assertThat(f.mightContain("bob")).isTrue();

    // Every key of the filter carries its hash tag, so all are in one Cluster slot.
    Set<String> all = keysStartingWith(name);
    assertThat(all).containsExactlyInAnyOrder(meta, ExpiringKeys.generation(name, 3), ExpiringKeys.generation(name, 8));
    Set<Integer> slots = new TreeSet<>();
    for (String key : all) {
      assertThat(key).contains("{" + name + ":exp}");
      slots.add(JedisClusterCRC16.getSlot(key));
    }
    assertThat(slots).hasSize(1);
  }

  @Test
  void aClockThatStepsBackNeverHidesWhatWasAdded() {
    ManualClock clock = ManualClock.farFromNow(redis, name);
    RedisExpiringBloomFilter<CharSequence> f = clock.on(builder()).window(Duration.ofSeconds(70))
        .expectedInsertionsPerWindow(1_000).build();
    long origin = f.originMillis();
    clock.set(origin + 65_000); // slot 6
    assertThat(f.add("late")).isTrue();
    clock.set(origin + 1_000); // back to slot 0: the current slot stays 6, so slot 6 is still asked
    assertThat(f.mightContain("late")).isTrue();
    assertThat(f.add("late")).isFalse();
    clock.set(origin - 100_000); // before the origin
    assertThat(f.mightContain("late")).isTrue();
    assertThat(f.add("early")).isTrue();
    clock.set(origin + 65_000 + 70_000 - 1); // the last ms of slot 12: slot 6 still remembered
    assertThat(f.mightContain("late")).isTrue();
    assertThat(f.mightContain("early")).isTrue();
    assertThat(f.mightContain("never")).isFalse();
  }

  @Test
  void theServerClockIsTheDefaultAndStatisticsCoverTheRememberedGenerations() {
    RedisExpiringBloomFilter<CharSequence> f = builder().window(Duration.ofMinutes(10))
        .expectedInsertionsPerWindow(10_000).fpp(0.01).generations(16).build();
    assertThat(f.created()).isTrue();
    long now = serverMillis();
    assertThat(f.originMillis()).isBetween(now - 60_000, now);
    assertThat(f.generationCount()).isEqualTo(16);
    assertThat(f.generationSpan()).isEqualTo(Duration.ofSeconds(40));
    assertThat(f.maxRetention()).isEqualTo(Duration.ofSeconds(640));
    assertThat(f.bitSize()).isEqualTo(16 * f.bitsPerGeneration());
    assertThat(f.expectedInsertions()).isEqualTo(10_000);
    assertThat(f.fpp()).isEqualTo(0.01);
    assertThat(f.count()).isZero();
    assertThat(f.fillRatio()).isZero();
    assertThat(f.estimatedFpp()).isZero();

    List<String> items = keys("user-", 1_000);
    int fresh = added(f, items);
    assertThat(fresh).isGreaterThan(990);
    assertThat(added(f, items)).as("every add again is known").isZero();
    assertThat(found(f, items)).isEqualTo(items.size());
    assertThat(found(f, keys("absent-", 1_000))).isLessThan(30);
    assertThat(f.count()).isEqualTo(fresh);
    assertThat(f.fillRatio()).isGreaterThan(0).isLessThan(0.1);
    // All 1,000 are in one generation sized for n·s/W = 667 items: its rate is past the generation's p_g.
    assertThat(f.estimatedFpp()).isGreaterThan(1e-4).isLessThan(0.05);
    assertThat(f.approximateElementCount()).isBetween(900L, 1_100L);

    // A second instance attaches; clear empties the generations and keeps the metadata for both.
    RedisExpiringBloomFilter<CharSequence> other = builder().window(Duration.ofMinutes(10))
        .expectedInsertionsPerWindow(10_000).fpp(0.01).generations(16).build();
    assertThat(other.created()).isFalse();
    assertThat(other.originMillis()).isEqualTo(f.originMillis());
    f.clear();
    assertThat(f.count()).isZero();
    assertThat(found(other, items)).isZero();
    assertThat(redis.exists(ExpiringKeys.meta(name))).isTrue();
    assertThat(other.add("after-clear")).isTrue();
    assertThat(f.mightContain("after-clear")).isTrue();
    assertThatThrownBy(() -> f.writeTo(new ByteArrayOutputStream())).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("server's clock").hasMessageContaining(name);
    assertThat(f.hashStrategy()).as("new filters hash as a new core filter does").isEqualTo(BitIndexer.DEFAULT_STRATEGY);
  }

  @Test
  void concurrentAddsFromManyThreadsLoseNothing() throws Exception {
    ManualClock clock = ManualClock.farFromNow(redis, name);
    RedisExpiringBloomFilter<CharSequence> f = clock.on(builder()).window(Duration.ofSeconds(70))
        .expectedInsertionsPerWindow(50_000).build();
    clock.advance(20_000); // slot 2
    int threads = 8;
    int perThread = 400;
    AtomicLong addedTrue = new AtomicLong();
    List<String> raced = keys("raced-", 200);
    AtomicIntegerArray winners = new AtomicIntegerArray(raced.size());
    // ConcurrentRun starts every thread, then releases them together by one latch, and joins them.
    ConcurrentRun.together(threads, index -> {
      List<String> own = keys("t" + index + "-", perThread);
      for (int i = 0; i < perThread; i++) {
        if (f.add(own.get(i))) {
          addedTrue.incrementAndGet();
        }
        if (i < raced.size() && f.add(raced.get(i))) { // every thread adds the same raced keys
          addedTrue.incrementAndGet();
          winners.incrementAndGet(i);
        }
      }
    });
    int won = 0;
    for (int i = 0; i < raced.size(); i++) {
      assertThat(winners.get(i)).as("adds of %s that answered true", raced.get(i)).isLessThanOrEqualTo(1);
      won += winners.get(i);
    }
    assertThat(won).isGreaterThan(raced.size() - 5);
    assertThat(found(f, raced)).isEqualTo(raced.size());
    List<String> all = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      all.addAll(keys("t" + i + "-", perThread));
    }
    assertThat(found(f, all)).isEqualTo(all.size());
    assertThat(f.count()).as("each add that answered true is counted once").isEqualTo(addedTrue.get());
    assertThat(addedTrue.get()).isGreaterThan(all.size() + raced.size() - 25L);
  }

  @Test
  void badSettingsThrowNamingTheSetting() {
    assertThatThrownBy(() -> builder().window(Duration.ofMillis(500))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("window");
    assertThatThrownBy(() -> builder().window(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("window");
    assertThatThrownBy(() -> builder().expectedInsertionsPerWindow(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertionsPerWindow");
    assertThatThrownBy(() -> builder().fpp(1.5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fpp");
    assertThatThrownBy(() -> builder().fpp(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fpp");
    assertThatThrownBy(() -> builder().generations(3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("generations");
    assertThatThrownBy(() -> builder().generations(128)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("generations");
    assertThatThrownBy(() -> builder().waitForReplicas(0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replicas").hasMessageContaining("was 0");
    assertThatThrownBy(() -> builder().waitForReplicas(1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
    assertThatThrownBy(() -> RedisExpiringBloomFilter.builder(redis, "a{b}", Funnels.stringFunnel()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a{b}");
    assertThatThrownBy(() -> RedisExpiringBloomFilter.builder(redis, null, Funnels.stringFunnel()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
    assertThatThrownBy(() -> RedisExpiringBloomFilter.builder(redis, name, null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("funnel");
    assertThatThrownBy(() -> builder().expectedInsertionsPerWindow(1_000).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("window");
    assertThatThrownBy(() -> builder().window(Duration.ofMinutes(1)).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("expectedInsertionsPerWindow");
    assertThatThrownBy(() -> builder().window(Duration.ofMinutes(1)).expectedInsertionsPerWindow(2_500_000_000L)
        .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bitsPerGeneration");
    RedisExpiringBloomFilter<CharSequence> f = builder().window(Duration.ofMinutes(1))
        .expectedInsertionsPerWindow(100).build();
    assertThatThrownBy(() -> f.add(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("item");
    assertThatThrownBy(() -> f.mightContain(null)).isInstanceOf(NullPointerException.class);
    assertThat(keysStartingWith("exp:badSettings")).as("only the last build wrote")
        .containsExactly(ExpiringKeys.meta(name));
  }

  private Set<String> keysStartingWith(String prefix) {
    Set<String> found = new TreeSet<>();
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = redis.scan(cursor, new ScanParams().match(prefix + "*").count(1000));
      found.addAll(page.getResult());
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return found;
  }
}
