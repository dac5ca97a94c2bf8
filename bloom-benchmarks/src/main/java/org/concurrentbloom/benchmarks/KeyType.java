package org.concurrentbloom.benchmarks;

/** The two kinds of key the suite measures: e-mail-like strings and longs (boxed, as the APIs take them). */
public enum KeyType {
  STRING {
    @Override
    public Object key(long index) {
      return Keys.email(index);
    }
  },
  LONG {
    @Override
    public Object key(long index) {
      return Keys.longKey(index);
    }
  };

  /** Key number {@code index}; see {@link Keys}. */
  public abstract Object key(long index);
}
