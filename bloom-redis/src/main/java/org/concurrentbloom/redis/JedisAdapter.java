package org.concurrentbloom.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.SetParams;

/**
 * {@link RedisClientAdapter} over a Jedis {@link UnifiedJedis} (one server or a cluster). Any thread:
 * a UnifiedJedis takes a pooled connection for each command or pipeline.
 */
final class JedisAdapter extends RedisClientAdapter {
  private final UnifiedJedis redis;

  JedisAdapter(UnifiedJedis redis) {
    this.redis = redis;
  }

  @Override
  Object evalsha(byte[] sha, List<byte[]> keys, List<byte[]> args) {
    return call(() -> redis.evalsha(sha, keys, args));
  }

  @Override
  void scriptLoad(byte[] source, byte[] routingKey) {
    call(() -> redis.scriptLoad(source, routingKey));
  }

  @Override
  List<Object> pipeline(List<Command> commands) {
    List<Response<?>> replies = new ArrayList<>(commands.size());
    call(() -> {
      // A cluster pipeline keeps one connection per node, so a WAIT routed by key follows that node's
      // writes on the same connection.
      try (AbstractPipeline pipeline = redis.pipelined()) {
        for (Command c : commands) {
          if (c instanceof EvalSha e) {
            replies.add(pipeline.evalsha(e.sha(), e.keys(), e.args()));
          } else {
            Wait w = (Wait) c;
            replies.add(pipeline.waitReplicas(w.routingKey(), w.replicas(), w.timeoutMillis()));
          }
        }
        pipeline.sync();
      }
      return null;
    });
    List<Object> results = new ArrayList<>(replies.size());
    for (Response<?> r : replies) {
      try {
        results.add(r.get());
      } catch (JedisException e) {
        results.add(translate(e));
      } catch (IllegalStateException e) {
        // A cluster pipeline that cannot reach a node (a master that just failed, before the client
        // learnt the new topology) leaves that node's replies unset: no reply, like a lost connection.
        // Jedis's text for it ("close pipeline or multi block") is about its API, not about Redis: the
        // cause keeps it, the message says what happened.
        results.add(RedisCallException.described(RedisCallException.Kind.FAILURE,
            "no reply from the Redis node (unreachable, or the cluster is changing)", e));
      }
    }
    return results;
  }

  @Override
  void awaitRoute(byte[] key) {
    call(() -> redis.exists(key));
  }

  @Override
  String type(byte[] key) {
    return call(() -> redis.type(key));
  }

  @Override
  Map<String, String> hgetAll(byte[] key) {
    return call(() -> redis.hgetAll(RedisCodec.text(key)));
  }

  @Override
  List<byte[]> hmget(byte[] key, byte[]... fields) {
    return call(() -> redis.hmget(key, fields));
  }

  @Override
  byte[] hget(byte[] key, byte[] field) {
    return call(() -> redis.hget(key, field));
  }

  @Override
  boolean exists(byte[] key) {
    return call(() -> redis.exists(key));
  }

  @Override
  long hincrBy(byte[] key, byte[] field, long by) {
    return call(() -> redis.hincrBy(key, field, by));
  }

  @Override
  long del(byte[]... keys) {
    return call(() -> redis.del(keys));
  }

  @Override
  void set(byte[] key, byte[] value) {
    call(() -> redis.set(key, value));
  }

  @Override
  byte[] get(byte[] key) {
    return call(() -> redis.get(key));
  }

  @Override
  boolean setIfAbsent(byte[] key, byte[] value, long pxMillis) {
    return "OK".equals(call(() -> redis.set(key, value, SetParams.setParams().nx().px(pxMillis))));
  }

  private static <T> T call(Supplier<T> command) {
    try {
      return command.get();
    } catch (JedisException e) {
      throw translate(e);
    }
  }

  /** For the BF.* filter, which calls Jedis directly: the filters' exception for a Jedis failure. */
  static RedisFilterException fail(String what, JedisException e) {
    return ScriptCalls.translate(what, translate(e));
  }

  /**
   * A failure of a Jedis call or pipeline as a RedisCallException: a JedisException by its kind, and the
   * IllegalStateException of a pipeline reply that no node filled as "no reply".
   */
  static RedisCallException callException(RuntimeException e) {
    if (e instanceof JedisException je) {
      return translate(je);
    }
    return RedisCallException.described(RedisCallException.Kind.FAILURE,
        "no reply from the Redis node (unreachable, or the cluster is changing)", e);
  }

  private static RedisCallException translate(JedisException e) {
    RedisCallException.Kind kind = e instanceof JedisNoScriptException ? RedisCallException.Kind.NO_SCRIPT
        : e instanceof JedisDataException ? RedisCallException.Kind.ERROR_REPLY : RedisCallException.Kind.FAILURE;
    return new RedisCallException(kind, String.valueOf(e.getMessage()), e);
  }

  @Override
  public String toString() {
    return "Jedis " + redis.getClass().getSimpleName();
  }
}
