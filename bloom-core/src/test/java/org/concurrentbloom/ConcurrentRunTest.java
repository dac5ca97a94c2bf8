package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The harness itself: tasks overlap, a task's exception fails the run at once (not after the deadline),
 * a hung task fails it naming the timeout and is interrupted, background tasks stop when the bounded
 * ones are done. Hung tasks wait on latches nobody counts down; nothing sleeps.
 */
class ConcurrentRunTest {
  @Test
  @Timeout(30)
  void tasksRunTogether() throws Exception {
    // Passes only if all three are inside at once: a run that ran them one by one would time out.
    CyclicBarrier allInside = new CyclicBarrier(3);
    AtomicInteger ran = new AtomicInteger();
    new ConcurrentRun(Duration.ofSeconds(20)).tasks(3, i -> {
      allInside.await();
      ran.incrementAndGet();
    }).run();
    assertThat(ran.get()).isEqualTo(3);
  }

  @Test
  @Timeout(30)
  void aTaskExceptionFailsTheRunAndInterruptsTheOthers() {
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch waiting = new CountDownLatch(1);
    AtomicInteger interrupted = new AtomicInteger();
    ConcurrentRun run = new ConcurrentRun(Duration.ofMinutes(5)) // far beyond @Timeout: must not be waited for
        .task(() -> {
          waiting.await(); // fail once the other task is on its way to wait forever
          throw new IllegalStateException("boom");
        })
        .task(() -> {
          try {
            waiting.countDown();
            never.await();
          } catch (InterruptedException e) {
            interrupted.incrementAndGet();
            throw e;
          }
        });
    assertThatThrownBy(run::run).isInstanceOf(AssertionError.class)
        .hasMessageContaining("run-task-0 failed").hasMessageContaining("boom")
        .hasCauseInstanceOf(IllegalStateException.class)
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1)
            .allSatisfy(s -> assertThat(s).isInstanceOf(InterruptedException.class)));
    assertThat(interrupted.get()).isEqualTo(1);
  }

  @Test
  @Timeout(30)
  void aHungTaskFailsTheRunNamingTheTimeoutAndIsInterrupted() {
    CountDownLatch never = new CountDownLatch(1);
    AtomicInteger interrupted = new AtomicInteger();
    ConcurrentRun run = new ConcurrentRun(Duration.ofMillis(300))
        .task(() -> { })
        .task(() -> {
          try {
            never.await();
          } catch (InterruptedException e) {
            interrupted.incrementAndGet();
          }
        });
    run.background(() -> { // told to stop at the timeout, so not named among the hung threads
      while (!run.stopping()) {
        Thread.onSpinWait();
      }
    });
    assertThatThrownBy(run::run).isInstanceOf(AssertionError.class)
        .hasMessageContaining("timed out after PT0.3S")
        .hasMessageContaining("still running [run-task-1]")
        .cause().hasMessageContaining("run-task-1 at the timeout");
    assertThat(interrupted.get()).isEqualTo(1);
  }

  @Test
  @Timeout(30)
  void backgroundTasksRunUntilTheBoundedOnesAreDone() throws Exception {
    CountDownLatch backgroundRunning = new CountDownLatch(1);
    LongAdder loops = new LongAdder();
    ConcurrentRun run = new ConcurrentRun(Duration.ofSeconds(20));
    run.background(() -> {
      while (!run.stopping()) {
        loops.increment();
        backgroundRunning.countDown();
      }
    });
    run.task(backgroundRunning::await); // done only once the background task has looped
    run.run();
    assertThat(run.stopping()).isTrue();
    assertThat(loops.sum()).isPositive();
  }
}
