package org.concurrentbloom.benchmarks.profile;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.concurrent.TimeUnit;
import org.concurrentbloom.benchmarks.ThreadCursor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 14, "profile before choosing": where the time of one standard-layout {@code mightContain} goes,
 * measured in parts on the query array of {@code MightContainBenchmark} (p = 1%, n = 1M and 10M, String
 * and long keys). Steps 1 to 3 are cumulative (each does one thing more than the one before, so the
 * difference between two rows is the cost of the thing added, up to what the CPU overlaps); step 4 is
 * the memory part alone and step 5 the whole lookup:
 *
 * <ol>
 *   <li>{@link #readKey}: take the next key from the array and touch it (a String's length and first
 *       char, which loads its object and its byte array; a Long's value);
 *   <li>{@link #encode}: the same, plus the UTF-8 encoding the string funnel hashes, into a reused
 *       buffer (a replica of bloom-core's package-private code: {@link FunnelEncoding}); String keys
 *       only, since a long key's 8 bytes are hashed without being written anywhere;
 *   <li>{@link #hash}: read, encode and hash exactly as a strategy-1 filter does, through the public
 *       {@code BitIndexer.hash} (per-thread sink, encoding, MurmurHash3 x64 128);
 *   <li>{@link #hashXxh3}: read and hash as a strategy-4 filter (the default) does: XXH3-64 of the
 *       String's chars or of the long, and h2 from h1 ({@link #xxh3H2}, a replica of bloom-core's
 *       package-private code, checked against docs/HASHING.md's vectors by ProfileReplicaTest);
 *   <li>{@link #memoryOnly}: no key at all: the query's (h1, h2) is read from an array computed in
 *       advance, then the filter's bits are tested. There is no public query path taking a hash, so this
 *       runs on {@link EmulatedBits}, a copy of the standard layout's query over the same m and k with strategy 1's
 *       bits (the memory access does not depend on which hash placed them);
 *   <li>{@link #mightContain}: the real thing, {@code BloomFilter.mightContain} (strategy 4), and
 *       {@link #mightContainMurmur3}, the same with strategy 1.
 * </ol>
 *
 * <p>Run with {@code -prof gc}: every row should allocate nothing per operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Threads(1)
public class ProfileBenchmark {
  private static final Hasher64 XXH3 = Hashing.xxh3_64();

  @Benchmark
  public long readKey(ProfileStates.AnyKeys state, ThreadCursor cursor) {
    return touch(state.next(cursor));
  }

  @Benchmark
  public int encode(ProfileStates.StringKeys state, ThreadCursor cursor, ProfileStates.Scratch scratch) {
    String s = (String) state.next(cursor);
    int len = scratch.encoding.encode(s);
    return len + scratch.encoding.buffer()[len - 1];
  }

  @Benchmark
  public long hash(ProfileStates.AnyKeys state, ThreadCursor cursor, ProfileStates.Scratch scratch) {
    long[] out = scratch.hash;
    state.indexer.hash(state.next(cursor), out);
    return out[0] ^ out[1];
  }

  @Benchmark
  public long hashXxh3(ProfileStates.AnyKeys state, ThreadCursor cursor) {
    long h1 = xxh3H1(state.next(cursor));
    return h1 ^ xxh3H2(h1);
  }

  @Benchmark
  public boolean memoryOnly(ProfileStates.Hashed state, ThreadCursor cursor) {
    int i = cursor.nextMasked(state.queries.length - 1);
    return state.bits.test(state.hashes[2 * i], state.hashes[2 * i + 1]);
  }

  @Benchmark
  public boolean mightContain(ProfileStates.Filled state, ThreadCursor cursor) {
    return state.filter.mightContain(state.next(cursor));
  }

  @Benchmark
  public boolean mightContainMurmur3(ProfileStates.FilledMurmur3 state, ThreadCursor cursor) {
    return state.filter.mightContain(state.next(cursor));
  }

  /** h1 of strategy 4 for a String or Long key (docs/HASHING.md, section 7). */
  static long xxh3H1(Object key) {
    return key instanceof String s ? XXH3.hashCharsToLong(s) : XXH3.hashLongToLong((Long) key);
  }

  /** h2 of strategy 4: the SplitMix64 finalizer of h1 + the golden-ratio increment. */
  static long xxh3H2(long h1) {
    long z = h1 + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Loads a key the way every later step must: a String's header, its array's length and first byte. */
  static long touch(Object key) {
    if (key instanceof String s) {
      return (long) s.length() + s.charAt(0);
    }
    return (Long) key;
  }
}
