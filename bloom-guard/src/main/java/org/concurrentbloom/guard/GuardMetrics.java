package org.concurrentbloom.guard;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a {@link MembershipGuard}'s {@link GuardStats} as Micrometer meters, tagged
 * {@code guard=<name>}: register it with a {@code MeterRegistry} (Spring Boot does so for any
 * {@code MeterBinder} bean) and Prometheus scrapes them as {@code bloom_guard_checks_total} and so on.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>bloom.guard.checks</td><td>counter</td><td>mightExist calls</td></tr>
 *   <tr><td>bloom.guard.definite.negatives</td><td>counter</td><td>checks answered "absent": queries saved</td></tr>
 *   <tr><td>bloom.guard.positives</td><td>counter</td><td>checks answered "maybe"</td></tr>
 *   <tr><td>bloom.guard.lookups</td><td>counter</td><td>source lookups made by check()</td></tr>
 *   <tr><td>bloom.guard.false.positives</td><td>counter</td><td>lookups that found nothing</td></tr>
 *   <tr><td>bloom.guard.rebuilds</td><td>counter</td><td>filters published</td></tr>
 *   <tr><td>bloom.guard.rebuild.failures</td><td>counter</td><td>builds that failed</td></tr>
 *   <tr><td>bloom.guard.backend.errors</td><td>counter</td><td>calls a shared backend failed</td></tr>
 *   <tr><td>bloom.guard.failed.inserts</td><td>counter</td><td>inserts the backend could not record</td></tr>
 *   <tr><td>bloom.guard.snapshot.failures</td><td>counter</td><td>snapshots that could not be written</td></tr>
 *   <tr><td>bloom.guard.fpr.observed</td><td>gauge</td><td>confirmed false-positive rate (NaN before data)</td></tr>
 *   <tr><td>bloom.guard.fpr.target</td><td>gauge</td><td>configured fpp</td></tr>
 *   <tr><td>bloom.guard.ready</td><td>gauge</td><td>1 while a filter is live, else 0</td></tr>
 *   <tr><td>bloom.guard.keys</td><td>gauge</td><td>keys in the live filter</td></tr>
 *   <tr><td>bloom.guard.capacity</td><td>gauge</td><td>keys the live filter was sized for</td></tr>
 *   <tr><td>bloom.guard.deletes.since.rebuild</td><td>gauge</td><td>deletes recorded since the last build</td></tr>
 *   <tr><td>bloom.guard.rebuild.last.seconds</td><td>gauge</td><td>duration of the last build</td></tr>
 *   <tr><td>bloom.guard.rebuild.consecutive.failures</td><td>gauge</td><td>failures since the last success</td></tr>
 *   <tr><td>bloom.guard.degraded</td><td>gauge</td><td>1 while a failed insert makes every check "maybe"</td></tr>
 * </table>
 *
 * <p>Micrometer is an optional dependency of this module: only this class needs it. The meters read the
 * guard's counters when the registry polls; they hold the guard weakly, as Micrometer's function meters
 * do. Thread-safe.
 */
public final class GuardMetrics implements MeterBinder {
  private static final String PREFIX = "bloom.guard.";

  private final MembershipGuard<?> guard;
  private final Tags tags;

  /** Meters for {@code guard}, tagged with its name and {@code extraTags}. */
  public GuardMetrics(MembershipGuard<?> guard, Tag... extraTags) {
    this.guard = Objects.requireNonNull(guard, "guard");
    this.tags = Tags.of("guard", guard.name()).and(extraTags);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    counter(registry, "checks", "checks made", s -> s.checks());
    counter(registry, "definite.negatives", "checks answered definitely absent: source queries saved",
        s -> s.definiteNegatives());
    counter(registry, "positives", "checks answered might exist", s -> s.positives());
    counter(registry, "lookups", "source lookups made by check()", s -> s.lookups());
    counter(registry, "false.positives", "lookups that found the key absent", s -> s.falsePositives());
    counter(registry, "rebuilds", "filters built and published", s -> s.rebuilds());
    counter(registry, "rebuild.failures", "builds that failed", s -> s.rebuildFailures());
    counter(registry, "backend.errors", "calls a shared backend failed", s -> s.backendErrors());
    counter(registry, "failed.inserts", "inserts the backend could not record", s -> s.failedInserts());
    counter(registry, "snapshot.failures", "snapshots that could not be written", s -> s.snapshotFailures());
    gauge(registry, "fpr.observed", "confirmed false-positive rate among absent keys checked", s -> s.observedFpr());
    gauge(registry, "fpr.target", "configured false-positive probability", s -> s.targetFpp());
    gauge(registry, "ready", "1 while a filter is live", s -> s.ready() ? 1 : 0);
    gauge(registry, "keys", "keys in the live filter", s -> s.filterCount());
    gauge(registry, "capacity", "keys the live filter was sized for", s -> s.filterCapacity());
    gauge(registry, "deletes.since.rebuild", "deletes recorded since the last build", s -> s.deletesSinceRebuild());
    gauge(registry, "rebuild.last.seconds", "duration of the last build",
        s -> s.lastRebuildDuration().toNanos() / 1e9);
    gauge(registry, "rebuild.consecutive.failures", "build failures since the last success",
        s -> s.consecutiveFailures());
    gauge(registry, "degraded", "1 while an insert the backend could not record makes every check maybe",
        s -> s.degraded() ? 1 : 0);
  }

  private void counter(MeterRegistry registry, String name, String help, ToDoubleFunction<GuardStats> f) {
    FunctionCounter.builder(PREFIX + name, guard, g -> f.applyAsDouble(g.stats()))
        .description(help).tags(tags).register(registry);
  }

  private void gauge(MeterRegistry registry, String name, String help, ToDoubleFunction<GuardStats> f) {
    Gauge.builder(PREFIX + name, guard, g -> f.applyAsDouble(g.stats()))
        .description(help).tags(tags).register(registry);
  }
}
