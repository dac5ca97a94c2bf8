package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.ascii;
import static org.concurrentbloom.redis.RedisCodec.text;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.internal.BitIndexer;
import org.concurrentbloom.redis.ScriptCalls.Call;

/**
 * What {@link RedisBloomFilter.Builder}'s create, attach, upload and delete do: size the partitions,
 * create them or check what is stored against the caller's shape, and return the filter with the id
 * every later call is checked against. Stateless; called on the builder's thread, which owns the
 * builder it reads.
 */
final class FilterOpener {
  /*
   * Identity. Every filter gets a random 128-bit id when it is created, stored in each partition's
   * metadata; every script checks it (shape.lua, check_filter). A filter that is deleted, evicted or
   * lost in a restart and then created again has another id, so the instances attached to the old one
   * get RedisFilterLostException instead of answers from the new, empty one.
   *
   * One partition is created or attached to in one script: atomic. A partitioned filter spans hash
   * slots (masters), so its creation cannot be one step, and yet "partition 3 is missing" must mean
   * "lost", never "not created yet", or a create would fill a lost partition in with an empty one.
   * The protocol (create.lua):
   *   1. probe every partition (one pipeline, read only);
   *   2. if none exists, write partition 0 with a new id and a creation lease (server time + lease):
   *      the one instance whose write finds it absent is the creator; the others see the lease;
   *   3. the creator writes every other partition with its id, then clears the lease ("complete").
   * Only the creator writes partitions, only while its lease is on partition 0, and no instance gets a
   * filter before the lease is cleared (the others poll until it is), so no add reaches a partition
   * before the filter is complete. Once complete, a missing partition is lost: create and attach refuse
   * it, naming it. A creator that dies leaves the lease to run out; the next instance then takes the
   * creation over under a new id (partitions left with the old id are emptied and re-labelled), so a
   * late write of the dead creator carries an id no complete filter has, and is refused everywhere.
   *
   * The probe of step 1 is not one snapshot: a server runs other clients' commands between those of a
   * pipeline that reaches it in parts (Lettuce writes each command as it is issued), and a cluster runs
   * each node's part on its own. So another instance's creation may run between two probes, and they
   * then read "partition 0 absent, partitions 1.. present" (partition 0 read before the creator began,
   * the others after it wrote them) or "partition 0 complete, partitions 1.. absent" (the others read
   * before, partition 0 after). A loss is only concluded from reads in the order that proves it, so
   * the partitions such a probe read absent are probed again, after its replies, before any verdict:
   *   - partition 0 absent and partition i present: every partition i >= 1 is written after partition
   *     0 was (step 3 follows step 2), so partition 0 read again after partition i's probe replied, and
   *     still absent, was deleted after it existed: lost. Present now: the probe was torn; start over.
   *   - partition 0 complete and partition i absent: every partition was written before the lease was
   *     cleared, so partition i read again after partition 0's probe replied, and still absent, was
   *     deleted after it existed: lost. Present now: the probe was torn; start over.
   *
   * Filters made before ids (no id field) are given one by the first instance that opens them, with
   * the same partition checks.
   */

  private static final SecureRandom IDS = new SecureRandom();
  private static final long FIRST_POLL_MILLIS = 5;
  private static final long MAX_POLL_MILLIS = 200;

  private FilterOpener() {}

  /** What opening found: the filter's id and strategy, its stored n and p, and whether this call created it. */
  private record Opened(String id, HashStrategy strategy, long n, double fpp, boolean created) {}

  /** Creates the filter (or attaches to it unless {@code exclusive}), following the protocol above. */
  static <T> RedisBloomFilter<T> create(RedisBloomFilter.Builder<T> b, boolean exclusive) {
    if (!b.expectedInsertionsSet) {
      throw new IllegalStateException("expectedInsertions(n) must be set before create()");
    }
    BitIndexer.sized(b.funnel, b.expectedInsertions, b.fpp); // the core's checks of n and p, and their messages
    long perPartition = (b.expectedInsertions + b.partitions - 1) / b.partitions;
    HashStrategy strategy = b.strategy != null ? b.strategy : BitIndexer.DEFAULT_STRATEGY;
    BitIndexer<T> indexer = BitIndexer.sized(b.funnel, strategy, perPartition, b.fpp);
    checkPartitionBits(indexer.bitSize(), "expectedInsertions=" + b.expectedInsertions + " at fpp=" + b.fpp
        + " in " + b.partitions + " partition(s)");
    return open(b, indexer, b.partitions, b.strategy != null, exclusive ? Mode.CREATE_NEW : Mode.CREATE_OR_ATTACH);
  }

  /**
   * Reads the shape, n and p from partition 0's metadata, refusing a key this library did not write,
   * then opens the filter as create does without ever creating a partition.
   */
  static <T> RedisBloomFilter<T> attach(RedisBloomFilter.Builder<T> b) {
    StoredShape stored = StoredShape.parse(b.name, readMeta(b.redis, b.name));
    BitIndexer<T> indexer;
    try {
      indexer = BitIndexer.withShape(b.funnel, stored.strategy(), stored.bits(), stored.hashFunctions());
    } catch (IllegalArgumentException e) {
      throw new RedisFilterMismatchException("filter \"" + b.name + "\" has an invalid shape: " + e.getMessage(), e);
    }
    return open(b, indexer, stored.partitions(), true, Mode.ATTACH);
  }

  private enum Mode { CREATE_OR_ATTACH, CREATE_NEW, ATTACH }

  private static <T> RedisBloomFilter<T> open(RedisBloomFilter.Builder<T> b, BitIndexer<T> indexer, int partitions,
      boolean strategyFixed, Mode mode) {
    Opening<T> o = new Opening<>(b, indexer, partitions, strategyFixed, newId());
    Opened opened = partitions == 1 ? o.single(mode) : o.partitioned(mode);
    PartitionCalls<T> target = o.callsOf(opened);
    EvictionPolicy.check(b.redis, FilterKeys.meta(b.name, 0), "filter \"" + b.name + "\"");
    return new RedisBloomFilter<>(target, opened.n(), opened.fpp(), opened.created());
  }

  /** A new filter id: 128 random bits in hex. */
  static String newId() {
    byte[] bytes = new byte[16];
    IDS.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** One open of a filter: the create.lua calls of the protocol, with the id a new filter would get. */
  private static final class Opening<T> {
    private final RedisBloomFilter.Builder<T> b;
    private final PartitionCalls<T> calls;
    private final boolean strategyFixed;

    Opening(RedisBloomFilter.Builder<T> b, BitIndexer<T> indexer, int partitions, boolean strategyFixed, String id) {
      this.b = b;
      this.calls = new PartitionCalls<>(b.redis, b.name, indexer, partitions, id, b.replication);
      this.strategyFixed = strategyFixed;
    }

    /** create.lua's arguments after the shape: n, p, mode, whether the strategy is fixed, the mode's own. */
    private List<byte[]> args(PartitionCalls<T> with, String mode, boolean fixed, String... more) {
      List<byte[]> args = with.withShape(ascii(b.expectedInsertions), ascii(Double.toString(b.fpp)), ascii(mode),
          ascii(fixed ? "1" : "0"));
      for (String m : more) {
        args.add(RedisCodec.utf8(m));
      }
      return args;
    }

    Opened single(Mode mode) {
      if (mode == Mode.ATTACH) {
        // Read first: an attach writes only to give a filter made before ids its id.
        List<?> probe = (List<?>) calls.read(calls.onFirst(Script.CREATE, args(calls, "probe", strategyFixed)),
            "attach to");
        if ((Long) probe.get(0) == 0L) {
          throw noFilter();
        }
        if (!text(probe.get(1)).isEmpty()) {
          return opened(probe, false);
        }
      }
      String flag = switch (mode) {
        case CREATE_NEW -> "1";
        case CREATE_OR_ATTACH -> "0";
        case ATTACH -> "a";
      };
      List<?> r = (List<?>) calls.write(calls.onFirst(Script.CREATE, args(calls, "single", strategyFixed, flag)),
          mode == Mode.ATTACH ? "attach to" : "create");
      return opened(r);
    }

    /** What a create.lua reply {created or present, id, strategy, n, p, ...} says. */
    private Opened opened(List<?> r) {
      return opened(r, (Long) r.get(0) == 1L);
    }

    private Opened opened(List<?> r, boolean created) {
      String name = b.name;
      return new Opened(text(r.get(1)), StoredShape.strategy(name, text(r.get(2))),
          StoredShape.expectedInsertions(name, text(r.get(3))), StoredShape.fpp(name, text(r.get(4))), created);
    }

    Opened partitioned(Mode mode) {
      long waitNanos = 3 * b.creationLease.toNanos();
      long deadline = System.nanoTime() + waitNanos;
      long poll = FIRST_POLL_MILLIS;
      List<Call> probeCalls = calls.onEach(Script.CREATE, args(calls, "probe", strategyFixed));
      while (true) {
        Object[] probes = calls.readAll(probeCalls, "open");
        List<?> first = (List<?>) probes[0];
        List<Integer> present = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        for (int i = 1; i < probes.length; i++) {
          ((Long) ((List<?>) probes[i]).get(0) == 1L ? present : missing).add(i);
        }
        if ((Long) first.get(0) == 0L) {
          if (!present.isEmpty()) {
            if (absentNow(probeCalls, List.of(0)).isEmpty()) {
              continue; // partition 0 was probed before a concurrent creator began: probe again
            }
            throw new RedisFilterLostException("filter \"" + b.name + "\": partition 0 (" + FilterKeys.metaKey(b.name, 0)
                + ") is missing while partition(s) " + present + " of " + probes.length + " exist: the filter lost"
                + " data (a delete cut short, eviction, or a restart without persistence); delete it"
                + " (RedisBloomFilter.builder(...).partitions(" + probes.length + ").delete()) and build it again"
                + " from the source of truth");
          }
          if (mode == Mode.ATTACH) {
            throw noFilter();
          }
          List<?> r = (List<?>) calls.write(calls.onFirst(Script.CREATE, args(calls, "begin", strategyFixed,
              Long.toString(b.creationLease.toMillis()), mode == Mode.CREATE_NEW ? "1" : "0")), "create");
          if ((Long) r.get(0) == 1L) {
            return fill(opened(r), "");
          }
          continue; // another instance began first: see what it did
        }
        if (mode == Mode.CREATE_NEW) {
          throw new RedisFilterExistsException("create-new of " + b.name + " refused: partition 0 ("
              + FilterKeys.metaKey(b.name, 0) + ") already holds a filter; nothing written", null);
        }
        String creation = text(first.get(5));
        if (creation.equals("expired") && mode != Mode.ATTACH) {
          String old = text(first.get(1));
          Object taken = calls.write(calls.onFirst(Script.CREATE, args(calls, "takeover", strategyFixed,
              Long.toString(b.creationLease.toMillis()), old)), "take over the creation of");
          if ((Long) taken == 1L) {
            return fill(opened(List.of(1L, RedisCodec.utf8(calls.id()), first.get(2), first.get(3), first.get(4))), old);
          }
          continue;
        }
        if (!creation.isEmpty()) {
          if (System.nanoTime() > deadline) {
            throw new RedisFilterException("filter \"" + b.name + "\" is being created by another instance, which"
                + " did not finish within " + (waitNanos / 1_000_000) + " ms");
          }
          pause(poll); // another instance's creation: Redis has no wake-up call, so poll with backoff
          poll = Math.min(MAX_POLL_MILLIS, poll * 2);
          continue;
        }
        if (!missing.isEmpty()) {
          List<Integer> lost = absentNow(probeCalls, missing);
          if (lost.isEmpty()) {
            continue; // they were probed before a concurrent creator wrote them: probe again
          }
          throw lostPartitions(lost, probes.length);
        }
        return attachComplete(probes);
      }
    }

    /**
     * The partitions of {@code which} that a probe sent now, after the probes that read them absent
     * replied, still reads absent.
     */
    private List<Integer> absentNow(List<Call> probeCalls, List<Integer> which) {
      List<Call> again = new ArrayList<>(which.size());
      for (int i : which) {
        again.add(probeCalls.get(i));
      }
      Object[] probes = calls.readAll(again, "open");
      List<Integer> absent = new ArrayList<>();
      for (int j = 0; j < probes.length; j++) {
        if ((Long) ((List<?>) probes[j]).get(0) == 0L) {
          absent.add(which.get(j));
        }
      }
      return absent;
    }

    private RedisFilterLostException lostPartitions(List<Integer> missing, int partitions) {
      return new RedisFilterLostException("filter \"" + b.name + "\" lacks partition(s) " + missing + " of "
          + partitions + " (" + FilterKeys.metaKey(b.name, missing.get(0)) + " does not exist) while partition 0"
          + " says it is complete: they were deleted or evicted, and the items in them are lost; nothing was filled"
          + " in. Delete the filter (RedisBloomFilter.builder(...).partitions(" + partitions + ").delete()) and"
          + " build it again from the source of truth");
    }

    /** The calls of the filter that opening found: its id, and its stored strategy with this shape. */
    PartitionCalls<T> callsOf(Opened opened) {
      BitIndexer<T> indexer = calls.indexer();
      BitIndexer<T> stored = opened.strategy() == indexer.strategy() ? indexer
          : BitIndexer.withShape(b.funnel, opened.strategy(), indexer.bitSize(), indexer.hashFunctions());
      return new PartitionCalls<>(b.redis, b.name, stored, calls.partitions(), opened.id(), b.replication);
    }

    /** The creator's part: every other partition with the filter's id, then partition 0's lease cleared. */
    private Opened fill(Opened opened, String supersededId) {
      PartitionCalls<T> with = callsOf(opened);
      List<Call> members = with.onEach(Script.CREATE, args(with, "member", true, "1", supersededId));
      with.writeAll(members.subList(1, members.size()), "create");
      with.write(with.onFirst(Script.CREATE, args(with, "complete", true)), "create");
      return opened;
    }

    /**
     * A complete filter whose every partition the probe found: partition 0's id (given to it now if it
     * predates ids), and every other partition with that id (given to those that predate ids), none
     * created. Reads only, unless a partition predates ids or was lost since the probe (whose member call
     * then reports it lost).
     */
    private Opened attachComplete(Object[] probes) {
      List<?> first = (List<?>) probes[0];
      Opened opened;
      if (text(first.get(1)).isEmpty()) {
        List<?> r = (List<?>) calls.write(calls.onFirst(Script.CREATE, args(calls, "single", strategyFixed, "a")),
            "attach to");
        opened = opened(r, false);
      } else {
        opened = opened(first, false);
      }
      PartitionCalls<T> with = callsOf(opened);
      List<Call> members = with.onEach(Script.CREATE, args(with, "member", true, "0", ""));
      List<Call> toFix = new ArrayList<>();
      for (int i = 1; i < probes.length; i++) {
        List<?> p = (List<?>) probes[i];
        boolean whole = (Long) p.get(0) == 1L && text(p.get(1)).equals(opened.id())
            && text(p.get(2)).equals(text(first.get(2)));
        if (!whole) {
          toFix.add(members.get(i));
        }
      }
      if (!toFix.isEmpty()) {
        with.writeAll(toFix, "attach to");
      }
      return opened;
    }

    private void pause(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RedisFilterException("interrupted while waiting for another instance to finish creating filter \""
            + b.name + "\"", e);
      }
    }

    private RedisFilterMismatchException noFilter() {
      return new RedisFilterMismatchException("no filter named \"" + b.name + "\": " + FilterKeys.metaKey(b.name, 0)
          + " does not exist");
    }
  }

  private static Map<String, String> readMeta(RedisClientAdapter redis, String name) {
    Map<String, String> meta;
    byte[] key = FilterKeys.meta(name, 0);
    String keyName = text(key);
    try {
      String type = redis.type(key);
      if (type.equals("none")) {
        throw new RedisFilterMismatchException("no filter named \"" + name + "\": " + keyName + " does not exist");
      }
      if (!type.equals("hash")) {
        throw new RedisFilterMismatchException("attach to " + name + " refused: " + keyName + " holds a " + type
            + ", not a filter's metadata hash: it was not made by this library");
      }
      meta = redis.hgetAll(key);
    } catch (RedisCallException e) {
      throw ScriptCalls.translate("attach to " + name, e);
    }
    if (!meta.containsKey("version")) {
      throw new RedisFilterMismatchException("attach to " + name + " refused: " + keyName + " is a hash without"
          + " this library's fields (" + String.join(", ", meta.keySet()) + "): it was not made by this library");
    }
    return meta;
  }

  /**
   * Stores a copy of {@code local} as the one partition of the builder's filter (LocalCopy), under a
   * new id and {@code local}'s strategy.
   */
  static <T> RedisBloomFilter<T> upload(RedisBloomFilter.Builder<T> b, BloomFilter<T> local) {
    LocalCopy.requireStandardLayout(local, "only the standard layout can be kept in Redis; this filter's layout is ");
    if (b.partitions != 1) {
      throw new IllegalArgumentException("a local filter uploads to one partition, not " + b.partitions);
    }
    if (b.strategy != null && b.strategy != local.hashStrategy()) {
      throw new IllegalArgumentException("this builder asks for hash strategy " + b.strategy.id() + " and the local"
          + " filter has " + local.hashStrategy().id() + ": an upload keeps the local filter's");
    }
    checkPartitionBits(local.bitSize(), "this filter");
    PartitionCalls<T> target = new PartitionCalls<>(b.redis, b.name, LocalCopy.indexerOf(b.funnel, local), 1, newId(),
        b.replication);
    LocalCopy.upload(target, local);
    return new RedisBloomFilter<>(target, local.expectedInsertions(), local.fpp(), false);
  }

  /**
   * Deletes every key of the filter {@code name}: partitions 0 .. P-1, P the larger of the builder's
   * partitions and the count partition 0 records (when it is readable), partition 0 first. For a
   * filter reported lost, whose partitions no attach accepts. Returns the number of keys deleted.
   */
  static long delete(RedisBloomFilter.Builder<?> b) {
    int partitions = b.partitions;
    try {
      byte[] stored = ScriptCalls.command("delete " + b.name,
          () -> "hash".equals(b.redis.type(FilterKeys.meta(b.name, 0)))
              ? b.redis.hget(FilterKeys.meta(b.name, 0), RedisCodec.utf8("partitions")) : null);
      if (stored != null) {
        int recorded = Integer.parseInt(text(stored));
        if (recorded >= 1 && recorded <= FilterKeys.MAX_PARTITIONS) {
          partitions = Math.max(partitions, recorded);
        }
      }
    } catch (NumberFormatException e) {
      // not a partition count this library wrote: the builder's count is all there is to go by
    }
    return PartitionCalls.deletePartitions(b.redis, b.name, partitions);
  }

  private static void checkPartitionBits(long bits, String what) {
    if (bits > RedisBloomFilter.MAX_PARTITION_BITS) {
      throw new IllegalArgumentException(what + " needs " + bits + " bits in a partition, past the "
          + RedisBloomFilter.MAX_PARTITION_BITS + " (2^32) a Redis string can hold; use more partitions");
    }
  }
}
