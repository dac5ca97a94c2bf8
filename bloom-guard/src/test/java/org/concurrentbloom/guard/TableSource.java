package org.concurrentbloom.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * An in-memory "table" of String keys with ids, and a {@link KeySource} over it that behaves like a
 * database query at READ COMMITTED: a scan sees exactly the rows committed before it started. Hooks let
 * a test stop a scan at a chosen point (with latches) or make it fail. Several guards (the application
 * instances of a test) may share one table. Public, in the module's test jar, for the backends' tests
 * in other modules (bloom-redis).
 */
public final class TableSource implements KeySource<String> {
  private final ConcurrentSkipListMap<Long, String> rows = new ConcurrentSkipListMap<>();
  private final Map<String, Long> ids = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  private final AtomicInteger scanning = new AtomicInteger();
  private final boolean watermark;

  public final AtomicInteger scanAllCalls = new AtomicInteger();
  public final AtomicInteger scanAfterCalls = new AtomicInteger();
  /** The most scans that ever ran at once. */
  public final AtomicInteger maxConcurrentScans = new AtomicInteger();
  /** Scans that must still fail before one succeeds. */
  public final AtomicInteger failuresToInject = new AtomicInteger();
  /** Runs in each scan after its snapshot was taken and half of its keys were streamed. */
  public volatile Runnable midScan = () -> { };

  /** An empty table; {@code watermark}: whether its ids serve as a watermark column. */
  public TableSource(boolean watermark) {
    this.watermark = watermark;
  }

  /** A table with a watermark, holding {@code prefix}0 .. {@code prefix}(n-1). */
  public static TableSource of(String prefix, int n) {
    TableSource table = new TableSource(true);
    for (int i = 0; i < n; i++) {
      table.insert(prefix + i);
    }
    return table;
  }

  /** Holds the next scan once it took its snapshot and streamed half its keys, until resumed. */
  public Pause pauseNextScan() {
    Pause pause = new Pause();
    midScan = () -> {
      midScan = () -> { };
      pause.paused.countDown();
      Latches.await(pause.resume);
    };
    return pause;
  }

  /** A scan held by {@link #pauseNextScan()}. */
  public static final class Pause {
    private final CountDownLatch paused = new CountDownLatch(1);
    private final CountDownLatch resume = new CountDownLatch(1);

    /** Waits (up to 30 s) until the scan is held. */
    public void awaitPaused() {
      Latches.await(paused);
    }

    /** Lets the scan go on. */
    public void resume() {
      resume.countDown();
    }
  }

  /** Inserts and commits {@code key}; false if it is already there (a unique violation). */
  public boolean insert(String key) {
    long id = nextId.getAndIncrement();
    if (ids.putIfAbsent(key, id) != null) {
      return false;
    }
    rows.put(id, key);
    return true;
  }

  public void delete(String key) {
    Long id = ids.remove(key);
    if (id != null) {
      rows.remove(id);
    }
  }

  public boolean contains(String key) {
    return ids.containsKey(key);
  }

  /** Every key now. */
  public List<String> keys() {
    return new ArrayList<>(rows.values());
  }

  @Override
  public ScanResult scanAll(Consumer<? super String> sink) {
    scanAllCalls.incrementAndGet();
    return stream(new ArrayList<>(rows.entrySet()), sink);
  }

  @Override
  public boolean supportsWatermark() {
    return watermark;
  }

  @Override
  public ScanResult scanAfter(long after, Consumer<? super String> sink) {
    if (!watermark) {
      throw new UnsupportedOperationException("no watermark");
    }
    scanAfterCalls.incrementAndGet();
    return stream(new ArrayList<>(rows.tailMap(after, false).entrySet()), sink);
  }

  private ScanResult stream(List<Map.Entry<Long, String>> snapshot, Consumer<? super String> sink) {
    maxConcurrentScans.accumulateAndGet(scanning.incrementAndGet(), Math::max);
    try {
      long max = Long.MIN_VALUE;
      int half = snapshot.size() / 2;
      for (int i = 0; i <= snapshot.size(); i++) {
        if (i == half) {
          midScan.run();
          if (failuresToInject.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("injected source failure");
          }
        }
        if (i < snapshot.size()) {
          sink.accept(snapshot.get(i).getValue());
          max = Math.max(max, snapshot.get(i).getKey());
        }
      }
      return !watermark || snapshot.isEmpty() ? ScanResult.of(snapshot.size()) : ScanResult.of(snapshot.size(), max);
    } finally {
      scanning.decrementAndGet();
    }
  }
}
