package org.concurrentbloom.guard;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * A guard's snapshots: loads the stored one at start if it can serve this guard, writes the live filter
 * after each build and at close, and counts the writes that failed. A snapshot that cannot be used or
 * written never stops the guard: it builds from the source instead, and keeps the previous snapshot.
 *
 * <p>Threads: {@link #load} and {@link #write} from the guard's build thread, or from {@code close()}
 * once that thread has stopped, so never two at once, as {@link SnapshotStore} requires;
 * {@link #finalWriteSkipped} from {@code close()} while the build thread may still run (it touches only
 * the counters); {@link #failures} and {@link #lastError} from any thread.
 */
final class GuardSnapshots<K> {
  /** MembershipGuard's logger, not this class's: the one applications configure and tests capture. */
  private static final Logger LOG = System.getLogger(MembershipGuard.class.getName());

  private final GuardConfig<K> config;
  private final GuardFilters<K> filters;
  private final LongAdder failures = new LongAdder();
  private volatile String lastError;

  GuardSnapshots(GuardConfig<K> config, GuardFilters<K> filters) {
    this.config = config;
    this.filters = filters;
  }

  /** True if the guard has a snapshot store. */
  boolean enabled() {
    return config.snapshotStore() != null;
  }

  /** The stored snapshot if it is valid, of this guard's configuration and can be caught up; logs why not. */
  Optional<SnapshotCodec.Snapshot<K>> load() {
    String name = config.name();
    SnapshotStore store = config.snapshotStore();
    SnapshotCodec.Snapshot<K> s;
    Optional<InputStream> stream;
    try {
      stream = store.read();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, () -> "guard " + name + ": cannot open the snapshot in " + store
          + "; rebuilding from the source", e);
      return Optional.empty();
    }
    if (stream.isEmpty()) {
      LOG.log(Level.DEBUG, () -> "guard " + name + ": no snapshot in " + store + "; building from the source");
      return Optional.empty();
    }
    try (InputStream in = stream.get()) {
      s = SnapshotCodec.read(in, config.funnel());
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, () -> "guard " + name + ": ignoring the snapshot in " + store + ", it is "
          + "not valid (" + e.getMessage() + "); rebuilding from the source");
      return Optional.empty();
    }
    String mismatch = mismatch(s);
    if (mismatch != null) {
      LOG.log(Level.WARNING, () -> "guard " + name + ": ignoring the snapshot in " + store + ": "
          + mismatch + "; rebuilding from the source");
      return Optional.empty();
    }
    return Optional.of(s);
  }

  /** Why snapshot {@code s} cannot serve this guard, or null if it can. */
  private String mismatch(SnapshotCodec.Snapshot<K> s) {
    String name = config.name();
    long configuredInsertions = config.expectedInsertions();
    double fpp = config.fpp();
    int layout = config.layout().id();
    if (!s.name().equals(name)) {
      return "it belongs to guard \"" + s.name() + "\", not \"" + name + "\"";
    }
    if (s.configuredInsertions() != configuredInsertions || Double.compare(s.configuredFpp(), fpp) != 0
        || s.layout() != layout) {
      return "it was written for expectedInsertions=" + s.configuredInsertions() + ", fpp=" + s.configuredFpp()
          + ", layout " + s.layout() + "; this guard has expectedInsertions=" + configuredInsertions + ", fpp="
          + fpp + ", layout " + layout;
    }
    if (s.filter().expectedInsertions() < configuredInsertions || Double.compare(s.filter().fpp(), fpp) != 0) {
      return "its filter (n=" + s.filter().expectedInsertions() + ", p=" + s.filter().fpp()
          + ") does not match its envelope";
    }
    String refusal = filters.refusal(s.filter());
    if (refusal != null) {
      return refusal;
    }
    if (!config.source().supportsWatermark()) {
      return "it cannot be caught up: the key source " + config.source() + " has no watermark column";
    }
    return null;
  }

  /** Writes the live filter to the store, if any; a failure is logged and counted, and the old snapshot stays. */
  void write() {
    String name = config.name();
    SnapshotStore store = config.snapshotStore();
    if (store == null) {
      return;
    }
    try {
      Optional<GuardFilters.Image<K>> image = filters.image();
      if (image.isEmpty()) {
        return;
      }
      long now = System.currentTimeMillis();
      store.write(out -> SnapshotCodec.write(out, name, config.expectedInsertions(), config.fpp(),
          image.get().watermark(), now, image.get().filter()));
      LOG.log(Level.DEBUG, () -> "guard " + name + ": wrote a snapshot to " + store);
    } catch (IOException | RuntimeException e) {
      failures.increment();
      lastError = GuardStats.describe(e);
      LOG.log(Level.WARNING, () -> "guard " + name + ": could not write a snapshot to " + store
          + "; the previous one is kept", e);
    }
  }

  /**
   * close() could not stop the build thread ({@code stuck} says how), so it must not write: the write
   * could overlap the build's own. Skipping is not silent, though: the restart catches up from an older
   * snapshot, so it is counted as a failed write. Only with a store ({@link #enabled}).
   */
  void finalWriteSkipped(String stuck) {
    String name = config.name();
    SnapshotStore store = config.snapshotStore();
    String why = stuck + "; the final snapshot was not written";
    failures.increment();
    lastError = why;
    LOG.log(Level.WARNING, () -> "guard " + name + ": " + why + " (the previous one in " + store + " is kept)");
  }

  /** Snapshot writes that failed or were skipped. */
  long failures() {
    return failures.sum();
  }

  /** Why the latest one failed, or null if none ever did. */
  String lastError() {
    return lastError;
  }
}
