package org.concurrentbloom.benchmarks.strategies;

/** The four thread-safety strategies, as a JMH {@code @Param}. */
public enum Strategy {
  /** (a) lock-free CAS on the words: {@link AtomicWordsBits}. */
  ATOMIC_CAS,
  /** (b) one read-write lock: {@link ReadWriteLockBits}. */
  READ_WRITE_LOCK,
  /** (c) 64 locks over stripes of the array, one probe at a time: {@link StripedLockBits}. */
  STRIPED_LOCKS,
  /** (d) one monitor: {@link SynchronizedBits}. */
  SYNCHRONIZED;

  /** An empty filter for n keys at false-positive rate fpp, safe in this strategy's way. */
  public ConcurrentBits create(long n, double fpp) {
    return switch (this) {
      case ATOMIC_CAS -> new AtomicWordsBits(n, fpp);
      case READ_WRITE_LOCK -> new ReadWriteLockBits(n, fpp);
      case STRIPED_LOCKS -> new StripedLockBits(n, fpp);
      case SYNCHRONIZED -> new SynchronizedBits(n, fpp);
    };
  }
}
