package org.concurrentbloom;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.concurrentbloom.benchmarks.FastFilterBloom;
import org.fastfilter.bloom.BlockedBloom;

/**
 * Where a 64-bit lookup's time goes (docs/BENCHMARKS.md, issue 24): one JVM, the parts timed in turn,
 * round after round, and the least time of each part over the rounds printed (this machine is noisy; the
 * least is the run with the fewest interruptions). In this package because the parts are the library's
 * package-private layers: the word-pair test on precomputed hashes, the table and seal checks, the hash.
 *
 * <pre>
 *   java -cp bloom-benchmarks/target/benchmarks.jar org.concurrentbloom.LongPathParts [n] [rounds]
 * </pre>
 *
 * Parts, in ns per key over 4M half-present queries: {@code fastfilter} (BlockedBloom.mayContain, hash
 * included); {@code mightContainLong}; {@code mightContainAll} (per key); {@code hashedQuery} (ours on
 * precomputed XXH3 hashes: table, seal and layout); {@code layoutTest} (the layout's test alone on
 * precomputed hashes); {@code xxh3} (the hash alone); {@code k6Inline} (the same test with k = 6 written
 * in: the floor of this layout's arithmetic); {@code fastfilterLayout} (FastFilter's layout on our
 * words, hash precomputed: the same floor for 4 bits in 2 words); {@code casOnCachedLine} and
 * {@code plainOrOnCachedLine} (one compare-and-exchange, or one plain OR, on a word in L1: the price of a
 * thread-safe write). Then adds of the n keys, per key, into
 * an empty filter made before the clock starts: {@code fastfilterAdd}, {@code addLong}, {@code addAll}.
 *
 * <p>Not a JMH benchmark: a quick decomposition. The JMH figures are LongPathBenchmark's.
 */
public final class LongPathParts {
  private static final Hasher64 XXH3 = Hashing.xxh3_64();
  private static final long REMIX = 0x9E3779B97F4A7C15L;
  private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

  private final int n;
  private final long[] keys;
  private final BlockedBloom fast;
  private final BloomFilter<Long> ours;
  private final WordPairLayout layout;
  private final long[] words;
  private final long[] queries;
  private final long[] hashed;
  /** 8 KiB of words, always cached: the CAS and OR parts. */
  private final long[] cached = new long[1024];

  private LongPathParts(int n) {
    this.n = n;
    SplittableRandom random = new SplittableRandom(42);
    keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = random.nextLong();
    }
    int count = 1 << 22;
    queries = new long[count];
    hashed = new long[count];
    for (int i = 0; i < count; i++) {
      queries[i] = (i & 1) == 0 ? keys[random.nextInt(n)] : random.nextLong();
      hashed[i] = XXH3.hashLongToLong(queries[i]);
    }
    fast = FastFilterBloom.empty(n);
    ours = BloomFilter.builder(Funnels.longFunnel()).expectedInsertions(n).fpp(0.01).blocked().build();
    for (long k : keys) {
      fast.add(k);
      ours.addLong(k);
    }
    layout = (WordPairLayout) ours.layout();
    words = ours.currentTable().words;
    if (layout.hashFunctions != 6) {
      throw new IllegalStateException("k6Inline assumes k = 6 at p = 1%, the layout has " + layout.hashFunctions);
    }
  }

  long fastfilter() {
    long s = 0;
    for (long k : queries) {
      s += fast.mayContain(k) ? 1 : 0;
    }
    return s;
  }

  long mightContainLong() {
    long s = 0;
    for (long k : queries) {
      s += ours.mightContainLong(k) ? 1 : 0;
    }
    return s;
  }

  long mightContainAll() {
    long s = 0;
    for (boolean b : ours.mightContainAll(queries)) {
      s += b ? 1 : 0;
    }
    return s;
  }

  long hashedQuery() {
    long s = 0;
    for (long h : hashed) {
      s += ours.mightContainHashed(h, 0) ? 1 : 0;
    }
    return s;
  }

  long layoutTest() {
    long s = 0;
    for (long h : hashed) {
      s += layout.test(words, h, 0) ? 1 : 0;
    }
    return s;
  }

  long xxh3() {
    long s = 0;
    for (long k : queries) {
      s += XXH3.hashLongToLong(k);
    }
    return s;
  }

  long k6Inline() {
    long[] w = words;
    long blocks = w.length / 8;
    long s = 0;
    for (long h : hashed) {
      int base = (int) (Probes.reduce(h, blocks) << 3);
      long g = h * REMIX;
      long a = AtomicWords.getAcquire(w, base + (int) (g & 3));
      long b = AtomicWords.getAcquire(w, base + 4 + (int) ((g >>> 2) & 3));
      long ma = (1L << (g >>> 58)) | (1L << (g >>> 52)) | (1L << (g >>> 46));
      long mb = (1L << (g >>> 40)) | (1L << (g >>> 34)) | (1L << (g >>> 28));
      s += ((~a & ma) | (~b & mb)) == 0 ? 1 : 0;
    }
    return s;
  }

  long fastfilterLayout() {
    long[] w = words;
    long blocks = w.length / 8;
    long s = 0;
    for (long h : hashed) {
      int base = (int) (Probes.reduce(h, blocks) << 3);
      long a = w[base];
      long b = w[base + 4 + (int) (h >>> 62)];
      long ma = (1L << h) | (1L << (h >> 6));
      long mb = (1L << (h >> 12)) | (1L << (h >> 18));
      s += ((~a & ma) | (~b & mb)) == 0 ? 1 : 0;
    }
    return s;
  }

  private BloomFilter<Long> emptyOurs() {
    return BloomFilter.builder(Funnels.longFunnel()).expectedInsertions(n).fpp(0.01).blocked().build();
  }

  /** Adds are timed here, per key, into a filter made before the clock starts. */
  long fastfilterAdd() {
    BlockedBloom empty = FastFilterBloom.empty(n);
    long t0 = System.nanoTime();
    for (long k : keys) {
      empty.add(k);
    }
    return System.nanoTime() - t0;
  }

  long addLong() {
    BloomFilter<Long> empty = emptyOurs();
    long t0 = System.nanoTime();
    for (long k : keys) {
      empty.addLong(k);
    }
    return System.nanoTime() - t0;
  }

  long addAll() {
    BloomFilter<Long> empty = emptyOurs();
    long t0 = System.nanoTime();
    empty.addAll(keys);
    return System.nanoTime() - t0;
  }

  /** The price of a thread-safe write on a cached line: one compare-and-exchange per key. */
  long casOnCachedLine() {
    long[] w = cached;
    long s = 0;
    for (int i = 0; i < queries.length; i++) {
      int j = (i * 7) & 1023;
      long seen = (long) WORD.getAcquire(w, j);
      s += (long) WORD.compareAndExchange(w, j, seen, seen | (1L << i));
    }
    return s;
  }

  /** The same writes as plain ORs, as FastFilter's add makes them. */
  long plainOrOnCachedLine() {
    long[] w = cached;
    long s = 0;
    for (int i = 0; i < queries.length; i++) {
      int j = (i * 7) & 1023;
      w[j] |= 1L << i;
      s += w[j];
    }
    return s;
  }

  /** Args: n (default 1000000), rounds (default 20; the first 3 are warm-up). */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    LongPathParts p = new LongPathParts(n);
    String[] names = {"fastfilter", "mightContainLong", "mightContainAll", "hashedQuery", "layoutTest", "xxh3",
        "k6Inline", "fastfilterLayout", "casOnCachedLine", "plainOrOnCachedLine"};
    LongSupplier[] parts = {p::fastfilter, p::mightContainLong, p::mightContainAll, p::hashedQuery, p::layoutTest,
        p::xxh3, p::k6Inline, p::fastfilterLayout, p::casOnCachedLine, p::plainOrOnCachedLine};
    String[] addNames = {"fastfilterAdd", "addLong", "addAll"};
    LongSupplier[] adds = {p::fastfilterAdd, p::addLong, p::addAll};
    double[] least = new double[parts.length + adds.length];
    Arrays.fill(least, Double.MAX_VALUE);
    long sink = 0;
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < parts.length; i++) {
        long t0 = System.nanoTime();
        sink += parts[i].getAsLong();
        double perKey = (System.nanoTime() - t0) / (double) p.queries.length;
        if (round >= 3) {
          least[i] = Math.min(least[i], perKey);
        }
      }
      for (int i = 0; i < adds.length; i++) {
        double perKey = adds[i].getAsLong() / (double) n;
        if (round >= 3) {
          least[parts.length + i] = Math.min(least[parts.length + i], perKey);
        }
      }
    }
    StringBuilder line = new StringBuilder("n=" + n + ", least ns per key over " + (rounds - 3) + " rounds:");
    for (int i = 0; i < least.length; i++) {
      String name = i < names.length ? names[i] : addNames[i - names.length];
      line.append(String.format(Locale.ROOT, " %s %.2f", name, least[i]));
    }
    System.out.println(line);
    System.out.println("(checksum " + sink + ")");
  }
}
