package org.concurrentbloom.redis;

import java.util.ArrayList;
import java.util.List;

/** Deterministic String keys for the tests: prefix + i. */
final class TestKeys {
  private TestKeys() {}

  /** prefix + i for i in [0, n). */
  static List<String> keys(String prefix, int n) {
    return keys(prefix, 0, n);
  }

  /** prefix + i for i in [from, to). */
  static List<String> keys(String prefix, int from, int to) {
    List<String> keys = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      keys.add(prefix + i);
    }
    return keys;
  }
}
