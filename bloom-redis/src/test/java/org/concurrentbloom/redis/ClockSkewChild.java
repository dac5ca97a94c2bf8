package org.concurrentbloom.redis;

import java.time.Duration;
import org.concurrentbloom.Funnels;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * An application instance in its own JVM, which RedisClockSkewTest starts under faketime so that its
 * clock is minutes off: it opens the expiring filter, adds {@code count} keys "PREFIX-i", then asks for
 * every key of each CHECK prefix. Prints "clock MS", "added N" and "found PREFIX F OF N" lines.
 * Arguments: port, filter name, own prefix, count, then the prefixes to check.
 */
final class ClockSkewChild {
  private ClockSkewChild() {}

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    String name = args[1];
    String prefix = args[2];
    int count = Integer.parseInt(args[3]);
    System.out.println("clock " + System.currentTimeMillis());
    try (RedisClient redis = RedisClient.builder().hostAndPort(new HostAndPort("127.0.0.1", port))
        .clientConfig(DefaultJedisClientConfig.builder().timeoutMillis(5_000).build()).build()) {
      RedisExpiringBloomFilter<CharSequence> f = RedisClockSkewTest.builder(redis, name).build();
      for (int i = 0; i < count; i++) {
        f.add(prefix + "-" + i);
      }
      System.out.println("added " + count);
      for (int a = 4; a < args.length; a++) {
        int found = 0;
        for (int i = 0; i < count; i++) {
          found += f.mightContain(args[a] + "-" + i) ? 1 : 0;
        }
        System.out.println("found " + args[a] + " " + found + " OF " + count);
      }
    }
    System.out.flush();
  }

  static Duration window() {
    return Duration.ofSeconds(60);
  }
}
