package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;
import static org.concurrentbloom.redis.RedisCodec.number;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.guard.GuardFilters;
import org.concurrentbloom.guard.ScanResult;
import org.concurrentbloom.internal.BitIndexer;

/**
 * One rebuild of a shared guard, holding the rebuild lock: registers a new generation as pending
 * (guard-register), fills it with the scan in pipelined batches (renewing the lock as it goes), and
 * publishes it (guard-publish); closing it abandons an unpublished generation (guard-abandon) and
 * releases the lock. RedisGuardFilters states the protocol and its proof. The guard's build thread
 * only.
 */
final class RedisGuardRebuild<K> implements GuardFilters.Rebuild<K> {
  private static final byte[] EMPTY = new byte[0];

  private final RedisGuardFilters<K> filters;
  private final RebuildLock lock;
  private RedisCandidate registered;
  private boolean published;

  RedisGuardRebuild(RedisGuardFilters<K> filters, RebuildLock lock) {
    this.filters = filters;
    this.lock = lock;
  }

  @Override
  public GuardFilters.Candidate<K> begin(long capacity) {
    BitIndexer<K> indexer = BitIndexer.sized(filters.spec.funnel(), BitIndexer.DEFAULT_STRATEGY, capacity,
        filters.spec.fpp());
    if (indexer.bitSize() > RedisBloomFilter.MAX_PARTITION_BITS) {
      throw new IllegalArgumentException("guard " + filters.keys.name + ": a filter for " + capacity + " keys at fpp="
          + filters.spec.fpp() + " needs " + indexer.bitSize() + " bits, past the 2^32 a Redis string holds");
    }
    return register(indexer, capacity, 0, EMPTY, OptionalLong.empty(), false);
  }

  @Override
  public GuardFilters.Candidate<K> begin(BloomFilter<K> loaded, OptionalLong watermark) {
    LocalCopy.requireStandardLayout(loaded, "only a standard-layout filter can be kept in Redis, not ");
    BitIndexer<K> indexer = LocalCopy.indexerOf(filters.spec.funnel(), loaded);
    byte[] bits = LocalCopy.redisBits(loaded);
    return register(indexer, loaded.expectedInsertions(), loaded.count(), bits, watermark, true);
  }

  /** Numbers, creates and registers the new generation (guard-register), retrying if pending moved. */
  private GuardFilters.Candidate<K> register(BitIndexer<K> indexer, long capacity, long count, byte[] bits,
      OptionalLong watermark, boolean countNew) {
    if (registered != null) {
      throw new IllegalStateException("a rebuild registers one generation");
    }
    long number = filters.store.nextGeneration();
    GuardKeys keys = filters.keys;
    GuardGeneration<K> gen = new GuardGeneration<>(number, FilterOpener.newId(), indexer, capacity, filters.spec.fpp(),
        keys.bits(number), keys.meta(number));
    long[] state = filters.store.readState();
    for (int attempt = 0; attempt < RedisGuardFilters.MAX_ATTEMPTS; attempt++) {
      List<byte[]> keyList = new ArrayList<>(6);
      Collections.addAll(keyList, keys.state, keys.lock, gen.bitsKey(), gen.metaKey());
      if (state[1] != 0) {
        Collections.addAll(keyList, keys.bits(state[1]), keys.meta(state[1]));
      }
      List<byte[]> args = new ArrayList<>(12);
      Collections.addAll(args, lock.token, ascii(state[1]), gen.numberArg());
      args.addAll(StoredShape.args(indexer));
      Collections.addAll(args, ascii(capacity), ascii(Double.toString(filters.spec.fpp())), ascii(count), bits,
          gen.idArg());
      Object reply = filters.calls.eval(Script.GUARD_REGISTER, keyList, args, "register a generation of guard "
          + keys.name);
      if (reply instanceof List<?> changed) { // another pending generation than we read: read it again
        state = new long[] {number(changed.get(0)), number(changed.get(1))};
        continue;
      }
      registered = new RedisCandidate(gen, number(reply), watermark, countNew);
      return registered;
    }
    throw new RedisFilterException("guard " + keys.name + ": the pending generation changed "
        + RedisGuardFilters.MAX_ATTEMPTS + " times during one registration");
  }

  /**
   * Abandons a generation that was registered and not published, and releases the lock. A failure here
   * (Redis down) leaves both to time: the lock's lease runs out, and the next registration deletes the
   * abandoned generation. Meanwhile inserts keep writing to it too, which costs a little and harms nothing.
   */
  @Override
  public void close() {
    // The guard's close() interrupts its build thread; an interruptible client call (Lettuce's) would
    // then fail at once and leave the lock to its lease. Clean up first, then restore the interrupt.
    boolean interrupted = Thread.interrupted();
    try {
      if (registered != null && !published) {
        GuardKeys keys = filters.keys;
        GuardGeneration<K> gen = registered.gen;
        filters.calls.eval(Script.GUARD_ABANDON, List.of(keys.state, keys.lock, gen.bitsKey(), gen.metaKey()),
            List.of(gen.numberArg(), lock.token), "abandon a generation of guard " + keys.name);
      } else {
        lock.release();
      }
    } catch (RedisFilterException e) {
      // See the comment: nothing here can be lost, only cleaned up later.
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The registered generation, filled by the scan in pipelined batches. */
  private final class RedisCandidate implements GuardFilters.Candidate<K> {
    private final GuardGeneration<K> gen;
    private final RedisBloomFilter<K> filter;
    /** The generation live when this one was registered: the one its publish replaces. */
    private final long replacing;
    private final OptionalLong loadedWatermark;
    /** A snapshot's catch-up: its count already holds the rows before the watermark; count new keys only. */
    private final boolean countNew;
    private final List<K> batch = new ArrayList<>();
    private long newKeys;

    RedisCandidate(GuardGeneration<K> gen, long replacing, OptionalLong loadedWatermark, boolean countNew) {
      this.gen = gen;
      this.filter = gen.asFilter(filters.redis, filters.keys.name);
      this.replacing = replacing;
      this.loadedWatermark = loadedWatermark;
      this.countNew = countNew;
    }

    @Override
    public void add(K key) {
      batch.add(key);
      if (batch.size() >= RedisBloomFilter.BATCH_CHUNK || lock.dueForRenewal()) {
        flush();
      }
    }

    private void flush() {
      if (!batch.isEmpty()) {
        newKeys += filter.addAll(batch);
        batch.clear();
      }
      lock.renew();
    }

    @Override
    public boolean publish(ScanResult scan) {
      flush();
      long addKeys = countNew ? newKeys : scan.keys();
      OptionalLong watermark = max(loadedWatermark, scan.maxWatermark());
      GuardKeys keys = filters.keys;
      List<byte[]> keyList = new ArrayList<>(4);
      Collections.addAll(keyList, keys.state, gen.metaKey());
      if (replacing != 0) {
        Collections.addAll(keyList, keys.bits(replacing), keys.meta(replacing));
      }
      List<byte[]> args = List.of(gen.numberArg(), ascii(replacing), ascii(addKeys),
          watermark.isPresent() ? ascii(watermark.getAsLong()) : EMPTY);
      Object reply = filters.calls.eval(Script.GUARD_PUBLISH, keyList, args, "publish a generation of guard "
          + keys.name);
      published = true;
      filters.sawLive(true);
      return (Long) reply == 1L;
    }
  }

  private static OptionalLong max(OptionalLong a, OptionalLong b) {
    if (a.isEmpty()) {
      return b;
    }
    return b.isEmpty() ? a : OptionalLong.of(Math.max(a.getAsLong(), b.getAsLong()));
  }
}
