package org.concurrentbloom.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs {@link Script}s by SHA, one at a time or pipelined, loading a script into a node's cache when that
 * node answers NOSCRIPT (first use, after a restart, after a failover: the script cache is neither
 * persisted nor replicated) and then retrying once. Turns every client failure into a
 * {@link RedisFilterException}. Immutable; safe for any number of threads, as the client is.
 */
final class ScriptCalls {
  /**
   * One script call: its KEYS (one hash slot; the first routes it, and a WAIT after it) and ARGV. A
   * filter partition's calls take KEYS = {bits, meta}; an expiring filter's, {meta}.
   */
  record Call(Script script, List<byte[]> keys, List<byte[]> args) {
    /** A call on one partition: KEYS = {bits, meta}. */
    static Call onPartition(Script script, byte[] bitsKey, byte[] metaKey, List<byte[]> args) {
      return new Call(script, List.of(bitsKey, metaKey), args);
    }

    byte[] routingKey() {
      return keys.get(0);
    }
  }

  /**
   * How many times one write with WAIT is sent in all, while the cluster it goes to is changing: each
   * retry is preceded by {@link RedisClientAdapter#awaitRoute}, in which the client itself waits within
   * its own retry budget, so this only bounds a server that keeps failing the write itself.
   */
  static final int WRITE_ATTEMPTS = 6;

  /**
   * Wait, after writes, until this many replicas of each written partition have acknowledged them.
   * Redis acknowledges a write before replicating it; a WAIT in the same pipeline, on the connection
   * that wrote, makes an acknowledged add one that is on that many replicas and survives a failover.
   */
  record Replication(int replicas, long timeoutMillis) {
    /**
     * The setting of a builder's {@code waitForReplicas(replicas, timeout)}, checked.
     *
     * @throws IllegalArgumentException if {@code replicas < 1} or the timeout is not positive (the message
     *     names the value)
     */
    static Replication of(int replicas, Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (replicas < 1) {
        throw new IllegalArgumentException("replicas must be >= 1, was " + replicas);
      }
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, was " + timeout);
      }
      return new Replication(replicas, timeout.toMillis());
    }
  }

  private final RedisClientAdapter redis;

  ScriptCalls(RedisClientAdapter redis) {
    this.redis = redis;
  }

  /** Runs one call: one round trip (two plus a SCRIPT LOAD when the node lacks the script). */
  Object run(Call call, String what) {
    return eval(call.script(), call.keys(), call.args(), what);
  }

  /**
   * Runs one call that writes, followed by a WAIT in the same pipeline ({@code replication} not null),
   * and retries it through a failover: a plain script call is retried by the client itself (Jedis's
   * cluster client renews its slot map and retries within {@code maxAttempts} and
   * {@code maxTotalRetriesDuration}), but a pipeline is not. So when the pipeline fails for a reason that
   * a changing cluster gives (no reply, a connection lost or refused, MOVED, ASK, CLUSTERDOWN,
   * TRYAGAIN, LOADING, READONLY, MASTERDOWN), this asks the client for a plain command routed by the
   * same key ({@link RedisClientAdapter#awaitRoute}), which waits out the failover within the client's
   * budget and refreshes its view of the cluster, and sends the pipeline again; if the client gives up,
   * the failure is thrown. Writes are idempotent (setting bits that are set changes nothing), so a
   * retry after a lost reply applies the write at most once; its answer then says whether the retry
   * changed a bit, so an add whose first reply was lost answers false.
   *
   * @throws RedisFilterException if the write failed and the client gave up, or a WAIT fell short
   */
  Object writeRetrying(Call call, Replication replication, String what) {
    RedisCallException last = null;
    for (int attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      if (last != null) {
        try {
          redis.awaitRoute(call.routingKey());
        } catch (RedisCallException gaveUp) {
          RedisFilterException e = translate(what, last);
          e.addSuppressed(translate("waiting for the cluster", gaveUp));
          throw e;
        }
      }
      try {
        return runAllUntranslated(List.of(call), replication, what)[0];
      } catch (RedisCallException e) {
        if (!isTransient(e)) {
          throw translate(what, e);
        }
        last = e;
      }
    }
    throw translate(what + " (sent " + WRITE_ATTEMPTS + " times while the cluster kept failing it)", last);
  }

  /** A failure that a failover, a restart or a slot migration gives, after which a retry may succeed. */
  static boolean isTransient(RedisCallException e) {
    if (e.kind == RedisCallException.Kind.FAILURE) {
      return true;
    }
    if (e.kind != RedisCallException.Kind.ERROR_REPLY) {
      return false;
    }
    String m = String.valueOf(e.getMessage());
    for (String code : TRANSIENT_ERRORS) {
      if (m.startsWith(code)) {
        return true;
      }
    }
    return false;
  }

  private static final List<String> TRANSIENT_ERRORS = List.of("MOVED", "ASK", "CLUSTERDOWN", "TRYAGAIN", "LOADING",
      "READONLY", "MASTERDOWN");

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
    try {
      return runAllUntranslated(calls, replication, what);
    } catch (RedisCallException e) {
      throw translate(what, e);
    }
  }

  /** {@link #runAll}, with a client failure thrown as it came, so that its kind can be judged. */
  private Object[] runAllUntranslated(List<Call> calls, Replication replication, String what) {
    Object[] results = new Object[calls.size()];
    List<Integer> todo = new ArrayList<>(calls.size());
    for (int i = 0; i < calls.size(); i++) {
      todo.add(i);
    }
    RedisFilterException shortfall = null;
    for (int attempt = 0; ; attempt++) {
      Round round = runOnce(calls, todo, results, replication);
      if (shortfall == null) {
        shortfall = round.shortfall == null ? null : new RedisFilterException(what + round.shortfall);
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
        toLoad.putIfAbsent(c.script().name + '\n' + RedisCodec.text(c.routingKey()), c);
      }
      for (Call c : toLoad.values()) {
        redis.scriptLoad(c.script().source, c.routingKey());
      }
      todo = round.missing;
    }
  }

  /**
   * What one pipeline left to do: the calls that met NOSCRIPT, and how a WAIT fell short (the end of
   * the message), if one did.
   */
  private record Round(List<Integer> missing, String shortfall) {}

  /** One pipeline; the first call's failure (other than NOSCRIPT) is thrown as the client reported it. */
  private Round runOnce(List<Call> calls, List<Integer> todo, Object[] results, Replication replication) {
    List<RedisClientAdapter.Command> commands = new ArrayList<>(todo.size() + 1);
    Map<String, byte[]> written = new LinkedHashMap<>();
    for (int i : todo) {
      Call c = calls.get(i);
      commands.add(new RedisClientAdapter.EvalSha(c.script().sha, c.keys(), c.args()));
      written.putIfAbsent(RedisCodec.text(c.routingKey()), c.routingKey());
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
        applied.put(RedisCodec.text(c.routingKey()), true);
      }
    }
    if (firstFailure != null) {
      throw firstFailure;
    }
    String shortfall = null;
    for (int w = 0; w < waitedKeys.size(); w++) {
      Object reply = replies.get(todo.size() + w);
      if (reply instanceof RedisCallException e) {
        throw e;
      }
      long acknowledged = (Long) reply;
      if (acknowledged < replication.replicas() && applied.containsKey(waitedKeys.get(w)) && shortfall == null) {
        shortfall = " is on the master but only " + acknowledged + " of " + replication.replicas()
            + " replicas acknowledged it within " + replication.timeoutMillis()
            + " ms: it may be lost if the master fails now";
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

  /**
   * The exception a filter throws for a client failure; our scripts' errors start with "BLOOM", and
   * every one of them was returned before the script wrote anything.
   */
  static RedisFilterException translate(String what, RedisCallException e) {
    String message = String.valueOf(e.getMessage());
    if (e.kind == RedisCallException.Kind.ERROR_REPLY) {
      if (message.startsWith("BLOOMEXISTS")) {
        return new RedisFilterExistsException(what + " refused by Redis, nothing written: " + message, e.getCause());
      }
      if (message.startsWith("BLOOMLOST") || message.startsWith("BLOOMMISSING")) {
        return new RedisFilterLostException(what + " refused by Redis, nothing written: " + message, e.getCause());
      }
      if (message.startsWith("BLOOMSHAPE") || message.startsWith("BLOOMFOREIGN") || message.startsWith("BLOOMNOFILTER")) {
        return new RedisFilterMismatchException(what + " refused by Redis, nothing written: " + message, e.getCause());
      }
      if (message.startsWith("BLOOM")) {
        return new RedisFilterException(what + " refused by Redis, nothing written: " + message, e.getCause());
      }
    }
    return new RedisFilterException(what + " failed: " + e.describe(), e.getCause());
  }
}
