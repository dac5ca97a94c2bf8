package org.concurrentbloom.benchmarks.profile;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher128;
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
 * Issue 14: the cost per key of candidate hashes for a new strategy, on the query keys of
 * {@code MightContainBenchmark} (the e-mail-like Strings, and the long keys as the boxed Longs the
 * filters take), against what strategy 1 does today ({@code BitIndexer.hash}: UTF-8 into the per-thread
 * buffer, then MurmurHash3 x64 128). The candidates are hash4j's (com.dynatrace.hash4j 0.25.0):
 * XXH3 64 and 128, rapidhash v3, komihash 5.0 and wyhash final 4.
 *
 * <p>The {@code *Chars} benchmarks hash the String's UTF-16 code units as hash4j defines it
 * ({@code hashCharsToLong}: each char as 2 little-endian bytes), which is a different value from a hash of
 * the UTF-8 bytes; {@link #xxh3_64Utf8} hashes the same UTF-8 bytes as strategy 1 (through the
 * {@link FunnelEncoding} replica), to separate the encoding from the hash. {@link #readString} and
 * {@link #readLong} are the baselines: the key read alone. Every hash is seeded with the library's
 * default (none given). Run with {@code -prof gc}: {@code hashCharsTo128Bits} returns a
 * {@link HashValue128} object, whose allocation only escape analysis can remove.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Threads(1)
public class HashCandidateBenchmark {
  private static final Hasher64 XXH3_64 = Hashing.xxh3_64();
  private static final Hasher128 XXH3_128 = Hashing.xxh3_128();
  private static final Hasher64 RAPIDHASH3 = Hashing.rapidhash3();
  private static final Hasher64 KOMIHASH5 = Hashing.komihash5_0();
  private static final Hasher64 WYHASH4 = Hashing.wyhashFinal4();

  @Benchmark
  public long readString(ProfileStates.StringKeys state, ThreadCursor cursor) {
    return ProfileBenchmark.touch(state.next(cursor));
  }

  @Benchmark
  public long murmur3Utf8Ours(ProfileStates.StringKeys state, ThreadCursor cursor, ProfileStates.Scratch scratch) {
    long[] out = scratch.hash;
    state.indexer.hash(state.next(cursor), out);
    return out[0] ^ out[1];
  }

  @Benchmark
  public long xxh3_64Utf8(ProfileStates.StringKeys state, ThreadCursor cursor, ProfileStates.Scratch scratch) {
    int len = scratch.encoding.encode((String) state.next(cursor));
    return XXH3_64.hashBytesToLong(scratch.encoding.buffer(), 0, len);
  }

  /**
   * Not an exact encoding, a lower bound: {@code String.getBytes(int, int, byte[], int)} copies the low
   * byte of every char into a reused buffer without allocating (a bulk copy for a compact Latin-1
   * String). It equals the UTF-8 bytes only when every char is ASCII, which this copy cannot tell by
   * itself (a char above U+00FF loses its high byte), so a real path would add a check and a fallback.
   */
  @Benchmark
  @SuppressWarnings("deprecation") // the one String method that copies bytes out without allocating
  public int latin1BulkCopy(ProfileStates.StringKeys state, ThreadCursor cursor, ProfileStates.Scratch scratch) {
    String s = (String) state.next(cursor);
    int len = s.length();
    byte[] out = scratch.bulk;
    s.getBytes(0, len, out, 0);
    return len + out[len - 1];
  }

  /** {@link #latin1BulkCopy} then XXH3 64 of those bytes: the same caveat. */
  @Benchmark
  @SuppressWarnings("deprecation")
  public long xxh3_64Latin1Bulk(ProfileStates.StringKeys state, ThreadCursor cursor, ProfileStates.Scratch scratch) {
    String s = (String) state.next(cursor);
    int len = s.length();
    byte[] out = scratch.bulk;
    s.getBytes(0, len, out, 0);
    return XXH3_64.hashBytesToLong(out, 0, len);
  }

  @Benchmark
  public long xxh3_64Chars(ProfileStates.StringKeys state, ThreadCursor cursor) {
    return XXH3_64.hashCharsToLong((String) state.next(cursor));
  }

  @Benchmark
  public long rapidhash3Chars(ProfileStates.StringKeys state, ThreadCursor cursor) {
    return RAPIDHASH3.hashCharsToLong((String) state.next(cursor));
  }

  @Benchmark
  public long komihash5Chars(ProfileStates.StringKeys state, ThreadCursor cursor) {
    return KOMIHASH5.hashCharsToLong((String) state.next(cursor));
  }

  @Benchmark
  public long wyhashFinal4Chars(ProfileStates.StringKeys state, ThreadCursor cursor) {
    return WYHASH4.hashCharsToLong((String) state.next(cursor));
  }

  /** Both 64-bit halves taken out, as a filter would use them; the object itself is not kept. */
  @Benchmark
  public long xxh3_128CharsHalves(ProfileStates.StringKeys state, ThreadCursor cursor) {
    HashValue128 hash = XXH3_128.hashCharsTo128Bits((String) state.next(cursor));
    return hash.getLeastSignificantBits() ^ hash.getMostSignificantBits();
  }

  /** The object handed to JMH, so it must exist: the allocation escape analysis cannot remove. */
  @Benchmark
  public HashValue128 xxh3_128CharsObject(ProfileStates.StringKeys state, ThreadCursor cursor) {
    return XXH3_128.hashCharsTo128Bits((String) state.next(cursor));
  }

  @Benchmark
  public long readLong(ProfileStates.LongKeys state, ThreadCursor cursor) {
    return ProfileBenchmark.touch(state.next(cursor));
  }

  @Benchmark
  public long murmur3LongOurs(ProfileStates.LongKeys state, ThreadCursor cursor, ProfileStates.Scratch scratch) {
    long[] out = scratch.hash;
    state.indexer.hash(state.next(cursor), out);
    return out[0] ^ out[1];
  }

  @Benchmark
  public long xxh3_64Long(ProfileStates.LongKeys state, ThreadCursor cursor) {
    return XXH3_64.hashLongToLong((Long) state.next(cursor));
  }

  @Benchmark
  public long rapidhash3Long(ProfileStates.LongKeys state, ThreadCursor cursor) {
    return RAPIDHASH3.hashLongToLong((Long) state.next(cursor));
  }

  @Benchmark
  public long komihash5Long(ProfileStates.LongKeys state, ThreadCursor cursor) {
    return KOMIHASH5.hashLongToLong((Long) state.next(cursor));
  }

  @Benchmark
  public long wyhashFinal4Long(ProfileStates.LongKeys state, ThreadCursor cursor) {
    return WYHASH4.hashLongToLong((Long) state.next(cursor));
  }
}
