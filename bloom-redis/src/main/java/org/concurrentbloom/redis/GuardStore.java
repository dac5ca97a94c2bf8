package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.number;
import static org.concurrentbloom.redis.RedisCodec.text;
import static org.concurrentbloom.redis.RedisCodec.utf8;

import java.util.List;
import java.util.function.Supplier;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.internal.BitIndexer;

/**
 * The plain commands on a shared guard's keys, outside its scripts: the state hash, a generation's
 * metadata, the next generation number. Each is one command, so what it returns may be stale by the
 * time it is used; that is safe because every script re-checks the state it acts on
 * (RedisGuardFilters). Immutable; any thread may call any method, as the client may.
 *
 * @param <K> the type of key
 */
final class GuardStore<K> {
  private static final byte[] LIVE = utf8("live");
  private static final byte[] PENDING = utf8("pending");
  private static final byte[] NEXT = utf8("next");

  private final RedisClientAdapter redis;
  private final GuardKeys keys;
  private final Funnel<? super K> funnel;

  GuardStore(RedisClientAdapter redis, GuardKeys keys, Funnel<? super K> funnel) {
    this.redis = redis;
    this.keys = keys;
    this.funnel = funnel;
  }

  /** {live, pending} from the state hash; 0 for none. */
  long[] readState() {
    List<byte[]> fields = call("read the state of", () -> redis.hmget(keys.state, LIVE, PENDING));
    return new long[] {number(fields.get(0)), number(fields.get(1))};
  }

  /** The next generation number: never one used before (unless Redis lost the state). */
  long nextGeneration() {
    return call("number a generation of", () -> redis.hincrBy(keys.state, NEXT, 1));
  }

  /** Generation {@code number} as its metadata describes it, or null if it has none. */
  GuardGeneration<K> generation(long number) {
    List<byte[]> f = call("read a generation of", () -> redis.hmget(keys.meta(number), utf8("m"), utf8("k"),
        utf8("n"), utf8("fpp"), utf8("strategy"), utf8("id")));
    if (f.get(0) == null) {
      return null;
    }
    try {
      String guard = "guard " + keys.name + " generation " + number;
      BitIndexer<K> indexer = BitIndexer.withShape(funnel, StoredShape.strategy(guard, text(f.get(4))),
          Long.parseLong(text(f.get(0))), Integer.parseInt(text(f.get(1))));
      // A generation registered before generations had ids has none: "" is what the scripts compare it as.
      String id = f.get(5) == null ? "" : text(f.get(5));
      return new GuardGeneration<>(number, id, indexer, Long.parseLong(text(f.get(2))),
          Double.parseDouble(text(f.get(3))), keys.bits(number), keys.meta(number));
    } catch (RuntimeException e) {
      throw new RedisFilterMismatchException("guard " + keys.name + ": generation " + number
          + " has invalid metadata: " + e.getMessage(), e);
    }
  }

  /**
   * The fields n, keys and deletes of generation {@code number}, unparsed (null where absent), or null
   * if its metadata or its bits are missing.
   */
  List<byte[]> figures(long number) {
    List<byte[]> f = call("read the live generation of",
        () -> redis.hmget(keys.meta(number), utf8("n"), utf8("keys"), utf8("deletes")));
    boolean bits = call("read the live generation of", () -> redis.exists(keys.bits(number)));
    return f.get(0) != null && bits ? f : null;
  }

  /** The watermark field of a generation, unparsed: null if its build recorded none. */
  byte[] watermark(GuardGeneration<?> g) {
    return call("read the watermark of", () -> redis.hget(g.metaKey(), utf8("watermark")));
  }

  private <T> T call(String what, Supplier<T> command) {
    return ScriptCalls.command(what + " guard " + keys.name, command);
  }
}
