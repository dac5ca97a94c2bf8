package org.concurrentbloom;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one harness for tests that run code on several threads at once (here, and in bloom-redis through
 * bloom-core's test jar). Every task gets its own thread; all threads are started, wait until every
 * one is running, and are then released together by one latch, so the tasks really overlap. Bounded
 * tasks ({@link #task}) run to their end; background tasks ({@link #background}) loop until {@link
 * #stopping()}, which turns true once every bounded task has returned.
 *
 * <p>{@link #finish()} waits for all of them, within one deadline for the whole run, and fails the test
 * <ul>
 *   <li>with the first task's exception, as soon as a task throws: the other threads are interrupted
 *       (a thread waiting at a barrier for the failed one would otherwise wait forever), and their own
 *       exceptions are attached as suppressed;
 *   <li>with a message naming the timeout and the threads still running, and the first one's stack as
 *       the cause, if the deadline passes: those threads are interrupted too.
 * </ul>
 * Nothing sleeps: waiting is on latches and joins, each with a time limit.
 */
public final class ConcurrentRun implements AutoCloseable {
  /** The deadline of a run unless the test sets one: under the 60 s {@code @Timeout} the tests carry. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(50);
  /** How long interrupted threads get to end after a failure or timeout. */
  private static final long GRACE_MILLIS = 5_000;

  /** A worker's task, which may throw. */
  @FunctionalInterface
  public interface Task {
    void run() throws Exception;
  }

  /** A task for one of several threads, told its index 0 .. n-1. */
  @FunctionalInterface
  public interface IndexedTask {
    void run(int index) throws Exception;
  }

  private final Duration timeout;
  private final List<Task> bounded = new ArrayList<>();
  private final List<Task> background = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final AtomicReference<String> failedThread = new AtomicReference<>();
  private final List<Throwable> laterFailures = new ArrayList<>();
  /** Counted down when every bounded task has returned, or when any task has thrown. */
  private final CountDownLatch settled = new CountDownLatch(1);
  private final AtomicInteger boundedRunning = new AtomicInteger();
  private volatile boolean stopping;
  private boolean started;
  private boolean finished;
  private long deadline;

  /** A run with the {@link #DEFAULT_TIMEOUT}. */
  public ConcurrentRun() {
    this(DEFAULT_TIMEOUT);
  }

  /** A run that fails if its tasks have not all ended within {@code timeout} of their release. */
  public ConcurrentRun(Duration timeout) {
    this.timeout = timeout;
  }

  /** Runs {@code task(0)} .. {@code task(threads - 1)} together, each on its own thread; see {@link #finish()}. */
  public static void together(int threads, IndexedTask task) throws InterruptedException {
    new ConcurrentRun().tasks(threads, task).run();
  }

  /** Runs the tasks together, each on its own thread; see {@link #finish()}. */
  public static void together(List<? extends Task> tasks) throws InterruptedException {
    ConcurrentRun run = new ConcurrentRun();
    tasks.forEach(run::task);
    run.run();
  }

  /** Adds a bounded task: the run ends when every bounded task has returned. */
  public ConcurrentRun task(Task task) {
    requireNotStarted();
    bounded.add(task);
    return this;
  }

  /** Adds {@code count} bounded tasks, the i-th running {@code task.run(i)}. */
  public ConcurrentRun tasks(int count, IndexedTask task) {
    for (int i = 0; i < count; i++) {
      int index = i;
      task(() -> task.run(index));
    }
    return this;
  }

  /** Adds a background task, which must return soon after {@link #stopping()} turns true. */
  public ConcurrentRun background(Task task) {
    requireNotStarted();
    background.add(task);
    return this;
  }

  /** True once every bounded task has returned (or the run failed): background tasks poll this. */
  public boolean stopping() {
    return stopping;
  }

  /** {@link #start()}, then {@link #finish()}. */
  public void run() throws InterruptedException {
    start();
    finish();
  }

  /**
   * Starts every task on its own thread and releases them together; returns at once, so that the
   * calling thread can act while they run. Call {@link #finish()} afterwards (in a try-with-resources
   * block, {@link #close()} cleans up if the caller fails first).
   */
  public ConcurrentRun start() throws InterruptedException {
    requireNotStarted();
    started = true;
    int total = bounded.size() + background.size();
    CountDownLatch ready = new CountDownLatch(total);
    CountDownLatch go = new CountDownLatch(1);
    boundedRunning.set(bounded.size());
    if (bounded.isEmpty()) {
      settled.countDown();
    }
    for (int i = 0; i < bounded.size(); i++) {
      threads.add(thread("run-task-" + i, bounded.get(i), true, ready, go));
    }
    for (int i = 0; i < background.size(); i++) {
      threads.add(thread("run-background-" + i, background.get(i), false, ready, go));
    }
    threads.forEach(Thread::start);
    if (!ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      stopAndInterrupt();
      throw new AssertionError("timed out after " + timeout + " waiting for " + total + " threads to start");
    }
    deadline = System.nanoTime() + timeout.toNanos();
    go.countDown();
    return this;
  }

  /**
   * Waits until every bounded task has returned, then stops the background tasks and waits for them;
   * all within the run's deadline. Fails (an {@link AssertionError}) with the first task's exception,
   * or, past the deadline, naming the timeout and the threads still running.
   */
  public void finish() throws InterruptedException {
    if (!started || finished) {
      throw new IllegalStateException(started ? "finished already" : "not started");
    }
    finished = true;
    boolean inTime = settled.await(remainingNanos(), TimeUnit.NANOSECONDS);
    stopping = true;
    if (inTime && failure.get() == null) {
      for (Thread t : threads) {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNanos())));
      }
    }
    // Past the deadline with bounded tasks still running, those are the hung ones (the background tasks
    // have only just been told to stop); otherwise whatever outlived the joins.
    List<Thread> hung = new ArrayList<>();
    for (Thread t : inTime ? threads : threads.subList(0, bounded.size())) {
      if (t.isAlive()) {
        hung.add(t);
      }
    }
    Throwable where = hung.isEmpty() || failure.get() != null ? null : stackOf(hung.get(0));
    stopAndInterrupt();
    Throwable first = failure.get();
    if (first != null) {
      AssertionError error = new AssertionError(failedThread.get() + " failed: " + first, first);
      synchronized (laterFailures) {
        laterFailures.forEach(error::addSuppressed);
      }
      throw error;
    }
    if (!hung.isEmpty()) {
      List<String> names = new ArrayList<>();
      hung.forEach(t -> names.add(t.getName()));
      throw new AssertionError("timed out after " + timeout + ": still running " + names
          + " (interrupted); the cause holds the stack of " + names.get(0), where);
    }
  }

  /**
   * If the run was started and not finished (the caller failed first), stops and interrupts its threads
   * and waits a moment for them. An interrupt of the caller during that wait is kept for the caller.
   */
  @Override
  public void close() {
    if (started && !finished) {
      finished = true;
      try {
        stopAndInterrupt();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private Thread thread(String name, Task task, boolean isBounded, CountDownLatch ready, CountDownLatch go) {
    Thread thread = new Thread(() -> {
      ready.countDown();
      try {
        go.await();
        task.run();
        if (isBounded && boundedRunning.decrementAndGet() == 0) {
          settled.countDown();
        }
      } catch (Throwable t) {
        if (failure.compareAndSet(null, t)) {
          failedThread.set(Thread.currentThread().getName());
        } else {
          synchronized (laterFailures) {
            laterFailures.add(t);
          }
        }
        settled.countDown();
      }
    }, name);
    thread.setDaemon(true);
    return thread;
  }

  private long remainingNanos() {
    return Math.max(0, deadline - System.nanoTime());
  }

  /** Sets {@link #stopping()}, interrupts every thread still alive and gives each a moment to end. */
  private void stopAndInterrupt() throws InterruptedException {
    stopping = true;
    for (Thread t : threads) {
      if (t.isAlive()) {
        t.interrupt();
      }
    }
    for (Thread t : threads) {
      t.join(GRACE_MILLIS);
    }
  }

  private static Throwable stackOf(Thread thread) {
    Throwable where = new Throwable(thread.getName() + " at the timeout");
    where.setStackTrace(thread.getStackTrace());
    return where;
  }

  private void requireNotStarted() {
    if (started) {
      throw new IllegalStateException("the run has started");
    }
  }
}
