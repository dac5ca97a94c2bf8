package org.concurrentbloom.benchmarks.strategies;

/**
 * Strategy (d): every add and every query holds the filter's monitor. The simplest correct answer, and
 * the baseline of the comparison: queries exclude each other too, although they only read, and every
 * operation of every thread contends for the one lock word.
 */
public final class SynchronizedBits implements ConcurrentBits {
  private final PlainBits bits;

  public SynchronizedBits(long n, double fpp) {
    bits = new PlainBits(n, fpp);
  }

  @Override
  public synchronized boolean add(long h1, long h2) {
    return bits.add(h1, h2);
  }

  @Override
  public synchronized boolean mightContain(long h1, long h2) {
    return bits.mightContain(h1, h2);
  }
}
