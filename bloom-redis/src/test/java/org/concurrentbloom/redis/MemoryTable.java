package org.concurrentbloom.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.concurrentbloom.guard.KeySource;
import org.concurrentbloom.guard.ScanResult;

/**
 * An in-memory table of String keys with increasing ids, and a key source over it that behaves like a
 * query at READ COMMITTED: a scan sees every row inserted before it started. Several guards (the
 * application instances of a test) may share one table. Hooks let a test hold a scan after it took
 * its snapshot, and count overlapping scans.
 */
final class MemoryTable implements KeySource<String> {
  private final ConcurrentSkipListMap<Long, String> rows = new ConcurrentSkipListMap<>();
  private final Map<String, Long> ids = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  private final AtomicInteger scanning = new AtomicInteger();

  final AtomicInteger scanAllCalls = new AtomicInteger();
  final AtomicInteger scanAfterCalls = new AtomicInteger();
  /** The most scans that ever ran at once. */
  final AtomicInteger maxConcurrentScans = new AtomicInteger();
  /** Runs in each scan after it took its snapshot and streamed it, before it returns. */
  volatile Runnable afterScan = () -> { };

  /** A table of {@code prefix}0 .. {@code prefix}(n-1). */
  static MemoryTable of(String prefix, int n) {
    MemoryTable table = new MemoryTable();
    for (int i = 0; i < n; i++) {
      table.insert(prefix + i);
    }
    return table;
  }

  /** Inserts and commits {@code key}; false if it is already there. */
  boolean insert(String key) {
    long id = nextId.getAndIncrement();
    if (ids.putIfAbsent(key, id) != null) {
      return false;
    }
    rows.put(id, key);
    return true;
  }

  void delete(String key) {
    Long id = ids.remove(key);
    if (id != null) {
      rows.remove(id);
    }
  }

  /** Every key now. */
  List<String> keys() {
    return new ArrayList<>(rows.values());
  }

  @Override
  public ScanResult scanAll(Consumer<? super String> sink) {
    scanAllCalls.incrementAndGet();
    return stream(new ArrayList<>(rows.entrySet()), sink);
  }

  @Override
  public boolean supportsWatermark() {
    return true;
  }

  @Override
  public ScanResult scanAfter(long after, Consumer<? super String> sink) {
    scanAfterCalls.incrementAndGet();
    return stream(new ArrayList<>(rows.tailMap(after, false).entrySet()), sink);
  }

  private ScanResult stream(List<Map.Entry<Long, String>> snapshot, Consumer<? super String> sink) {
    int now = scanning.incrementAndGet();
    maxConcurrentScans.accumulateAndGet(now, Math::max);
    try {
      long max = Long.MIN_VALUE;
      for (Map.Entry<Long, String> row : snapshot) {
        sink.accept(row.getValue());
        max = Math.max(max, row.getKey());
      }
      afterScan.run();
      return snapshot.isEmpty() ? ScanResult.of(0) : ScanResult.of(snapshot.size(), max);
    } finally {
      scanning.decrementAndGet();
    }
  }
}
