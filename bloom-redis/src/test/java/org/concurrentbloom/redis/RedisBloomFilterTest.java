package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.concurrentbloom.redis.TestKeys.keys;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.internal.BitIndexer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/** RedisBloomFilter on one real redis-server: same bits as the core, metadata checks, scripts, batches. */
class RedisBloomFilterTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  private RedisClient redis;
  private String name;

  @BeforeEach
  void setUp(TestInfo info) {
    redis = SERVER.client();
    name = "test:" + info.getTestMethod().orElseThrow().getName();
  }

  private static byte[] fileBytes(BloomFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  @Test
  void addsSetExactlyTheBitsTheCoreFilterSets() throws IOException {
    RedisBloomFilter<CharSequence> remote = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 3_000, 0.01);
    // A new Redis filter hashes as a new core filter does, with the defaults (strategy 4).
    BloomFilter<CharSequence> local = BloomFilter.create(Funnels.stringFunnel(), 3_000, 0.01);
    assertThat(remote.hashStrategy()).isEqualTo(local.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    for (String key : keys("user-", 2_000)) {
      assertThat(remote.add(key)).as(key).isEqualTo(local.add(key));
    }
    // Same shape, same bits, same count: the downloaded filter's file is byte-identical.
    assertThat(fileBytes(remote.download())).isEqualTo(fileBytes(local));
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    remote.writeTo(written);
    assertThat(written.toByteArray()).isEqualTo(fileBytes(local));
  }

  @Test
  void theRedisStringHoldsEachIndexAtItsSetbitOffset() {
    RedisBloomFilter<Long> remote = RedisBloomFilter.create(redis, name, Funnels.longFunnel(), 500, 0.05);
    remote.add(12345L);
    BitIndexer<Long> indexer = BitIndexer.withShape(Funnels.longFunnel(), remote.hashStrategy(), remote.bitSize(),
        remote.hashFunctions());
    long[] offsets = new long[Math.max(2, remote.hashFunctions())];
    indexer.indexes(12345L, offsets);
    String bitsKey = FilterKeys.bitsKey(name, 0);
    long setInString = redis.bitcount(bitsKey);
    for (int i = 0; i < remote.hashFunctions(); i++) {
      assertThat(redis.getbit(bitsKey, offsets[i])).as("offset %d", offsets[i]).isTrue();
    }
    assertThat(setInString).isEqualTo(LongStream.of(offsets).limit(remote.hashFunctions()).distinct().count());
    assertThat(redis.strlen(bitsKey)).isEqualTo((remote.bitSize() + 7) / 8);
  }

  @Test
  void uploadThenQueryAnswersAsTheLocalFilterAndDownloadGivesItBack() throws IOException {
    BloomFilter<CharSequence> local = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(4_000).fpp(0.02)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    for (String key : keys("a", 4_000)) {
      local.add(key);
    }
    RedisBloomFilter<CharSequence> remote =
        RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel()).upload(local);
    List<String> probes = keys("a", 8_000);
    boolean[] answers = remote.mightContainAll(probes);
    for (int i = 0; i < probes.size(); i++) {
      assertThat(answers[i]).as(probes.get(i)).isEqualTo(local.mightContain(probes.get(i)));
    }
    assertThat(remote.count()).isEqualTo(local.count());
    assertThat(remote.fillRatio()).isEqualTo(local.fillRatio());
    assertThat(fileBytes(remote.download())).isEqualTo(fileBytes(local));
  }

  @Test
  void uploadRefusesToOverwriteAndOtherLayouts() {
    BloomFilter<Long> local = BloomFilter.builder(Funnels.longFunnel()).expectedInsertions(100).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    RedisBloomFilter.create(redis, name, Funnels.longFunnel(), 100, 0.01).add(1L);
    assertThatThrownBy(() -> RedisBloomFilter.<Long>builder(redis, name, Funnels.longFunnel()).upload(local))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("already exists");
    assertThat(RedisBloomFilter.attach(redis, name, Funnels.longFunnel()).count()).isEqualTo(1);
    BloomFilter<Long> blocked = BloomFilter.builder(Funnels.longFunnel()).expectedInsertions(100).blocked().build();
    assertThatThrownBy(() -> RedisBloomFilter.<Long>builder(redis, name + "2", Funnels.longFunnel()).upload(blocked))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blocked");
  }

  @Test
  void uploadOfADefaultFilterWorksAndAStrategyOneFilterKeepsItsStrategy() throws IOException {
    // Before, Redis kept strategy 1 only, and this upload of a filter built with the defaults was refused.
    BloomFilter<CharSequence> local = BloomFilter.create(Funnels.stringFunnel(), 2_000, 0.01);
    List<String> added = keys("k", 1_500);
    added.forEach(local::add);
    assertThat(local.hashStrategy()).as("the default of a new local filter").isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    RedisBloomFilter<CharSequence> remote =
        RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel()).upload(local);
    assertThat(remote.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(redis.hget(FilterKeys.metaKey(name, 0), "strategy")).as("the stored strategy").isEqualTo("4");
    List<String> probes = keys("k", 4_000);
    boolean[] answers = remote.mightContainAll(probes);
    for (int i = 0; i < probes.size(); i++) {
      assertThat(answers[i]).as(probes.get(i)).isEqualTo(local.mightContain(probes.get(i)));
    }
    assertThat(fileBytes(remote.download())).isEqualTo(fileBytes(local));
    // Another instance attaches with the stored strategy and finds the same items.
    RedisBloomFilter<CharSequence> other = RedisBloomFilter.attach(redis, name, Funnels.stringFunnel());
    assertThat(other.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    for (String key : added) {
      assertThat(other.mightContain(key)).as(key).isTrue();
    }

    // The same keys in a strategy-1 filter upload under another name and come back exactly.
    BloomFilter<CharSequence> old = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(2_000).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    added.forEach(old::add);
    RedisBloomFilter<CharSequence> remoteOld =
        RedisBloomFilter.<CharSequence>builder(redis, name + ":old", Funnels.stringFunnel()).upload(old);
    answers = remoteOld.mightContainAll(probes);
    for (int i = 0; i < probes.size(); i++) {
      assertThat(answers[i]).as(probes.get(i)).isEqualTo(old.mightContain(probes.get(i)));
    }
    BloomFilter<CharSequence> back = remoteOld.download();
    assertThat(back.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    assertThat(fileBytes(back)).isEqualTo(fileBytes(old));
    // create() with the defaults attaches to it and keeps its strategy; one that asks for 4 is refused.
    RedisBloomFilter<CharSequence> attached = RedisBloomFilter.create(redis, name + ":old", Funnels.stringFunnel(),
        2_000, 0.01);
    assertThat(attached.created()).isFalse();
    assertThat(attached.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    assertThat(attached.mightContain("k7")).isTrue();
    assertThatThrownBy(() -> RedisBloomFilter.<CharSequence>builder(redis, name + ":old", Funnels.stringFunnel())
        .expectedInsertions(2_000).hashStrategy(HashStrategy.XXH3_64_ENHANCED_DOUBLE).create())
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("strategy=1");
    assertThatThrownBy(() -> RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .hashStrategy(HashStrategy.XXH3_64_BLOCKED)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not 5");
  }

  @Test
  void attachReadsTheShapeAndSeesTheSameItems() {
    RedisBloomFilter<CharSequence> first =
        RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 12_345, 0.003);
    first.add("x");
    RedisBloomFilter<CharSequence> second = RedisBloomFilter.attach(redis, name, Funnels.stringFunnel());
    assertThat(second.bitSize()).isEqualTo(first.bitSize());
    assertThat(second.hashFunctions()).isEqualTo(first.hashFunctions());
    assertThat(second.expectedInsertions()).isEqualTo(12_345);
    assertThat(second.fpp()).isEqualTo(0.003);
    assertThat(second.mightContain("x")).isTrue();
    // Creating again with the same n and p attaches too, and keeps the data.
    assertThat(RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 12_345, 0.003).count()).isEqualTo(1);
  }

  @Test
  void aDifferentShapeIsRefusedAndNothingIsWritten() {
    RedisBloomFilter<CharSequence> stored = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 1_000, 0.01);
    stored.add("kept");
    Map<String, String> metaBefore = redis.hgetAll(FilterKeys.metaKey(name, 0));
    byte[] bitsBefore = redis.get(FilterKeys.bits(name, 0));

    assertThatThrownBy(() -> RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 1_000, 0.001))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("BLOOMSHAPE")
        .hasMessageContaining("m=" + stored.bitSize());
    assertThatThrownBy(() -> RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .expectedInsertions(1_000).fpp(0.01).partitions(2).create())
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("partitions=1");

    assertThat(redis.hgetAll(FilterKeys.metaKey(name, 0))).isEqualTo(metaBefore);
    assertThat(redis.get(FilterKeys.bits(name, 0))).isEqualTo(bitsBefore);
    assertThat(redis.exists(FilterKeys.metaKey(name, 1))).as("partition 1 of the refused shape").isFalse();
  }

  @Test
  void aClientWithAStaleShapeCanNeitherWriteNorAnswerAbsent() {
    RedisBloomFilter<CharSequence> stale = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 1_000, 0.01);
    stale.delete();
    RedisBloomFilter<CharSequence> current = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 50_000, 0.01);
    current.add("present");
    byte[] bitsBefore = redis.get(FilterKeys.bits(name, 0));

    assertThatThrownBy(() -> stale.add("x")).isInstanceOf(RedisFilterMismatchException.class);
    assertThatThrownBy(() -> stale.mightContain("present")).isInstanceOf(RedisFilterMismatchException.class);
    assertThatThrownBy(() -> stale.addAll(List.of("y", "z"))).isInstanceOf(RedisFilterMismatchException.class);
    assertThatThrownBy(stale::clear).isInstanceOf(RedisFilterMismatchException.class);
    assertThatThrownBy(stale::count).isInstanceOf(RedisFilterMismatchException.class);

    assertThat(redis.get(FilterKeys.bits(name, 0))).isEqualTo(bitsBefore);
    assertThat(current.count()).isEqualTo(1);
  }

  @Test
  void aDeletedOrEvictedFilterIsAnErrorNeverAbsent() {
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 1_000, 0.01);
    f.add("a");
    redis.del(FilterKeys.bitsKey(name, 0));
    assertThatThrownBy(() -> f.mightContain("a")).isInstanceOf(RedisFilterLostException.class)
        .hasMessageContaining("is gone");
    assertThatThrownBy(() -> f.add("a")).isInstanceOf(RedisFilterLostException.class);
    f.delete();
    assertThatThrownBy(() -> f.mightContain("a")).isInstanceOf(RedisFilterLostException.class)
        .hasMessageContaining("BLOOMLOST");
    assertThatThrownBy(() -> RedisBloomFilter.attach(redis, name, Funnels.stringFunnel()))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("no filter named");
  }

  @Test
  void attachRejectsMetadataItCannotTrust() {
    RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 1_000, 0.01);
    String meta = FilterKeys.metaKey(name, 0);
    String[][] corruptions = {
        {"version", "2", "format version 2"}, {"strategy", "3", "hash strategy 3"}, {"k", "seven", "invalid k"},
        {"k", "5000", "hash function count"}, {"m", "0", "invalid m"}, {"fpp", "1.5", "invalid fpp"},
        {"partitions", "-1", "invalid partitions"}};
    for (String[] c : corruptions) {
      String before = redis.hget(meta, c[0]);
      redis.hset(meta, c[0], c[1]);
      assertThatThrownBy(() -> RedisBloomFilter.attach(redis, name, Funnels.stringFunnel())).as("%s=%s", c[0], c[1])
          .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining(c[2]);
      redis.hset(meta, c[0], before);
    }
    redis.hdel(meta, "n");
    assertThatThrownBy(() -> RedisBloomFilter.attach(redis, name, Funnels.stringFunnel()))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("lacks the field n");
  }

  @Test
  void foreignDataUnderTheNameIsNotTouched() {
    redis.set(FilterKeys.bitsKey(name, 0), "someone else's value");
    assertThatThrownBy(() -> RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 100, 0.01))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining("not made by this library");
    assertThat(redis.get(FilterKeys.bitsKey(name, 0))).isEqualTo("someone else's value");
    assertThat(redis.exists(FilterKeys.metaKey(name, 0))).isFalse();
  }

  @Test
  void scriptsAreReloadedAfterTheServerForgetsThem() {
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 1_000, 0.01);
    f.add("before");
    redis.scriptFlush();
    assertThat(f.mightContain("before")).isTrue();
    redis.scriptFlush();
    assertThat(f.addAll(keys("batch", 50))).isEqualTo(50);
    redis.scriptFlush();
    assertThat(f.mightContainAll(keys("batch", 50))).containsOnly(true);
    assertThat(f.count()).isEqualTo(51);
  }

  @Test
  void batchesAnswerAsSingleCallsAndCountChanges() {
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 30_000, 0.01);
    List<String> added = keys("b", 25_000); // more than one pipeline chunk
    int changed = f.addAll(added);
    assertThat(changed).isEqualTo(f.count()).isGreaterThan(25_000 - 250);
    List<String> probes = keys("b", 30_000);
    boolean[] batch = f.mightContainAll(probes);
    for (int i = 0; i < probes.size(); i += 7) {
      assertThat(batch[i]).as(probes.get(i)).isEqualTo(f.mightContain(probes.get(i)));
    }
    for (int i = 0; i < 25_000; i++) {
      assertThat(batch[i]).isTrue();
    }
    assertThat(f.addAll(added.subList(0, 100))).isZero();
  }

  @Test
  void shapesPastARedisStringAreRejectedWithTheFix() {
    assertThatThrownBy(() -> RedisBloomFilter.create(redis, name, Funnels.longFunnel(), 1_000_000_000L, 0.001))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2^32")
        .hasMessageContaining("use more partitions");
    assertThat(redis.exists(FilterKeys.metaKey(name, 0))).isFalse();
  }

  @Test
  void badArgumentsNameTheValue() {
    assertThatThrownBy(() -> RedisBloomFilter.create(redis, "a{b}", Funnels.longFunnel(), 10, 0.01))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a{b}");
    assertThatThrownBy(() -> RedisBloomFilter.create(redis, "", Funnels.longFunnel(), 10, 0.01))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was \"\"");
    assertThatThrownBy(() -> RedisBloomFilter.builder(redis, name, Funnels.longFunnel()).partitions(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
    assertThatThrownBy(() -> RedisBloomFilter.builder(redis, name, Funnels.longFunnel()).create())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("expectedInsertions");
  }

  @Test
  void partitionedFilterOnOneServerSpreadsKeysAndRefusesSingleArrayForms() {
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .expectedInsertions(40_000).fpp(0.01).partitions(4).create();
    f.addAll(keys("p", 40_000));
    assertThat(f.mightContainAll(keys("p", 40_000))).containsOnly(true);
    Map<Integer, Long> perPartition = LongStream.range(0, 4).boxed().collect(Collectors.toMap(Long::intValue,
        i -> Long.parseLong(redis.hget(FilterKeys.metaKey(name, i.intValue()), "count"))));
    // Binomial(40000, 1/4): mean 10000, sd 87; 10 000 +- 600 is beyond 6.8 sd.
    assertThat(perPartition.values()).allSatisfy(c -> assertThat(c).isBetween(9_400L, 10_600L));
    assertThat(f.count()).isEqualTo(perPartition.values().stream().mapToLong(Long::longValue).sum());
    // Read off the bits, so it follows each partition's load: between the rates at 9,400 and 10,600
    // keys per partition of capacity 10,000 (about 0.008 and 0.013).
    assertThat(f.estimatedFpp()).isBetween(0.006, 0.015);
    assertThatThrownBy(f::download).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> f.writeTo(new ByteArrayOutputStream())).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("has 4 partitions").hasMessageContaining("partitions(1)");
    RedisBloomFilter<CharSequence> attached = RedisBloomFilter.attach(redis, name, Funnels.stringFunnel());
    assertThat(attached.partitions()).isEqualTo(4);
    assertThat(attached.mightContain("p123")).isTrue();
    redis.del(FilterKeys.metaKey(name, 3));
    assertThatThrownBy(() -> RedisBloomFilter.attach(redis, name, Funnels.stringFunnel()))
        .isInstanceOf(RedisFilterMismatchException.class).hasMessageContaining(":p3}");
  }

  @Test
  void writeToRoundTripsAOnePartitionFilterAndRefusesAPartitionedOneSayingHowToGetTheDataOut() throws IOException {
    RedisBloomFilter<CharSequence> one = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 2_000, 0.01);
    one.addAll(keys("w", 1_500));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    one.writeTo(out);
    BloomFilter<CharSequence> read =
        BloomFilter.readFrom(new ByteArrayInputStream(out.toByteArray()), Funnels.stringFunnel());
    assertThat(read.bitSize()).isEqualTo(one.bitSize());
    assertThat(read.hashFunctions()).isEqualTo(one.hashFunctions());
    assertThat(read.count()).isEqualTo(one.count());
    assertThat(read.expectedInsertions()).isEqualTo(one.expectedInsertions());
    assertThat(read.fpp()).isEqualTo(one.fpp());
    List<String> probes = keys("w", 6_000);
    boolean[] remote = one.mightContainAll(probes);
    for (int i = 0; i < probes.size(); i++) {
      assertThat(read.mightContain(probes.get(i))).as(probes.get(i)).isEqualTo(remote[i]);
    }
    assertThat(fileBytes(read)).isEqualTo(out.toByteArray());

    RedisBloomFilter<CharSequence> split = RedisBloomFilter.<CharSequence>builder(redis, name + ":split",
        Funnels.stringFunnel()).expectedInsertions(2_000).partitions(3).create();
    split.add("w1");
    assertThat(split.partitions()).isEqualTo(3);
    ByteArrayOutputStream refused = new ByteArrayOutputStream();
    assertThatThrownBy(() -> split.writeTo(refused)).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining(name + ":split").hasMessageContaining("has 3 partitions")
        .hasMessageContaining("create a filter with partitions(1)");
    assertThat(refused.size()).isZero();
  }
}
