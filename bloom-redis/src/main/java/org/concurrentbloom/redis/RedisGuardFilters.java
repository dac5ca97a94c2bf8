package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.GuardGeneration.NONE;
import static org.concurrentbloom.redis.GuardGeneration.bitsOrNone;
import static org.concurrentbloom.redis.GuardGeneration.hashFunctionsOrNone;
import static org.concurrentbloom.redis.GuardGeneration.idOrNone;
import static org.concurrentbloom.redis.GuardGeneration.numberOrNone;
import static org.concurrentbloom.redis.RedisCodec.ascii;
import static org.concurrentbloom.redis.RedisCodec.number;
import static org.concurrentbloom.redis.RedisCodec.text;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.guard.GuardFilters;
import org.concurrentbloom.guard.GuardSpec;

/**
 * A guard's filters kept in Redis and shared by every instance that opens the same guard
 * ({@link RedisGuardBackend}): an insert one instance records is seen by the checks of all.
 *
 * <p>Each instance caches a {@link View} of which generations are live and pending, with their shapes;
 * each call is one script that checks the view against Redis's state and acts, or returns the state so
 * that the instance refreshes its view and tries again (at most {@value #MAX_ATTEMPTS} times).
 *
 * <p>Threads: any, as {@link GuardFilters} says; the view is one volatile reference to an immutable
 * record, and both clients are thread-safe. The plain reads of the keys are GuardStore's; a rebuild,
 * on the guard's build thread, is RedisGuardRebuild's.
 */
final class RedisGuardFilters<K> implements GuardFilters<K> {
  /*
   * The protocol (docs/REDIS.md, "Shared guard", has the long form with diagrams).
   *
   * Keys (GuardKeys): the state hash {G}:state names the live and the pending generation; generation N is
   * {G}:gN:bits and {G}:gN:meta. All share the hash tag {G}, so every script may touch all of them, and
   * Redis runs each script alone: every script is one point in a single total order of the operations of
   * all instances (one server, or the one master that owns the slot of {G}), consistent with real time.
   *
   * Checks and inserts (guard-query, guard-add, guard-delete) first compare the state with the
   * generations the caller expected. If they differ the script writes nothing and returns the state; the
   * caller re-reads the shapes and retries. So a script acts on exactly the generations live and pending
   * at its point of the order, never on a replaced one, however stale the caller's cache was.
   *
   * A rebuild, holding the lock: (1) guard-register creates generation N and makes it pending (deleting an
   * abandoned pending one); (2) the guard scans the source into N with plain add.lua calls, batched;
   * (3) guard-publish, only if N is still pending, makes N live, clears pending and deletes the replaced
   * generation, all in one step.
   *
   * Claim: once guard-add(k) ran (at point a), k is in every generation live at any later point, so every
   * check that starts after recordInsert(k) returned answers "maybe" on every instance.
   * Let N be live at a point after a. If N was live at a, guard-add set k's bits in N. Otherwise N was
   * published after a, and registered at some point r. Pending changes only by a registration of a new,
   * never reused number, or by the pending generation's own publish; so from r until its publish, N was
   * pending (a registration in between would have replaced N, and N's publish would then be refused).
   * If r < a, guard-add found N pending and set k's bits in N. If r > a, the scan into N started after
   * the register reply, so after a, so after k's insert committed (the guard adds only committed keys),
   * and the scan saw k. (A filter of a snapshot is registered the same way; its catch-up scan starts
   * after its registration.) Local guards need "pending is read before live"; here one script does both.
   *
   * Deleting old generations: once published over, generation L is neither live nor pending, so no
   * script can pass its state check for L again: the publish deletes L in the same step, and a
   * registration deletes the abandoned pending generation it replaces. No TTL, no grace period: a client
   * that still believes L is live gets the state back and retries on the new one.
   *
   * Lost state (Redis restarted without its data, keys evicted): the state no longer names a live
   * generation, so every check answers "maybe"; the guard is told (GuardSpec.onLiveLost) and rebuilds.
   * A failover that drops acknowledged writes cannot be detected this way: see docs/REDIS.md, "Failures".
   */

  /** How often one call may find the state changed under it before it gives up. */
  static final int MAX_ATTEMPTS = 5;

  /** The generations an instance believes are live and pending (null: none), with their shapes. */
  record View<K>(GuardGeneration<K> live, GuardGeneration<K> pending) {}

  final RedisClientAdapter redis;
  final ScriptCalls calls;
  final GuardKeys keys;
  final GuardSpec<K> spec;
  final GuardStore<K> store;
  private final Duration lockLease;
  private final Duration lockWait;
  /** Test hook: false skips the pending generation in guard-add, to show the tests catch the loss. */
  private final boolean dualWrite;
  private final List<byte[]> deleteThresholds;
  private volatile View<K> view = new View<>(null, null);
  /**
   * Set once this instance knows a generation is live (seen in the state, adopted or published), and
   * cleared by the one call that then finds none: a live generation never goes away except with Redis's
   * data, so that call tells the guard, once per loss.
   */
  private final AtomicBoolean liveSeen = new AtomicBoolean();

  RedisGuardFilters(RedisClientAdapter redis, GuardKeys keys, GuardSpec<K> spec, Duration lockLease, Duration lockWait,
      boolean dualWrite) {
    this.redis = redis;
    this.calls = new ScriptCalls(redis);
    this.keys = keys;
    this.spec = spec;
    this.store = new GuardStore<>(redis, keys, spec.funnel());
    this.lockLease = lockLease;
    this.lockWait = lockWait;
    this.dualWrite = dualWrite;
    this.deleteThresholds = List.of(ascii(spec.deleteCountThreshold()),
        ascii(Double.toString(spec.deleteFractionThreshold())));
  }

  // ---------------------------------------------------------------- checks and inserts

  @Override
  public boolean mightContain(K key) {
    Objects.requireNonNull(key, "key");
    return run(Script.GUARD_QUERY, "check a key in", v -> {
      GuardGeneration<K> live = v.live();
      if (live == null) {
        return new Call(List.of(keys.state), List.of(NONE, NONE, NONE, NONE));
      }
      long[] hash = hash(key, live);
      List<byte[]> args = new ArrayList<>(4 + live.indexer().hashFunctions());
      Collections.addAll(args, live.numberArg(), live.bitsArg(), live.hashFunctionsArg(), live.idArg());
      live.addOffsets(hash[0], hash[1], scratch(live, null), args);
      return new Call(List.of(keys.state, live.bitsKey(), live.metaKey()), args);
    }) == 1L;
  }

  @Override
  public boolean add(K key) {
    Objects.requireNonNull(key, "key");
    return run(Script.GUARD_ADD, "record an insert into", v -> {
      GuardGeneration<K> live = v.live();
      GuardGeneration<K> pending = v.pending();
      List<byte[]> keyList = new ArrayList<>(5);
      keyList.add(keys.state);
      List<byte[]> args = new ArrayList<>(32);
      Collections.addAll(args, numberOrNone(live), numberOrNone(pending), bitsOrNone(live), hashFunctionsOrNone(live),
          idOrNone(live), bitsOrNone(pending), hashFunctionsOrNone(pending), idOrNone(pending),
          hashFunctionsOrNone(live));
      long[] scratch = scratch(live, pending);
      long[] liveHash = live == null ? null : hash(key, live);
      if (live != null) {
        Collections.addAll(keyList, live.bitsKey(), live.metaKey());
        live.addOffsets(liveHash[0], liveHash[1], scratch, args);
      }
      if (pending != null) {
        Collections.addAll(keyList, pending.bitsKey(), pending.metaKey());
        if (dualWrite) {
          // Generations may differ in strategy (one registered before strategy 4 was the default).
          long[] hash = live != null && live.indexer().strategy() == pending.indexer().strategy() ? liveHash
              : hash(key, pending);
          pending.addOffsets(hash[0], hash[1], scratch, args);
        }
      }
      return new Call(keyList, args);
    }) == 1L;
  }

  @Override
  public boolean countDelete() {
    return run(Script.GUARD_DELETE, "count a delete in", v -> {
      List<byte[]> keyList = new ArrayList<>(3);
      keyList.add(keys.state);
      if (v.live() != null) {
        keyList.add(v.live().metaKey());
      }
      if (v.pending() != null) {
        keyList.add(v.pending().metaKey());
      }
      List<byte[]> args = new ArrayList<>(4);
      Collections.addAll(args, numberOrNone(v.live()), numberOrNone(v.pending()));
      args.addAll(deleteThresholds);
      return new Call(keyList, args);
    }) == 1L;
  }

  /** One script call built from a view. */
  private record Call(List<byte[]> keys, List<byte[]> args) {}

  /**
   * Runs the script the view's call describes; when it returns the state instead of an answer, refreshes
   * the view from it and tries again. A generation that turns out missing or reshaped gets one refresh;
   * if the live one is still broken after it, the guard is told the live filter is lost.
   */
  private long run(Script script, String what, Function<View<K>, Call> build) {
    boolean refreshedForMismatch = false;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      View<K> v = view;
      Call call = build.apply(v);
      Object reply;
      try {
        reply = calls.eval(script, call.keys(), call.args(), what + " guard " + keys.name);
      } catch (RedisFilterMismatchException e) {
        if (refreshedForMismatch) {
          if (v.live() != null && view.live() != null && view.live().number() == v.live().number()) {
            sawLive(false); // the state still names it, and its keys are gone or reshaped: lost
          }
          throw e;
        }
        refreshedForMismatch = true;
        refresh(store.readState(), MAX_ATTEMPTS);
        continue;
      }
      if (reply instanceof Long answer) {
        return answer;
      }
      List<?> state = (List<?>) reply;
      refresh(new long[] {number(state.get(0)), number(state.get(1))}, MAX_ATTEMPTS);
    }
    throw new RedisFilterException("could not " + what + " guard " + keys.name + ": its generations changed "
        + MAX_ATTEMPTS + " times during one call");
  }

  private long[] hash(K key, GuardGeneration<K> any) {
    long[] hash = new long[2];
    any.indexer().hash(key, hash);
    return hash;
  }

  /** Room for the offsets of the larger of two shapes. */
  private static long[] scratch(GuardGeneration<?> a, GuardGeneration<?> b) {
    int k = Math.max(a == null ? 0 : a.indexer().hashFunctions(), b == null ? 0 : b.indexer().hashFunctions());
    return new long[Math.max(2, k)];
  }

  // ---------------------------------------------------------------- the view

  /**
   * Reads the shapes of the generations {@code state} names and installs them as the view. A generation
   * deleted by a publish since the state was read sends it back to read the state again; one that the
   * state still names without metadata is broken (deleted or evicted by someone else).
   */
  private View<K> refresh(long[] state, int attemptsLeft) {
    GuardGeneration<K> live = state[0] == 0 ? null : store.generation(state[0]);
    GuardGeneration<K> pending = state[1] == 0 ? null : store.generation(state[1]);
    if ((state[0] != 0 && live == null) || (state[1] != 0 && pending == null)) {
      long[] now = store.readState();
      if ((now[0] == state[0] && now[1] == state[1]) || attemptsLeft <= 1) {
        if (state[0] != 0 && live == null) {
          sawLive(false); // named, but its keys are gone: lost
        }
        throw new RedisFilterMismatchException("guard " + keys.name + ": the state names generation "
            + (live == null ? state[0] : state[1]) + ", whose metadata is gone (deleted or evicted)");
      }
      return refresh(now, attemptsLeft - 1);
    }
    View<K> next = new View<>(live, pending);
    view = next;
    sawLive(live != null);
    return next;
  }

  /**
   * Records whether a live generation was found (or one the state names is broken: not found). Finding
   * none after one was seen is a loss, which the guard is told of once.
   */
  void sawLive(boolean present) {
    if (present) {
      liveSeen.set(true);
    } else if (liveSeen.compareAndSet(true, false)) {
      spec.onLiveLost().run();
    }
  }

  // ---------------------------------------------------------------- figures, snapshots, rebuilds

  @Override
  public Optional<Live> live() {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      long number = store.readState()[0];
      if (number == 0) {
        sawLive(false);
        return Optional.empty();
      }
      List<byte[]> f = store.figures(number);
      if (f != null) {
        sawLive(true);
        return Optional.of(new Live(number(f.get(0)), number(f.get(1)), number(f.get(2))));
      }
      if (store.readState()[0] == number) {
        sawLive(false);
        return Optional.empty(); // named but broken: as good as none, and the next build replaces it
      }
    }
    throw new RedisFilterException("guard " + keys.name + ": its live generation changed " + MAX_ATTEMPTS
        + " times while being read");
  }

  /** Redis keeps standard-layout bits only (either strategy): a snapshot of another layout is scanned again instead. */
  @Override
  public String refusal(BloomFilter<K> loaded) {
    return LocalCopy.whyNotKept(loaded, "Redis keeps standard-layout filters only, and the snapshot's is ");
  }

  @Override
  public Optional<Image<K>> image() {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      long number = store.readState()[0];
      if (number == 0) {
        return Optional.empty();
      }
      GuardGeneration<K> g = store.generation(number);
      if (g == null) {
        continue; // replaced and deleted since the state was read
      }
      byte[] watermark = store.watermark(g);
      try {
        BloomFilter<K> bits = g.asFilter(redis, keys.name).download();
        return Optional.of(new Image<>(bits, watermark == null ? OptionalLong.empty()
            : OptionalLong.of(Long.parseLong(text(watermark)))));
      } catch (RedisFilterMismatchException e) {
        // replaced and deleted during the download: read the new one
      }
    }
    throw new RedisFilterException("guard " + keys.name + ": its live generation changed " + MAX_ATTEMPTS
        + " times while being downloaded");
  }

  @Override
  public Rebuild<K> rebuild() throws InterruptedException {
    RebuildLock lock = new RebuildLock(redis, calls, keys, lockLease, lockWait);
    lock.acquire();
    return new RedisGuardRebuild<>(this, lock);
  }

  /** Nothing in Redis changes: the other instances go on sharing the filters. */
  @Override
  public void close() {
    view = new View<>(null, null);
  }

  @Override
  public String toString() {
    return "RedisGuardFilters[" + keys.name + "]";
  }
}
