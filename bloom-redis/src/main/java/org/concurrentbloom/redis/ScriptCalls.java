package org.concurrentbloom.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs {@link Script}s by SHA, one at a time or pipelined, loading a script into a node's cache when that
 * node answers NOSCRIPT (first use, after a restart, after a failover: the script cache is neither
 * persisted nor replicated) and then retrying once. Turns every client failure into a
 * {@link RedisFilterException}. Immutable; safe for any number of threads, as the client is.
 */
final class ScriptCalls {
  /** One script call on one partition: KEYS = {bits, meta}. */
  record Call(Script script, byte[] bitsKey, byte[] metaKey, List<byte[]> args) {}

  /**
   * Wait, after writes, until this many replicas of each written partition have acknowledged them.
   * Redis acknowledges a write before replicating it; a WAIT in the same pipeline, on the connection
   * that wrote, makes an acknowledged add one that is on that many replicas and survives a failover.
   */
  record Replication(int replicas, long timeoutMillis) {}

  private final RedisClientAdapter redis;

  ScriptCalls(RedisClientAdapter redis) {
    this.redis = redis;
  }

  /** Runs one call: one round trip (two plus a SCRIPT LOAD when the node lacks the script). */
  Object run(Call call, String what) {
    return eval(call.script(), List.of(call.bitsKey(), call.metaKey()), call.args(), what);
  }

  /**
   * Runs {@code script} with any keys (all in one hash slot; the first routes the call and the script
   * load): one round trip, two plus a SCRIPT LOAD when the node lacks the script.
   */
  Object eval(Script script, List<byte[]> keys, List<byte[]> args, String what) {
    try {
      try {
        return redis.evalsha(script.sha, keys, args);
      } catch (RedisCallException e) {
        if (e.kind != RedisCallException.Kind.NO_SCRIPT) {
          throw e;
        }
        redis.scriptLoad(script.source, keys.get(0));
        return redis.evalsha(script.sha, keys, args);
      }
    } catch (RedisCallException e) {
      throw translate(what, e);
    }
  }

  /**
   * Runs every call in one pipeline (one round trip per node involved), followed, if
   * {@code replication} is not null, by a WAIT on each partition written. Returns the replies in order.
   * Calls that met NOSCRIPT are run again, once, after loading their script, with their own WAIT.
   *
   * <p>A WAIT that falls short is reported only after every call has run, and only for partitions a
   * call was applied to: a node whose script cache was empty ran nothing in the first round, so its
   * WAIT said nothing about the calls, which the second round still has to run.
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
    RedisFilterException shortfall = null;
    try {
      for (int attempt = 0; ; attempt++) {
        Round round = runOnce(calls, todo, results, replication, what);
        if (shortfall == null) {
          shortfall = round.shortfall;
        }
        if (round.missing.isEmpty()) {
          if (shortfall != null) {
            throw shortfall;
          }
          return results;
        }
        if (attempt == 1) {
          throw new RedisFilterException(what + " failed: the server reported NOSCRIPT for "
              + calls.get(round.missing.get(0)).script() + " right after loading it");
        }
        Map<String, Call> toLoad = new LinkedHashMap<>();
        for (int i : round.missing) {
          Call c = calls.get(i);
          toLoad.putIfAbsent(c.script().name + '\n' + RedisCodec.text(c.bitsKey()), c);
        }
        for (Call c : toLoad.values()) {
          redis.scriptLoad(c.script().source, c.bitsKey());
        }
        todo = round.missing;
      }
    } catch (RedisCallException e) {
      throw translate(what, e);
    }
  }

  /** What one pipeline left to do: the calls that met NOSCRIPT, and a WAIT that fell short, if any. */
  private record Round(List<Integer> missing, RedisFilterException shortfall) {}

  private Round runOnce(List<Call> calls, List<Integer> todo, Object[] results, Replication replication,
      String what) {
    List<RedisClientAdapter.Command> commands = new ArrayList<>(todo.size() + 1);
    Map<String, byte[]> written = new LinkedHashMap<>();
    for (int i : todo) {
      Call c = calls.get(i);
      commands.add(new RedisClientAdapter.EvalSha(c.script().sha, List.of(c.bitsKey(), c.metaKey()), c.args()));
      written.putIfAbsent(RedisCodec.text(c.bitsKey()), c.bitsKey());
    }
    List<String> waitedKeys = new ArrayList<>();
    if (replication != null) {
      for (Map.Entry<String, byte[]> key : written.entrySet()) {
        commands.add(new RedisClientAdapter.Wait(key.getValue(), replication.replicas(), replication.timeoutMillis()));
        waitedKeys.add(key.getKey());
      }
    }
    List<Object> replies = redis.pipeline(commands);
    List<Integer> missing = new ArrayList<>();
    Map<String, Boolean> applied = new LinkedHashMap<>();
    RedisCallException firstFailure = null;
    for (int j = 0; j < todo.size(); j++) {
      Object reply = replies.get(j);
      Call c = calls.get(todo.get(j));
      if (reply instanceof RedisCallException e) {
        if (e.kind == RedisCallException.Kind.NO_SCRIPT) {
          missing.add(todo.get(j));
        } else if (firstFailure == null) {
          firstFailure = e;
        }
      } else {
        results[todo.get(j)] = reply;
        applied.put(RedisCodec.text(c.bitsKey()), true);
      }
    }
    if (firstFailure != null) {
      throw translate(what, firstFailure);
    }
    RedisFilterException shortfall = null;
    for (int w = 0; w < waitedKeys.size(); w++) {
      Object reply = replies.get(todo.size() + w);
      if (reply instanceof RedisCallException e) {
        throw translate(what, e);
      }
      long acknowledged = (Long) reply;
      if (acknowledged < replication.replicas() && applied.containsKey(waitedKeys.get(w)) && shortfall == null) {
        shortfall = new RedisFilterException(what + " is on the master but only " + acknowledged + " of "
            + replication.replicas() + " replicas acknowledged it within " + replication.timeoutMillis()
            + " ms: it may be lost if the master fails now");
      }
    }
    return new Round(missing, shortfall);
  }

  /**
   * Runs one plain command (not a script) of the adapter; a client failure becomes the filters'
   * exception, saying what was being done.
   */
  static <R> R command(String what, Supplier<R> command) {
    try {
      return command.get();
    } catch (RedisCallException e) {
      throw translate(what, e);
    }
  }

  /** The exception a filter throws for a client failure; our scripts' errors start with "BLOOM". */
  static RedisFilterException translate(String what, RedisCallException e) {
    String message = String.valueOf(e.getMessage());
    if (e.kind == RedisCallException.Kind.ERROR_REPLY) {
      if (message.startsWith("BLOOMEXISTS")) {
        return new RedisFilterExistsException(what + " refused by Redis, nothing written: " + message, e.getCause());
      }
      if (message.startsWith("BLOOMSHAPE") || message.startsWith("BLOOMMISSING")
          || message.startsWith("BLOOMFOREIGN")) {
        return new RedisFilterMismatchException(what + " refused by Redis, nothing written: " + message, e.getCause());
      }
    }
    return new RedisFilterException(what + " failed: " + e.describe(), e.getCause());
  }
}
