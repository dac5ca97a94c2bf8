package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.concurrentbloom.ConcurrentRun;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * Several application instances (each its own client and connection pool, in its own threads) sharing
 * one filter on a real server. Threads start together ({@link ConcurrentRun}, which fails a run whose
 * threads hang) and meet at barriers; no sleeps.
 */
class SharedFilterTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  @Test
  void twoInstancesSeeEachOthersInsertsAsSoonAsTheyReturn() throws Exception {
    RedisClient clientA = SERVER.client();
    RedisClient clientB = SERVER.client();
    RedisBloomFilter<CharSequence> a = RedisBloomFilter.create(clientA, "shared:visibility", Funnels.stringFunnel(), 5_000, 0.001);
    RedisBloomFilter<CharSequence> b = RedisBloomFilter.attach(clientB, "shared:visibility", Funnels.stringFunnel());
    int rounds = 300;
    CyclicBarrier added = new CyclicBarrier(2);
    CyclicBarrier checked = new CyclicBarrier(2);
    ConcurrentRun.Task instanceA = () -> {
      for (int r = 0; r < rounds; r++) {
        a.add("from-a-" + r);
        added.await(); // B's add of round r has returned too
        assertThat(a.mightContain("from-b-" + r)).as("A sees B's round %d", r).isTrue();
        checked.await();
      }
    };
    ConcurrentRun.Task instanceB = () -> {
      for (int r = 0; r < rounds; r++) {
        b.add("from-b-" + r);
        added.await();
        assertThat(b.mightContain("from-a-" + r)).as("B sees A's round %d", r).isTrue();
        checked.await();
      }
    };
    ConcurrentRun.together(List.of(instanceA, instanceB));
    assertThat(a.count()).isEqualTo(b.count()).isEqualTo(2L * rounds);
  }

  /**
   * Four threads on two clients: each adds its own keys and checks every one at once through the other
   * client (a false negative would be a lost insert), and all of them race to add the same shared keys.
   * Redis runs each add script alone, so for every shared key at most one racing add returns true, and
   * the count equals the number of adds that returned true.
   */
  @Test
  void concurrentStressHasZeroFalseNegativesAndExactCounts() throws Exception {
    RedisClient[] clients = {SERVER.client(), SERVER.client()};
    RedisBloomFilter<CharSequence> created =
        RedisBloomFilter.create(clients[0], "shared:stress", Funnels.stringFunnel(), 40_000, 0.01);
    int threads = 4;
    int ownKeys = 2_000;
    int sharedKeys = 2_000;
    AtomicIntegerArray winners = new AtomicIntegerArray(sharedKeys);
    int[] trues = new int[threads];
    int[] falseNegatives = new int[threads];
    List<ConcurrentRun.Task> tasks = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      tasks.add(() -> {
        RedisBloomFilter<CharSequence> mine = RedisBloomFilter.attach(clients[id % 2], "shared:stress", Funnels.stringFunnel());
        RedisBloomFilter<CharSequence> other = RedisBloomFilter.attach(clients[(id + 1) % 2], "shared:stress", Funnels.stringFunnel());
        for (int i = 0; i < ownKeys; i++) {
          String own = "t" + id + "-" + i;
          if (mine.add(own)) {
            trues[id]++;
          }
          if (!other.mightContain(own)) {
            falseNegatives[id]++;
          }
          int s = (i + id * 500) % sharedKeys; // each thread walks the shared keys from its own offset
          if (mine.add("shared-" + s)) {
            trues[id]++;
            winners.incrementAndGet(s);
          }
        }
      });
    }
    ConcurrentRun.together(tasks);

    List<String> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      for (int i = 0; i < ownKeys; i++) {
        all.add("t" + t + "-" + i);
      }
    }
    for (int s = 0; s < sharedKeys; s++) {
      all.add("shared-" + s);
    }
    int missing = 0;
    for (boolean present : created.mightContainAll(all)) {
      missing += present ? 0 : 1;
    }
    int totalFalseNegatives = missing;
    for (int t = 0; t < threads; t++) {
      totalFalseNegatives += falseNegatives[t];
    }
    System.out.printf("RedisBloomFilter stress: %d threads, %d adds, %d false negatives, count %d%n",
        threads, threads * 2 * ownKeys, totalFalseNegatives, created.count());
    assertThat(totalFalseNegatives).isZero();
    for (int s = 0; s < sharedKeys; s++) {
      assertThat(winners.get(s)).as("adds of shared-%d that returned true", s).isLessThanOrEqualTo(1);
    }
    long sumOfTrues = 0;
    for (int t : trues) {
      sumOfTrues += t;
    }
    assertThat(created.count()).isEqualTo(sumOfTrues);
  }
}
