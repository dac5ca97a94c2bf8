package org.concurrentbloom.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.RedisClient;

/**
 * Starts one redis-server (see {@link RedisNode}) before a test class and kills it after, with the
 * clients the class opened. Register as a static field with {@code @RegisterExtension}.
 */
final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {
  private final List<String> options;
  private final List<AutoCloseable> opened = new ArrayList<>();
  private Path dir;
  private RedisNode node;

  /** A server with these extra options (e.g. "--appendonly", "yes"). */
  RedisServerExtension(String... options) {
    this.options = List.of(options);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    RedisNode.requireServerBinary();
    dir = Files.createTempDirectory("bloom-redis-test");
    node = RedisNode.start(dir, options);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    opened.clear();
    if (node != null) {
      node.close();
    }
    TestFiles.deleteTree(dir);
  }

  RedisNode node() {
    return node;
  }

  /** A new client with a 5-second timeout, closed after the class. */
  RedisClient client() {
    return client(Duration.ofSeconds(5));
  }

  /** An adapter over a new client of this kind, with a 5-second timeout, closed after the class. */
  RedisClientAdapter adapter(Client kind) {
    return adapter(kind, Duration.ofSeconds(5));
  }

  /** An adapter over a new client of this kind, with this timeout, closed after the class. */
  RedisClientAdapter adapter(Client kind, Duration timeout) {
    return kind.open(node, timeout, opened);
  }

  /**
   * An adapter over a new client of this kind that logs in as the ACL user {@code user}, with a 5-second
   * timeout, closed after the class.
   */
  RedisClientAdapter adapter(Client kind, String user, String password) {
    return kind.open(node, Duration.ofSeconds(5), user, password, opened);
  }

  /** A new client with this socket timeout, closed after the class. */
  RedisClient client(Duration timeout) {
    RedisClient c = node.client(timeout);
    opened.add(c);
    return c;
  }
}
