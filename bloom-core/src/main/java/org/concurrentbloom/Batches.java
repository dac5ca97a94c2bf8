package org.concurrentbloom;

import java.util.List;
import java.util.Objects;

/**
 * {@link BloomFilter}'s batch adds and queries. They hash a chunk of items first, then read one word of
 * every item's block (or of every probe, for the standard layouts) in a loop whose loads do not depend
 * on each other, so the CPU keeps many cache misses in flight at once; the real adds and queries that
 * follow find their lines cached. A single add or query cannot do this: its next load waits on the
 * branch that tests the last one.
 *
 * <p>Stateless; any thread may call any method, with the guarantees of the single operations.
 */
final class Batches {
  private static final int BATCH = 32;
  /**
   * Word-pair queries warm the lines first only in filters above 4 MiB. Below, a miss is an L3 hit
   * (~19 ns dependent, bloom-facts), and the one branch-free test loop keeps enough of them in flight:
   * the extra pass cost ~10% at n = 1M. Above, misses also miss the TLB (~60 to 200 ns), and the short
   * warming loop keeps more of them in flight: at n = 10M it took the batch from 0.4x to 1.4x
   * FastFilter's single lookup (one-JVM alternating runs, noisy; docs/BENCHMARKS.md has the JMH run).
   */
  private static final int WARM_WORDS = (4 << 20) / Long.BYTES;

  private Batches() {}

  static <T> int addAll(BloomFilter<T> f, Iterable<? extends T> items) {
    long[] hashes = new long[2 * BATCH];
    long[] seen = new long[2 * BATCH];
    int changed = 0;
    int n = 0;
    HashingSink sink = HashingSink.acquire();
    try {
      for (T item : items) {
        hashInto(f, item, sink, hashes, n++);
        if (n == BATCH) {
          changed += addHashed(f, hashes, n, seen);
          n = 0;
        }
      }
    } finally {
      sink.release();
    }
    return changed + addHashed(f, hashes, n, seen);
  }

  static int addAll(BloomFilter<?> f, long[] keys) {
    long[] hashes = new long[2 * BATCH];
    long[] seen = new long[2 * BATCH];
    int changed = 0;
    for (int start = 0; start < keys.length; start += BATCH) {
      int n = Math.min(BATCH, keys.length - start);
      for (int i = 0; i < n; i++) {
        hashLong(f, keys[start + i], hashes, i);
      }
      changed += addHashed(f, hashes, n, seen);
    }
    return changed;
  }

  static <T> boolean[] mightContainAll(BloomFilter<T> f, List<? extends T> items) {
    boolean[] results = new boolean[items.size()];
    long[] hashes = new long[2 * BATCH];
    HashingSink sink = HashingSink.acquire();
    try {
      int n = 0;
      int start = 0;
      for (T item : items) {
        hashInto(f, item, sink, hashes, n++);
        if (n == BATCH) {
          mightContainHashed(f, hashes, n, results, start);
          start += n;
          n = 0;
        }
      }
      mightContainHashed(f, hashes, n, results, start);
    } finally {
      sink.release();
    }
    return results;
  }

  static boolean[] mightContainAll(BloomFilter<?> f, long[] keys) {
    boolean[] results = new boolean[keys.length];
    long[] hashes = new long[2 * BATCH];
    for (int start = 0; start < keys.length; start += BATCH) {
      int n = Math.min(BATCH, keys.length - start);
      for (int i = 0; i < n; i++) {
        hashLong(f, keys[start + i], hashes, i);
      }
      mightContainHashed(f, hashes, n, results, start);
    }
    return results;
  }

  private static <T> void hashInto(BloomFilter<T> f, T item, HashingSink sink, long[] hashes, int i) {
    Objects.requireNonNull(item, "item"); // as add(null) does, whatever the funnel would make of it
    sink.hash(item, f.funnel(), f.hashStrategy());
    hashes[2 * i] = sink.h1;
    hashes[2 * i + 1] = sink.h2;
  }

  private static void hashLong(BloomFilter<?> f, long v, long[] hashes, int i) {
    if (f.usesXxh3()) {
      long h = Xxh3Keys.ofLong(v);
      hashes[2 * i] = h;
      hashes[2 * i + 1] = f.second(h);
    } else {
      hashes[2 * i] = Murmur3.longH1(v);
      hashes[2 * i + 1] = Murmur3.longH2(v);
    }
  }

  private static int addHashed(BloomFilter<?> f, long[] hashes, int n, long[] seen) {
    if (f.layout() instanceof WordPairLayout pairs) {
      return f.addAllWordPair(pairs, hashes, n, seen);
    }
    warm(f, f.currentTable().words, hashes, n);
    int changed = 0;
    for (int i = 0; i < n; i++) {
      if (f.addHashed(hashes[2 * i], hashes[2 * i + 1])) {
        changed++;
      }
    }
    return changed;
  }

  private static void mightContainHashed(BloomFilter<?> f, long[] hashes, int n, boolean[] results, int offset) {
    BitTable t = f.currentTable();
    if (f.layout() instanceof WordPairLayout pairs) {
      // The protocol of one query for the batch as a whole: every item's words are read, then the seal
      // once; if it was sealed meanwhile, the items found present ask again through the protocol.
      if (t.words.length > WARM_WORDS) {
        warm(f, t.words, hashes, n);
      }
      pairs.testAll(t.words, hashes, n, results, offset);
      if (t.nextVolatile() != null) {
        for (int i = 0; i < n; i++) {
          results[offset + i] = results[offset + i] && f.mightContainHashed(t, hashes[2 * i], hashes[2 * i + 1]);
        }
      }
      return;
    }
    warm(f, t.words, hashes, n);
    for (int i = 0; i < n; i++) {
      results[offset + i] = f.mightContainHashed(t, hashes[2 * i], hashes[2 * i + 1]);
    }
  }

  private static void warm(BloomFilter<?> f, long[] words, long[] hashes, int n) {
    Layout layout = f.layout();
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += layout.touch(words, hashes[2 * i], hashes[2 * i + 1]);
    }
    f.keepWarmed(sum);
  }
}
