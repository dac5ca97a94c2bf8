package org.concurrentbloom.redis;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The writes of a {@link RedisNativeBloomFilter} that waits for replicas: {@code BF.ADD} or
 * {@code BF.MADD} and a {@code WAIT} pipelined on one connection (WAIT counts the writes of the
 * connection it is sent on), retried through a failover as ScriptCalls.writeRetrying retries a script:
 * after a failure a changing cluster gives, a plain command routed by the key (EXISTS) lets the client
 * wait within its own retry budget, then the pipeline is sent again. BF.ADD of an item already in the
 * filter changes nothing, so a retry applies an add at most once. Immutable; any thread, as the client.
 */
final class BfWrites {
  private final UnifiedJedis redis;
  private final byte[] key;
  private final String name;
  private final ScriptCalls.Replication replication;

  BfWrites(UnifiedJedis redis, byte[] key, String name, ScriptCalls.Replication replication) {
    this.redis = redis;
    this.key = key;
    this.name = name;
    this.replication = replication;
  }

  /**
   * {@code BF.COMMAND key args...} followed by WAIT; the command's reply once enough replicas have it.
   *
   * @throws RedisFilterException if Redis fails and the client gives up, or too few replicas
   *     acknowledged in time (the write is then on the master)
   */
  Object write(BfCommand command, byte[]... args) {
    String what = command.commandName() + " " + name;
    RedisCallException last = null;
    for (int attempt = 0; attempt < ScriptCalls.WRITE_ATTEMPTS; attempt++) {
      if (last != null) {
        try {
          redis.exists(key);
        } catch (JedisException gaveUp) {
          RedisFilterException e = ScriptCalls.translate(what, last);
          e.addSuppressed(JedisAdapter.fail("waiting for the cluster", gaveUp));
          throw e;
        }
      }
      Object reply;
      long acknowledged;
      try {
        Response<Object> written;
        Response<Long> waited;
        try (AbstractPipeline pipeline = redis.pipelined()) {
          written = pipeline.sendCommand(command.arguments(key, args));
          waited = pipeline.waitReplicas(key, replication.replicas(), replication.timeoutMillis());
          pipeline.sync();
        }
        reply = written.get();
        acknowledged = waited.get();
      } catch (JedisException | IllegalStateException e) {
        // IllegalStateException: a cluster pipeline that reached no node leaves its replies unset.
        RedisCallException failure = JedisAdapter.callException(e);
        if (!ScriptCalls.isTransient(failure)) {
          throw ScriptCalls.translate(what, failure);
        }
        last = failure;
        continue;
      }
      if (acknowledged < replication.replicas()) {
        throw new RedisFilterException(what + " is on the master but only " + acknowledged + " of "
            + replication.replicas() + " replicas acknowledged it within " + replication.timeoutMillis()
            + " ms: it may be lost if the master fails now");
      }
      return reply;
    }
    throw ScriptCalls.translate(what + " (sent " + ScriptCalls.WRITE_ATTEMPTS + " times while the cluster kept failing it)",
        last);
  }
}
