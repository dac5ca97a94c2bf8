package org.concurrentbloom.guard;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A snapshot of a {@link MembershipGuard}'s counters, taken by {@link MembershipGuard#stats()}. The
 * counters are cumulative since the guard was built; each is read on its own, so under load they may
 * be a few operations apart from each other.
 *
 * <p>A class rather than a record so that a statistic can be added without breaking callers: only the
 * guard creates instances, and a new statistic is one more accessor. Two instances are equal when every
 * statistic is ({@code double}s compared as by {@link Double#compare}, so NaN equals NaN). Immutable and
 * thread-safe.
 */
public final class GuardStats {
  private final Values values;

  /**
   * The statistics by name, filled in by the guard (StatsAssembler); {@link GuardStats} keeps its own
   * copy. Field names are the accessor names. Not thread-safe: one thread fills one instance.
   */
  static final class Values implements Cloneable {
    long checks;
    long definiteNegatives;
    long positives;
    long lookups;
    long falsePositives;
    double observedFpr;
    double targetFpp;
    boolean ready;
    long filterCapacity;
    long filterCount;
    long deletesSinceRebuild;
    long rebuilds;
    Duration lastRebuildDuration = Duration.ZERO;
    Instant lastRebuildAt;
    long rebuildFailures;
    long consecutiveFailures;
    String lastError;
    long backendErrors;
    long failedInserts;
    boolean degraded;
    String lastBackendError;
    long snapshotFailures;
    String lastSnapshotError;

    // clone() copies every field, so a new statistic needs no line here.
    Values copy() {
      try {
        return (Values) super.clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError("Values is Cloneable", e);
      }
    }
  }

  /** Statistics with the figures of {@code values} as they are now; later changes to it are not seen. */
  GuardStats(Values values) {
    this.values = values.copy();
  }

  /**
   * How a failure is reported in {@link #lastError}, {@link #lastBackendError} and
   * {@link #lastSnapshotError}: "ExceptionClass: message".
   */
  static String describe(Throwable e) {
    return e.getClass().getName() + ": " + e.getMessage();
  }

  /** Calls of {@code mightExist} (including those made by {@code check}). */
  public long checks() {
    return values.checks;
  }

  /** Checks answered "definitely absent": the database queries saved. */
  public long definiteNegatives() {
    return values.definiteNegatives;
  }

  /** Checks answered "might exist" (every check while no filter is live). */
  public long positives() {
    return values.positives;
  }

  /** Database lookups made by {@code check} after a "might exist". */
  public long lookups() {
    return values.lookups;
  }

  /** Lookups that found the key absent: confirmed false positives, stale entries of deleted keys included. */
  public long falsePositives() {
    return values.falsePositives;
  }

  /**
   * falsePositives / (falsePositives + the definite negatives of {@code check}): the fraction of absent
   * keys checked through {@code check} that still went to the database; NaN before the first such key.
   */
  public double observedFpr() {
    return values.observedFpr;
  }

  /** The false-positive probability the guard was configured for. */
  public double targetFpp() {
    return values.targetFpp;
  }

  /**
   * True while a filter is live; false before the first one and after {@code close()}, when every check
   * answers "might exist".
   */
  public boolean ready() {
    return values.ready;
  }

  /** The expected insertions the live filter was sized for (0 if none). */
  public long filterCapacity() {
    return values.filterCapacity;
  }

  /**
   * Keys the live filter holds: rows its scan found plus inserts recorded since (those recorded during
   * its scan may count twice); 0 if none.
   */
  public long filterCount() {
    return values.filterCount;
  }

  /** {@code recordDelete} calls since the live filter was built. */
  public long deletesSinceRebuild() {
    return values.deletesSinceRebuild;
  }

  /** Filters built and published (snapshot loads included). */
  public long rebuilds() {
    return values.rebuilds;
  }

  /** How long the last published build took, from start to swap; ZERO if none. */
  public Duration lastRebuildDuration() {
    return values.lastRebuildDuration;
  }

  /** When the last build was published; null if none. */
  public Instant lastRebuildAt() {
    return values.lastRebuildAt;
  }

  /** Builds that failed in total. */
  public long rebuildFailures() {
    return values.rebuildFailures;
  }

  /** Builds that failed since the last success (0 when the last one succeeded). */
  public long consecutiveFailures() {
    return values.consecutiveFailures;
  }

  /** The most recent build failure, as "ExceptionClass: message"; null if none ever. */
  public String lastError() {
    return values.lastError;
  }

  /**
   * Calls a shared backend failed: checks answered "maybe" because of it, inserts it could not record,
   * deletes it could not count (always 0 with the local backend).
   */
  public long backendErrors() {
    return values.backendErrors;
  }

  /** {@code recordInsert} calls that threw because the backend could not record the key. */
  public long failedInserts() {
    return values.failedInserts;
  }

  /**
   * True while an insert that could not be recorded is not yet covered, by a rebuild that began after
   * it or by adopting another instance's rebuild after adding the failed keys to it: every check
   * answers "maybe" meanwhile.
   */
  public boolean degraded() {
    return values.degraded;
  }

  /** The most recent backend failure, as "ExceptionClass: message"; null if none ever. */
  public String lastBackendError() {
    return values.lastBackendError;
  }

  /** Snapshots that could not be written (the previous one is kept). */
  public long snapshotFailures() {
    return values.snapshotFailures;
  }

  /** The most recent snapshot write failure, as "ExceptionClass: message"; null if none ever. */
  public String lastSnapshotError() {
    return values.lastSnapshotError;
  }

  /** Database queries saved per check, in [0, 1]; NaN before the first check. */
  public double savedFraction() {
    return values.checks == 0 ? Double.NaN : (double) values.definiteNegatives / values.checks;
  }

  /**
   * Every statistic by accessor name, in accessor order: the one list equals, hashCode and toString
   * read, so that a new statistic cannot be left out of one of them. Boxed, so doubles compare as
   * {@link Double#equals} does (NaN equals NaN), as a record's components would.
   */
  private Map<String, Object> components() {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("checks", values.checks);
    c.put("definiteNegatives", values.definiteNegatives);
    c.put("positives", values.positives);
    c.put("lookups", values.lookups);
    c.put("falsePositives", values.falsePositives);
    c.put("observedFpr", values.observedFpr);
    c.put("targetFpp", values.targetFpp);
    c.put("ready", values.ready);
    c.put("filterCapacity", values.filterCapacity);
    c.put("filterCount", values.filterCount);
    c.put("deletesSinceRebuild", values.deletesSinceRebuild);
    c.put("rebuilds", values.rebuilds);
    c.put("lastRebuildDuration", values.lastRebuildDuration);
    c.put("lastRebuildAt", values.lastRebuildAt);
    c.put("rebuildFailures", values.rebuildFailures);
    c.put("consecutiveFailures", values.consecutiveFailures);
    c.put("lastError", values.lastError);
    c.put("backendErrors", values.backendErrors);
    c.put("failedInserts", values.failedInserts);
    c.put("degraded", values.degraded);
    c.put("lastBackendError", values.lastBackendError);
    c.put("snapshotFailures", values.snapshotFailures);
    c.put("lastSnapshotError", values.lastSnapshotError);
    return c;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof GuardStats other && components().equals(other.components()));
  }

  @Override
  public int hashCode() {
    return components().hashCode();
  }

  /** As a record would print it: {@code GuardStats[checks=..., definiteNegatives=..., ...]}. */
  @Override
  public String toString() {
    StringJoiner s = new StringJoiner(", ", "GuardStats[", "]");
    components().forEach((name, value) -> s.add(name + "=" + value));
    return s.toString();
  }
}
