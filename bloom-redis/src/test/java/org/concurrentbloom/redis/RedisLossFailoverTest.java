package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.concurrentbloom.ConcurrentRun;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * Issue 22, failover: on a 3-master, 3-replica cluster, the master serving a filter's slot is killed
 * (SIGKILL) while four threads add, and its replica is promoted. Every key whose add returned must
 * then answer true or throw, never false; single adds with WAIT should ride through the failover on
 * the client's retries instead of failing in bulk with the clients' internal messages.
 *
 * <p>One cluster for the class. Each test kills one master, chosen among those that have a replica in
 * sync, and restarts it once its replica is promoted, so that it rejoins as the new master's replica
 * (as a supervisor would bring it back) and is there for the tests after.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("jdk-independent") // what survives a failover is Redis's and the protocol's: JDK-free (.ci/run)
class RedisLossFailoverTest {
  @RegisterExtension
  static final RedisClusterExtension CLUSTER = new RedisClusterExtension();

  private static final int THREADS = 4;
  /** How long (a) goes on adding after the kill: through the promotion and the old master's return. */
  private static final Duration ADDING_AFTER_KILL = Duration.ofSeconds(8);
  /** Adds that must have returned in (a) before the master is killed: the filter works, the adders run. */
  private static final int WARM_UP = 200;
  /** How long (b) adds while the replica is paused (SIGSTOP), as in the issue's reproduction. */
  private static final Duration REPLICA_PAUSE = Duration.ofMillis(1_500);
  /** Megabytes another application writes to the master while its replica is paused (test b). */
  private static final int FILLER_MB = 24;
  /**
   * The least time in which a client that waits for the cluster gives an add up while its slot has no
   * master: Jedis's cluster client backs off between its 5 attempts within its 10 s budget (its give-ups
   * took 0.9 to 2.6 s here), Lettuce waits for its node within its 2 s command timeout. A quarter of the
   * shortest seen; a slower machine only makes each give-up take longer. A client that gives up without
   * waiting fails an add every millisecond or so.
   */
  private static final Duration SHORTEST_GIVE_UP = Duration.ofMillis(250);
  /** What ScriptCalls says when fewer replicas than asked acknowledged an add in time. */
  private static final String SHORTFALL_TEXT = "replicas acknowledged it within";
  /** Text of the clients' own internals, which means nothing to a caller of the filter. */
  private static final List<String> CLIENT_INTERNAL_TEXT =
      List.of("Please close pipeline or multi block before calling this method");

  /**
   * Where a test's filter lives.
   *
   * @param name the filter's name
   * @param slot the hash slot of its keys
   * @param master the master serving that slot
   * @param replica that master's replica, in sync
   */
  private record Placement(String name, int slot, RedisNode master, RedisNode replica) {}

  /**
   * A filter name {@code prefix-i} whose key ({@code keyOf(name)}) lives on a master that has a replica
   * in sync; polls until some master has one (a node restarted by an earlier test may still be syncing).
   */
  private static Placement place(String prefix, Function<String, String> keyOf) throws InterruptedException {
    AtomicReference<Placement> found = new AtomicReference<>();
    RedisClusterExtension.awaitUntil("a master with a replica in sync, for a filter named " + prefix + "-i", () -> {
      for (RedisNode master : CLUSTER.nodes()) {
        RedisNode replica = CLUSTER.replicaOf(master);
        if (replica == null) {
          continue;
        }
        // Each master serves a third of the slots: a few names find one of its slots.
        for (int i = 0; i < 200; i++) {
          String name = prefix + "-" + i;
          int slot = CLUSTER.slotOf(keyOf.apply(name));
          if (CLUSTER.masterOfSlot(slot) == master) {
            found.set(new Placement(name, slot, master, replica));
            return true;
          }
        }
      }
      return false;
    });
    return found.get();
  }

  /**
   * (a) A standard filter with waitForReplicas(1, 300 ms): four threads add distinct keys; once 200
   * adds have returned, the master of the filter's slot is killed; the threads go on adding for 8 s after
   * the kill, through the promotion of its replica and its own return as a replica. Counts the adds that
   * threw and their distinct messages (digits masked). None may carry the clients' internal text or be a
   * MOVED redirect the client did not follow; the throws other than replica shortfalls (right while the
   * promoted master has no replica in sync) are bounded by what the outage can explain (see the checks);
   * and every key whose add returned must answer true, to a new instance on a new client.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  @Order(1)
  void singleAddsWithWaitRideThroughAFailoverAndNoneIsLost(Client client) throws Exception {
    Placement at = place("loss:failover:standard:" + client, name -> FilterKeys.bitsKey(name, 0));
    RedisClientAdapter redis = CLUSTER.adapter(client, Duration.ofSeconds(2));
    RedisBloomFilter<CharSequence> f = RedisBloomFilter.<CharSequence>builder(redis, at.name(), Funnels.stringFunnel())
        .expectedInsertions(1_000_000).fpp(0.01).waitForReplicas(1, Duration.ofMillis(300)).create();

    List<List<String>> acknowledged = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      acknowledged.add(new ArrayList<>());
    }
    LongAdder attempts = new LongAdder();
    LongAdder returned = new LongAdder();
    LongAdder threw = new LongAdder();
    Map<String, LongAdder> messages = new ConcurrentHashMap<>();
    // When each add that threw other than for a replica shortfall began (System.nanoTime()).
    Queue<Long> otherFailureStarts = new ConcurrentLinkedQueue<>();
    CountDownLatch warmedUp = new CountDownLatch(WARM_UP);
    // Until the kill, the adders' deadline is far off; after it, 8 s on.
    AtomicLong stopAt = new AtomicLong(System.nanoTime() + TimeUnit.MINUTES.toNanos(3));
    ConcurrentRun run = new ConcurrentRun(Duration.ofMinutes(4));
    run.tasks(THREADS, t -> {
      List<String> mine = acknowledged.get(t); // this thread's own list, read after the join
      for (int i = 0; System.nanoTime() - stopAt.get() < 0 && !run.stopping(); i++) {
        String key = "t" + t + "-" + i;
        attempts.increment();
        long began = System.nanoTime();
        try {
          f.add(key);
          mine.add(key);
          returned.increment();
          warmedUp.countDown();
        } catch (RuntimeException e) {
          threw.increment();
          messages.computeIfAbsent(shape(e), m -> new LongAdder()).increment();
          if (!String.valueOf(e.getMessage()).contains(SHORTFALL_TEXT)) {
            otherFailureStarts.add(began);
          }
        }
      }
    });
    long startedAt;
    long killedAt;
    long promotedAt;
    long attemptsAtKill;
    long threwAtKill;
    long returnedAtKill;
    long returnedAtPromotion;
    long attemptsAtPromotion;
    try (run) {
      run.start();
      startedAt = System.nanoTime();
      assertThat(warmedUp.await(60, TimeUnit.SECONDS)).as("infrastructure: %d adds returned before the kill", WARM_UP)
          .isTrue();
      attemptsAtKill = attempts.sum();
      threwAtKill = threw.sum();
      returnedAtKill = returned.sum();
      at.master().kill();
      killedAt = System.nanoTime();
      stopAt.set(killedAt + ADDING_AFTER_KILL.toNanos());
      RedisNode promoted = CLUSTER.awaitPromotion(at.master(), at.slot());
      promotedAt = System.nanoTime();
      returnedAtPromotion = returned.sum();
      attemptsAtPromotion = attempts.sum();
      assertThat(promoted).as("infrastructure: the killed master's replica took over").isSameAs(at.replica());
      at.master().restart(); // comes back as the promoted master's replica, which WAIT(1) needs
      run.finish();
    }
    List<String> keys = new ArrayList<>();
    acknowledged.forEach(keys::addAll);

    // Does the adding instance itself reach the promoted master now? One batch query tells.
    String addingInstance;
    try {
      f.mightContainAll(keys.subList(0, 10));
      addingInstance = "reaches the promoted master";
    } catch (RedisFilterException e) {
      addingInstance = "still fails: " + e.getMessage();
    }
    // The check of what survived is made by a new instance, on a new client, so that it does not depend
    // on the adding client's view of the topology.
    RedisBloomFilter<CharSequence> reader =
        RedisBloomFilter.attach(CLUSTER.adapter(client, Duration.ofSeconds(2)), at.name(), Funnels.stringFunnel());
    awaitReachable(() -> reader.mightContainAll(keys.subList(0, 10)));
    Answers answers = Answers.askInBatches(reader, keys);

    long total = attempts.sum();
    long failed = threw.sum();
    long shortfalls = count(messages, SHORTFALL_TEXT);
    long redirects = count(messages, "MOVED");
    long afterKill = total - attemptsAtKill;
    long outageMillis = TimeUnit.NANOSECONDS.toMillis(promotedAt - killedAt);
    // Of adds begun before the promotion was seen: in flight at the kill, or begun after it.
    long otherInOutage = otherFailureStarts.stream().filter(began -> began - promotedAt < 0).count();
    long otherAfter = otherFailureStarts.size() - otherInOutage;
    long inOutageBound = THREADS * (1 + outageMillis / SHORTEST_GIVE_UP.toMillis());
    // Adds that met the dead master: those not done at the kill, and those begun before the promotion was seen.
    long exposed = attemptsAtPromotion - returnedAtKill - threwAtKill;
    String report = String.format(Locale.ROOT, "%s: %,d adds, %,d threw (%.2f%%; %,d of them replica shortfalls,"
            + " %,d MOVED), %,d returned. Before the kill:"
            + " %,d adds in %,d ms, %,d threw; from the kill on: %,d adds started (and up to 4 in flight), %,d threw,"
            + " %,d returned (%,d of them before the"
            + " promotion, %,d ms after the kill). Threw other than for a shortfall: %,d of the %,d adds in flight at"
            + " the kill or begun before the promotion (at most %,d: %d threads, each its add at the kill and one per"
            + " %,d ms of the outage), %,d of those begun after it (at most %d, one per thread)."
            + " The adding instance afterwards %s. A new instance's queries of the"
            + " returned adds' %s. Distinct messages (digits masked), most frequent first:%n    %s",
        client, total, failed, 100.0 * failed / total, shortfalls, redirects, keys.size(), attemptsAtKill,
        TimeUnit.NANOSECONDS.toMillis(killedAt - startedAt), threwAtKill, afterKill, failed - threwAtKill,
        returned.sum() - returnedAtKill,
        returnedAtPromotion - returnedAtKill, outageMillis, otherInOutage, exposed, inOutageBound, THREADS,
        SHORTEST_GIVE_UP.toMillis(), otherAfter, THREADS, addingInstance,
        answers, String.join("\n    ", byFrequency(messages)));
    System.out.println("RedisLossFailoverTest (a) " + report);

    Checks soft = new Checks();
    for (String message : messages.keySet()) {
      soft.check(() -> assertThat(message).as("exception type: " + report).startsWith("RedisFilter"));
      for (String internal : CLIENT_INTERNAL_TEXT) {
        soft.check(() -> assertThat(message).as("a client's internal text in a filter's exception: " + report)
            .doesNotContain(internal));
      }
    }
    // A shortfall while the promoted master has no replica in sync yet (until the old master is back and
    // has resynced) is the right answer, not a failure of the failover: the add is on the master only.
    // Any other throw must be explained by the outage, whose length, not the number of adds (which runs
    // from 20 to 260 after the kill, by timing alone), decides how many there can be:
    // - An add in flight at the kill may throw: the connection died under it, and if the client's retries
    //   run out before the replica is promoted, it cannot know whether the add was applied (no reply). So
    //   may each later add begun before the promotion, but only after its client waited for the cluster,
    //   which takes at least SHORTEST_GIVE_UP: so each thread throws at most once, plus once per
    //   SHORTEST_GIVE_UP of the outage (4 x 11 for a 2.5 s outage, where 0 to 3 in all are seen). A
    //   client that does not wait (no retry) fails every add it starts, hundreds per second.
    soft.check(() -> assertThat(otherInOutage).as("adds in flight at the kill or begun before the promotion that"
        + " threw other than for a replica shortfall: " + report).isLessThanOrEqualTo(inOutageBound));
    // - Once the cluster has promoted the replica, an add throws only if its client has not learnt the new
    //   topology yet and does not within its retries; that thread's next add then finds it (Jedis renews
    //   its slot map on a failure, Lettuce refreshes on reconnects and every second): at most one per
    //   thread. A client stuck on the old topology fails every add of the seconds that remain.
    soft.check(() -> assertThat(otherAfter).as("adds begun after the promotion that threw other than for a replica"
        + " shortfall: " + report).isLessThanOrEqualTo(THREADS));
    soft.check(() -> assertThat(redirects).as("adds that threw for a MOVED redirect, which the client must follow: " + report)
        .isZero());
    soft.check(() -> assertThat(answers.falseAnswers()).as("returned adds answered false: " + report).isZero());
    soft.assertAll();
  }

  /**
   * (b) The issue's reproduction for the expiring filter (window 60 s): the replica of the filter's master
   * is paused (SIGSTOP) while four threads add for 1.5 s, so the master acknowledges adds the replica has
   * not received (another application's writes to the same master make that backlog larger than the
   * socket buffers: {@link #fillReplicationStream}); then the master is killed and the replica resumed
   * (SIGCONT) and promoted. Every key
   * whose add returned, before or during the pause, must answer true or throw. Without
   * {@code waitForReplicas} on the expiring builder (it had none before issue 22) some answered false;
   * with it the adds during the pause throw a shortfall instead.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  @Order(2)
  void expiringAddsAcknowledgedWhileTheReplicaLaggedAreNotLostInAFailover(Client client) throws Exception {
    Placement at = place("loss:failover:expiring:" + client, ExpiringKeys::meta);
    RedisClientAdapter redis = CLUSTER.adapter(client, Duration.ofSeconds(2));
    RedisExpiringBloomFilter.Builder<CharSequence> builder = RedisExpiringBloomFilter.<CharSequence>builder(redis,
        at.name(), Funnels.stringFunnel()).window(Duration.ofSeconds(60)).expectedInsertionsPerWindow(100_000);
    // Issue 22: without this line (the builder had no such option) 569 to 3,167 of the adds acknowledged
    // during the pause answered false after the failover; with it they throw a shortfall instead.
    builder.waitForReplicas(1, Duration.ofMillis(300));
    RedisExpiringBloomFilter<CharSequence> f = builder.build();

    List<String> beforePause = TestKeys.keys("before-", 100);
    beforePause.forEach(f::add);
    CLUSTER.awaitReplicasCaughtUp(at.master()); // the metadata and these adds are on the replica

    List<List<String>> acknowledged = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      acknowledged.add(new ArrayList<>());
    }
    LongAdder threw = new LongAdder();
    at.replica().signal("STOP");
    try {
      fillReplicationStream(at);
      new ConcurrentRun().tasks(THREADS, t -> {
        List<String> mine = acknowledged.get(t); // this thread's own list, read after the join
        long end = System.nanoTime() + REPLICA_PAUSE.toNanos();
        for (int i = 0; System.nanoTime() - end < 0; i++) {
          String key = "t" + t + "-" + i;
          try {
            f.add(key);
            mine.add(key);
          } catch (RedisFilterException e) {
            threw.increment();
          }
        }
      }).run();
      at.master().kill();
    } finally {
      at.replica().signal("CONT");
    }
    long killedAt = System.nanoTime();
    RedisNode promoted = CLUSTER.awaitPromotion(at.master(), at.slot());
    long promotedAt = System.nanoTime();
    at.master().restart(); // rejoins as the promoted node's replica, for the tests after this one
    assertThat(promoted).as("infrastructure: the paused replica took over").isSameAs(at.replica());

    List<String> duringPause = new ArrayList<>();
    acknowledged.forEach(duringPause::addAll);
    awaitReachable(() -> f.mightContain(beforePause.get(0)));
    Answers before = Answers.askConcurrently(beforePause, f::mightContain, THREADS);
    Answers during = Answers.askConcurrently(duringPause, f::mightContain, THREADS);
    String report = String.format(Locale.ROOT, "%s: adds during the pause: %,d returned, %,d threw; promotion %,d ms"
            + " after the kill; queries of the adds before the pause: %s; of those during it: %s", client,
        duringPause.size(), threw.sum(), TimeUnit.NANOSECONDS.toMillis(promotedAt - killedAt), before, during);
    System.out.println("RedisLossFailoverTest (b) " + report);

    Checks soft = new Checks();
    soft.check(() -> assertThat(before.falseAnswers()).as("adds before the pause answered false: " + report).isZero());
    soft.check(() -> assertThat(during.falseAnswers()).as("adds during the pause answered false: " + report).isZero());
    soft.assertAll();
  }

  /**
   * Another application writes {@value #FILLER_MB} MB to the filter's master (keys in the filter's hash
   * tag, so on that master) while the replica is paused. The master acknowledges writes before it has
   * sent them, and keeps what the replica has not taken in its output buffer; on loopback the kernel's
   * socket buffers alone hold several MB, more than the filter's adds of 1.5 s produce here, so without
   * this the replica would receive every add after SIGCONT and nothing would be lost. With it, the
   * filter's adds queue behind the filler in the master's memory, as they do behind a lagging replica's
   * backlog in production, and die with the master.
   */
  private static void fillReplicationStream(Placement at) {
    String value = "f".repeat(1 << 20);
    try (Jedis master = at.master().admin(); Pipeline pipeline = master.pipelined()) {
      for (int i = 0; i < FILLER_MB; i++) {
        pipeline.set("filler:{" + at.name() + ":exp}:" + i, value);
      }
      pipeline.sync();
    }
  }

  /**
   * Polls {@code call} until it runs without a RedisFilterException: the client learns the new topology
   * from its failures (Jedis) or its periodic refresh (Lettuce).
   */
  private static void awaitReachable(Runnable call) throws InterruptedException {
    AtomicReference<RedisFilterException> last = new AtomicReference<>();
    try {
      RedisClusterExtension.awaitUntil("the client reaches the promoted master", () -> {
        try {
          call.run();
          return true;
        } catch (RedisFilterException e) {
          last.set(e);
          return false;
        }
      });
    } catch (AssertionError e) {
      e.addSuppressed(last.get());
      throw e;
    }
  }

  /** The exception's type and message with digits masked, so that messages differing in numbers group. */
  private static String shape(RuntimeException e) {
    String text = e.getClass().getSimpleName() + ": " + e.getMessage();
    text = text.replaceAll("[0-9]+", "#");
    return text.length() > 400 ? text.substring(0, 400) + "..." : text;
  }

  /** How many of the exceptions had a message containing {@code text}. */
  private static long count(Map<String, LongAdder> messages, String text) {
    long n = 0;
    for (Map.Entry<String, LongAdder> e : messages.entrySet()) {
      if (e.getKey().contains(text)) {
        n += e.getValue().sum();
      }
    }
    return n;
  }

  private static List<String> byFrequency(Map<String, LongAdder> messages) {
    List<String> lines = new ArrayList<>();
    messages.entrySet().stream()
        .sorted(Comparator.comparingLong((Map.Entry<String, LongAdder> e) -> e.getValue().sum()).reversed())
        .forEach(e -> lines.add(String.format(Locale.ROOT, "%,d x %s", e.getValue().sum(), e.getKey())));
    return lines;
  }
}
