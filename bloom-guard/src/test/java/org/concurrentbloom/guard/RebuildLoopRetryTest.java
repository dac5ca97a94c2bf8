package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The retry after a failed build: it does nothing once a later build succeeded, unless the guard is
 * still degraded, in which case it builds anyway (issue 22, point 6: a success that did not cover a
 * failed insert must not leave the retry idle and the guard answering "maybe" for good).
 */
class RebuildLoopRetryTest {
  private final ManualScheduler scheduler = new ManualScheduler();
  private final AtomicInteger builds = new AtomicInteger();
  private final AtomicBoolean degraded = new AtomicBoolean();
  /** The first build fails, as with the backend down; every later one succeeds. */
  private final RebuildLoop loop = new RebuildLoop(scheduler, new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1)),
      null, (l, fullScan) -> {
        if (builds.incrementAndGet() == 1) {
          throw new IllegalStateException("backend down");
        }
      }, degraded::get, System.getLogger(RebuildLoopRetryTest.class.getName()), "retry-test");

  @AfterEach
  void close() {
    loop.close(Duration.ofSeconds(5));
  }

  /** A build fails, then another succeeds; returns the retry the failure scheduled, not yet fired. */
  private ManualScheduler.Delayed failThenSucceed() throws Exception {
    assertThatThrownBy(() -> loop.request(RebuildLoop.Reason.FAILED_INSERT).get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasRootCauseMessage("backend down");
    ManualScheduler.Delayed retry = scheduler.awaitDelayed();
    loop.request(RebuildLoop.Reason.LOST).get(30, TimeUnit.SECONDS);
    assertThat(loop.consecutiveFailures).isZero();
    return retry;
  }

  @Test
  void aRetryStillBuildsWhileTheGuardIsDegraded() throws Exception {
    degraded.set(true); // the successful build did not cover the failed insert
    ManualScheduler.Delayed retry = failThenSucceed();
    scheduler.fire(retry);
    scheduler.drain(); // the retry ran and queued a build...
    scheduler.drain(); // ...which ran
    assertThat(builds.get()).isEqualTo(3);
  }

  @Test
  void aRetryAfterASuccessDoesNothingOnceTheGuardIsHealthy() throws Exception {
    ManualScheduler.Delayed retry = failThenSucceed();
    scheduler.fire(retry);
    scheduler.drain();
    scheduler.drain();
    assertThat(builds.get()).isEqualTo(2);
  }
}
