package org.concurrentbloom.redis;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link RedisClientAdapter} over a Lettuce connection with the byte-array codec: a single server's
 * {@code StatefulRedisConnection} or a cluster's {@code StatefulRedisClusterConnection}, whose commands
 * Lettuce routes by their first key. Lettuce pipelines by itself: commands are written without waiting
 * for earlier replies, so a batch sent asynchronously and then awaited costs one round trip per node.
 * Every wait is bounded by the connection's own command timeout. Any thread: a Lettuce connection is
 * thread-safe, and each call awaits only its own futures.
 */
final class LettuceAdapter extends RedisClientAdapter {
  private static final Duration AWAIT_GRACE = Duration.ofSeconds(1);

  private final StatefulConnection<byte[], byte[]> connection;
  private final RedisClusterAsyncCommands<byte[], byte[]> async;
  /** Set for a cluster: a pipeline with WAIT sends through the node connections itself. */
  private final StatefulRedisClusterConnection<byte[], byte[]> cluster;

  LettuceAdapter(StatefulConnection<byte[], byte[]> connection, RedisClusterAsyncCommands<byte[], byte[]> async,
      StatefulRedisClusterConnection<byte[], byte[]> cluster) {
    this.connection = connection;
    this.async = async;
    this.cluster = cluster;
  }

  @Override
  Object evalsha(byte[] sha, List<byte[]> keys, List<byte[]> args) {
    return await(evalsha(async, sha, keys, args));
  }

  @Override
  void scriptLoad(byte[] source, byte[] routingKey) {
    // A cluster connection's SCRIPT LOAD has no key to route by: send it to the owner of the slot.
    RedisClusterAsyncCommands<byte[], byte[]> target =
        cluster == null ? async : cluster.getConnection(nodeOf(routingKey)).async();
    await(target.scriptLoad(source));
  }

  /** EVALSHA with an output that keeps the reply's shape (LettuceScriptOutput); routed by its first key. */
  private static RedisFuture<Object> evalsha(RedisClusterAsyncCommands<byte[], byte[]> commands, byte[] sha,
      List<byte[]> keys, List<byte[]> args) {
    CommandArgs<byte[], byte[]> command = new CommandArgs<>(ByteArrayCodec.INSTANCE)
        .add(new String(sha, StandardCharsets.US_ASCII)).add(keys.size()).addKeys(keys).addValues(args);
    return commands.dispatch(CommandType.EVALSHA, new LettuceScriptOutput(), command);
  }

  @Override
  List<Object> pipeline(List<Command> commands) {
    boolean waits = commands.stream().anyMatch(c -> c instanceof Wait);
    // WAIT counts the writes of the connection it is sent on. Lettuce routes keyed commands of a cluster
    // connection itself, but a WAIT has no key; so a pipeline with WAIT picks each node's connection
    // here and sends both the writes and their WAIT through it.
    Map<String, RedisClusterAsyncCommands<byte[], byte[]>> nodes = new HashMap<>();
    List<Object> results = send(commands, c -> cluster == null || !waits ? async
        : nodes.computeIfAbsent(nodeOf(routingKey(c)), id -> cluster.getConnection(id).async()));
    return cluster != null && waits ? followMoved(commands, results) : results;
  }

  private static byte[] routingKey(Command c) {
    return c instanceof EvalSha e ? e.keys().get(0) : ((Wait) c).routingKey();
  }

  /** Sends every command through the connection {@code targets} picks for it; each reply or failure, in order. */
  private List<Object> send(List<Command> commands,
      java.util.function.Function<Command, RedisClusterAsyncCommands<byte[], byte[]>> targets) {
    List<RedisFuture<?>> futures = new ArrayList<>(commands.size());
    for (Command c : commands) {
      RedisClusterAsyncCommands<byte[], byte[]> target = targets.apply(c);
      if (c instanceof EvalSha e) {
        futures.add(evalsha(target, e.sha(), e.keys(), e.args()));
      } else {
        Wait w = (Wait) c;
        futures.add(target.waitForReplication(w.replicas(), w.timeoutMillis()));
      }
    }
    long deadline = System.nanoTime() + timeout().toNanos();
    List<Object> results = new ArrayList<>(futures.size());
    for (RedisFuture<?> f : futures) {
      try {
        results.add(await(f, Math.max(0, deadline - System.nanoTime())));
      } catch (RedisCallException e) {
        results.add(e);
      }
    }
    return results;
  }

  /**
   * A pipeline sent through node connections does not follow redirects as the cluster connection does:
   * after a failover the client's slot map may still name the old master, which answers MOVED with the
   * new owner's address. The scripts that got MOVED did not run; they are sent again, once, to the node
   * the reply names, with the WAIT of their routing key on the same connection, and their replies (and
   * that WAIT's) replace the first ones. A second MOVED is left for the caller (ScriptCalls retries).
   */
  private List<Object> followMoved(List<Command> commands, List<Object> results) {
    Map<String, String> movedTo = new HashMap<>(); // routing key -> "host:port" the MOVED reply names
    for (int i = 0; i < commands.size(); i++) {
      if (commands.get(i) instanceof EvalSha && results.get(i) instanceof RedisCallException e
          && e.kind == RedisCallException.Kind.ERROR_REPLY && String.valueOf(e.getMessage()).startsWith("MOVED ")) {
        String[] parts = e.getMessage().split(" ", -1);
        if (parts.length == 3) {
          movedTo.put(RedisCodec.text(routingKey(commands.get(i))), parts[2]);
        }
      }
    }
    if (movedTo.isEmpty()) {
      return results;
    }
    List<Integer> again = new ArrayList<>();
    for (int i = 0; i < commands.size(); i++) {
      String key = RedisCodec.text(routingKey(commands.get(i)));
      boolean moved = commands.get(i) instanceof EvalSha ? results.get(i) instanceof RedisCallException
          && movedTo.containsKey(key) : movedTo.containsKey(key);
      if (moved) {
        again.add(i);
      }
    }
    Map<String, RedisClusterAsyncCommands<byte[], byte[]>> nodes = new HashMap<>();
    List<Command> resend = again.stream().map(commands::get).toList();
    List<Object> redirected;
    try {
      redirected = send(resend, c -> nodes.computeIfAbsent(movedTo.get(RedisCodec.text(routingKey(c))), address -> {
        int colon = address.lastIndexOf(':');
        return cluster.getConnection(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)))
            .async();
      }));
    } catch (RuntimeException e) {
      return results; // the named node is unreachable too: report the MOVED replies, the caller retries
    }
    List<Object> merged = new ArrayList<>(results);
    for (int j = 0; j < again.size(); j++) {
      merged.set(again.get(j), redirected.get(j));
    }
    return merged;
  }

  private String nodeOf(byte[] key) {
    RedisClusterNode node = cluster.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
    if (node == null) {
      throw new RedisCallException(RedisCallException.Kind.FAILURE, "no cluster node owns the slot of "
          + RedisCodec.text(key) + " in the client's view of the cluster", null);
    }
    return node.getNodeId();
  }

  @Override
  void awaitRoute(byte[] key) {
    await(async.exists(key));
  }

  @Override
  String type(byte[] key) {
    return await(async.type(key));
  }

  @Override
  Map<String, String> hgetAll(byte[] key) {
    Map<byte[], byte[]> raw = await(async.hgetall(key));
    Map<String, String> out = new LinkedHashMap<>();
    raw.forEach((k, v) -> out.put(RedisCodec.text(k), RedisCodec.text(v)));
    return out;
  }

  @Override
  List<byte[]> hmget(byte[] key, byte[]... fields) {
    List<KeyValue<byte[], byte[]>> raw = await(async.hmget(key, fields));
    List<byte[]> out = new ArrayList<>(raw.size());
    for (KeyValue<byte[], byte[]> kv : raw) {
      out.add(kv.getValueOrElse(null));
    }
    return out;
  }

  @Override
  byte[] hget(byte[] key, byte[] field) {
    return await(async.hget(key, field));
  }

  @Override
  boolean exists(byte[] key) {
    return await(async.exists(key)) > 0;
  }

  @Override
  long hincrBy(byte[] key, byte[] field, long by) {
    return await(async.hincrby(key, field, by));
  }

  @Override
  long del(byte[]... keys) {
    return await(async.del(keys));
  }

  @Override
  void set(byte[] key, byte[] value) {
    await(async.set(key, value));
  }

  @Override
  byte[] get(byte[] key) {
    return await(async.get(key));
  }

  @Override
  boolean setIfAbsent(byte[] key, byte[] value, long pxMillis) {
    return "OK".equals(await(async.set(key, value, SetArgs.Builder.nx().px(pxMillis))));
  }

  /**
   * How long to wait for a reply: the connection's command timeout, plus a second so that Lettuce's own
   * timeout (a RedisCommandTimeoutException, which also cancels the command) fires first.
   */
  private Duration timeout() {
    return connection.getTimeout().plus(AWAIT_GRACE);
  }

  private <T> T await(RedisFuture<T> future) {
    return await(future, timeout().toNanos());
  }

  /** The future's value; its failure, or no reply within {@code nanos}, as a RedisCallException. */
  private static <T> T await(RedisFuture<T> future, long nanos) {
    try {
      return future.get(nanos, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw translate(e.getCause());
    } catch (TimeoutException e) {
      future.cancel(false);
      throw new RedisCallException(RedisCallException.Kind.FAILURE, "no reply within the command timeout", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisCallException(RedisCallException.Kind.FAILURE, "interrupted while waiting for Redis", e);
    } catch (RuntimeException e) {
      throw translate(e);
    }
  }

  private static RedisCallException translate(Throwable e) {
    RedisCallException.Kind kind = e instanceof RedisNoScriptException ? RedisCallException.Kind.NO_SCRIPT
        : e instanceof RedisCommandExecutionException ? RedisCallException.Kind.ERROR_REPLY
        : RedisCallException.Kind.FAILURE;
    return new RedisCallException(kind, String.valueOf(e.getMessage()), e);
  }

  @Override
  public String toString() {
    return "Lettuce " + (cluster != null ? "cluster connection" : "connection");
  }
}
