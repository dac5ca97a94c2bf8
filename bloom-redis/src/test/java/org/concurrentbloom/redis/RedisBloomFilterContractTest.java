package org.concurrentbloom.redis;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.MembershipFilterContractTest;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * The core's shared filter contract against a single-partition {@link RedisBloomFilter} on a real
 * redis-server. {@code read} loads the core file with {@link BloomFilter#readFrom} and uploads it, so the
 * round-trip test covers download (writeTo), the bit-order conversion both ways, and upload.
 */
class RedisBloomFilterContractTest extends MembershipFilterContractTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static RedisClient client;

  private static synchronized RedisClient client() {
    if (client == null) {
      client = SERVER.client();
    }
    return client;
  }

  @Override
  protected <T> MembershipFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return RedisBloomFilter.create(client(), "contract:" + NAMES.incrementAndGet(), funnel, expectedInsertions, fpp);
  }

  /** Every add and query is a round trip to the server: fewer rounds of the concurrent tests. */
  /** A Redis filter has no addLong or mightContainLong: a long key is boxed into its funnel's bytes. */
  @Override
  protected boolean hasLongPath() {
    return false;
  }

  @Override
  protected int concurrentRounds() {
    return 60;
  }

  /**
   * 10,000 items (about 96,000 bits, so bit offsets past 2^16 as at 50,000) in 20,000 round trips instead
   * of 100,000: 24 s of the 45 s this class took.
   */
  @Override
  protected long fullLoad() {
    return 10_000;
  }

  @Override
  protected <T> MembershipFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException {
    BloomFilter<T> local = BloomFilter.readFrom(in, funnel);
    return RedisBloomFilter.<T>builder(client(), "contract-read:" + NAMES.incrementAndGet(), funnel).upload(local);
  }
}
