package org.concurrentbloom.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Runs {@link Script}s by SHA, one at a time or pipelined, loading a script into a node's cache when that
 * node answers NOSCRIPT (first use, after a restart, after a failover: the script cache is neither
 * persisted nor replicated) and then retrying once. Turns every client failure into a
 * {@link RedisFilterException}. Immutable; safe for any number of threads, as the client is.
 */
final class ScriptCalls {
  /** One script call on one partition: KEYS = {bits, meta}. */
  record Call(Script script, byte[] bitsKey, byte[] metaKey, List<byte[]> args) {}

  /** Wait, after writes, until this many replicas of each written partition have acknowledged them. */
  record Replication(int replicas, long timeoutMillis) {}

  private final UnifiedJedis redis;

  ScriptCalls(UnifiedJedis redis) {
    this.redis = redis;
  }

  /** Runs one call: one round trip (two plus a SCRIPT LOAD when the node lacks the script). */
  Object run(Call call, String what) {
    try {
      try {
        return evalsha(call);
      } catch (JedisNoScriptException e) {
        redis.scriptLoad(call.script().source, call.bitsKey());
        return evalsha(call);
      }
    } catch (JedisException e) {
      throw translate(what, e);
    }
  }

  private Object evalsha(Call call) {
    return redis.evalsha(call.script().sha, List.of(call.bitsKey(), call.metaKey()), call.args());
  }

  /**
   * Runs {@code script} with any keys (all in one hash slot; the first routes the call and the script
   * load): one round trip, two plus a SCRIPT LOAD when the node lacks the script.
   */
  Object eval(Script script, List<byte[]> keys, List<byte[]> args, String what) {
    try {
      try {
        return redis.evalsha(script.sha, keys, args);
      } catch (JedisNoScriptException e) {
        redis.scriptLoad(script.source, keys.get(0));
        return redis.evalsha(script.sha, keys, args);
      }
    } catch (JedisException e) {
      throw translate(what, e);
    }
  }

  /**
   * Runs every call in one pipeline (one round trip per node involved), followed, if
   * {@code replication} is not null, by a WAIT on each partition written. Returns the replies in order.
   * Calls that met NOSCRIPT are run again, once, after loading their script.
   *
   * @throws RedisFilterException for the first call that failed, or if a WAIT fell short; the calls
   *     before and after it in the pipeline may have taken effect
   */
  Object[] runAll(List<Call> calls, Replication replication, String what) {
    Object[] results = new Object[calls.size()];
    List<Integer> todo = new ArrayList<>(calls.size());
    for (int i = 0; i < calls.size(); i++) {
      todo.add(i);
    }
    try {
      for (int attempt = 0; ; attempt++) {
        List<Integer> missing = runOnce(calls, todo, results, replication, what);
        if (missing.isEmpty()) {
          return results;
        }
        if (attempt == 1) {
          throw new RedisFilterException(what + " failed: the server reported NOSCRIPT for "
              + calls.get(missing.get(0)).script() + " right after loading it");
        }
        Map<String, Call> toLoad = new LinkedHashMap<>();
        for (int i : missing) {
          Call c = calls.get(i);
          toLoad.putIfAbsent(c.script().name + '\n' + new String(c.bitsKey(), java.nio.charset.StandardCharsets.UTF_8), c);
        }
        for (Call c : toLoad.values()) {
          redis.scriptLoad(c.script().source, c.bitsKey());
        }
        todo = missing;
      }
    } catch (JedisException e) {
      throw translate(what, e);
    }
  }

  private List<Integer> runOnce(List<Call> calls, List<Integer> todo, Object[] results, Replication replication,
      String what) {
    List<Response<Object>> replies = new ArrayList<>(todo.size());
    List<Response<Long>> waits = new ArrayList<>();
    try (AbstractPipeline pipeline = redis.pipelined()) {
      Map<String, byte[]> written = new LinkedHashMap<>();
      for (int i : todo) {
        Call c = calls.get(i);
        replies.add(pipeline.evalsha(c.script().sha, List.of(c.bitsKey(), c.metaKey()), c.args()));
        written.putIfAbsent(new String(c.bitsKey(), java.nio.charset.StandardCharsets.UTF_8), c.bitsKey());
      }
      if (replication != null) {
        for (byte[] key : written.values()) {
          waits.add(pipeline.waitReplicas(key, replication.replicas(), replication.timeoutMillis()));
        }
      }
      pipeline.sync();
    }
    List<Integer> missing = new ArrayList<>();
    JedisException firstFailure = null;
    for (int j = 0; j < todo.size(); j++) {
      try {
        results[todo.get(j)] = reply(replies.get(j), what);
      } catch (JedisNoScriptException e) {
        missing.add(todo.get(j));
      } catch (JedisException e) {
        if (firstFailure == null) {
          firstFailure = e;
        }
      }
    }
    if (firstFailure != null) {
      throw translate(what, firstFailure);
    }
    for (Response<Long> wait : waits) {
      long acknowledged = reply(wait, what);
      if (acknowledged < replication.replicas()) {
        throw new RedisFilterException(what + " is on the master but only " + acknowledged + " of "
            + replication.replicas() + " replicas acknowledged it within " + replication.timeoutMillis()
            + " ms: it may be lost if the master fails now");
      }
    }
    return missing;
  }

  /**
   * A pipelined reply. A cluster pipeline that cannot reach a node (a master that just failed, before
   * the client has learnt the new topology) leaves that node's replies unset, and Jedis reports an
   * unset reply with an IllegalStateException: that is a failure to reach Redis like any other.
   */
  private static <R> R reply(Response<R> response, String what) {
    try {
      return response.get();
    } catch (IllegalStateException e) {
      throw new RedisFilterException(what + " failed: no reply from a Redis node (unreachable, or the cluster"
          + " is changing): " + e.getMessage(), e);
    }
  }

  /** The exception a filter throws for a client failure; our scripts' errors start with "BLOOM". */
  static RedisFilterException translate(String what, JedisException e) {
    String message = String.valueOf(e.getMessage());
    if (e instanceof JedisDataException) {
      if (message.startsWith("BLOOMSHAPE") || message.startsWith("BLOOMMISSING")
          || message.startsWith("BLOOMFOREIGN") || message.startsWith("BLOOMEXISTS")) {
        return new RedisFilterMismatchException(what + " refused by Redis, nothing written: " + message, e);
      }
    }
    return new RedisFilterException(what + " failed: " + e.getClass().getSimpleName() + ": " + message, e);
  }
}
