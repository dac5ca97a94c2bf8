package org.concurrentbloom.redis;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.concurrentbloom.ConcurrentRun;

/**
 * How the queries of a set of keys that were all added came out: how many answered true, how many
 * false, and how many threw {@link RedisFilterException}. A filter may refuse to answer (throw) when it
 * cannot know; an answer of false for an added key is the defect the issue-22 tests look for. Immutable.
 *
 * @param keys how many keys were asked
 * @param trueAnswers answers true
 * @param falseAnswers answers false
 * @param threw queries that threw a RedisFilterException
 * @param firstThrow the message of the first exception, or null if none threw
 */
record Answers(int keys, int trueAnswers, int falseAnswers, int threw, String firstThrow) {
  /** Asks {@code query} about every key, one call each, so that each key's outcome is counted. */
  static <T> Answers ask(List<T> keys, Predicate<T> query) {
    int yes = 0;
    int no = 0;
    int threw = 0;
    String first = null;
    for (T key : keys) {
      try {
        if (query.test(key)) {
          yes++;
        } else {
          no++;
        }
      } catch (RedisFilterException e) {
        threw++;
        if (first == null) {
          first = e.getMessage();
        }
      }
    }
    return new Answers(keys.size(), yes, no, threw, first);
  }

  /**
   * {@link #ask}, the keys split into {@code threads} slices asked at once (an expiring filter has no
   * batch query, and one round trip at a time leaves the server mostly idle).
   */
  static <T> Answers askConcurrently(List<T> keys, Predicate<T> query, int threads) throws InterruptedException {
    Answers[] parts = new Answers[threads];
    ConcurrentRun.together(threads, i -> parts[i] = ask(slice(keys, i, threads), query));
    Answers total = new Answers(0, 0, 0, 0, null);
    for (Answers part : parts) { // written by the joined threads: the joins order those writes before these reads
      total = total.plus(part);
    }
    return total;
  }

  /** Slice {@code i} of {@code n} near-equal contiguous slices of {@code keys}. */
  static <T> List<T> slice(List<T> keys, int i, int n) {
    return keys.subList(keys.size() * i / n, keys.size() * (i + 1) / n);
  }

  /**
   * Asks a standard filter about every key in pipelined batches of 10,000 (a failover test has ~10^5
   * keys, too many for one round trip each); a batch that throws is asked again one key at a time, so
   * each key's own outcome is still counted.
   */
  static Answers askInBatches(RedisBloomFilter<CharSequence> filter, List<String> keys) {
    Answers total = new Answers(0, 0, 0, 0, null);
    for (int from = 0; from < keys.size(); from += RedisBloomFilter.BATCH_CHUNK) {
      List<String> chunk = keys.subList(from, Math.min(keys.size(), from + RedisBloomFilter.BATCH_CHUNK));
      Answers part;
      try {
        boolean[] answers = filter.mightContainAll(chunk);
        int yes = 0;
        for (boolean a : answers) {
          yes += a ? 1 : 0;
        }
        part = new Answers(chunk.size(), yes, chunk.size() - yes, 0, null);
      } catch (RedisFilterException e) {
        part = ask(chunk, filter::mightContain);
      }
      total = total.plus(part);
    }
    return total;
  }

  private Answers plus(Answers other) {
    return new Answers(keys + other.keys, trueAnswers + other.trueAnswers, falseAnswers + other.falseAnswers,
        threw + other.threw, firstThrow != null ? firstThrow : other.firstThrow);
  }

  /** E.g. "2,000 keys: 484 false, 1,516 threw, 0 true", and the first exception's message if one threw. */
  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%,d keys: %,d false, %,d threw, %,d true", keys, falseAnswers, threw,
        trueAnswers) + (firstThrow == null ? "" : " (first exception: " + firstThrow + ")");
  }
}
