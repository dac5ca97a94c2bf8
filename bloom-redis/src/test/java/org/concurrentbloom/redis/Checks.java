package org.concurrentbloom.redis;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.function.Executable;

/**
 * Assertions gathered and then all run, every failure reported together (JUnit's assertAll), for tests
 * that report several outcomes of one scenario. Used instead of AssertJ's SoftAssertions, whose proxies
 * come from ByteBuddy, which probes sun.misc.Unsafe and so prints a JVM warning on JDK 25.
 * Not thread-safe: the test thread gathers and runs them.
 */
final class Checks {
  private final List<Executable> checks = new ArrayList<>();

  /** Adds a check, run by {@link #assertAll()}. */
  void check(Executable check) {
    checks.add(check);
  }

  /** Runs every check; fails with all their failures if any failed. */
  void assertAll() {
    Assertions.assertAll(checks);
  }
}
