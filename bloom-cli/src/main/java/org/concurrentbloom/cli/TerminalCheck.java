package org.concurrentbloom.cli;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * Decides whether a progress bar may be drawn: only when the JVM is attached to an interactive terminal
 * ({@link System#console()} is non-null and, on JDK 22 and later, {@code Console.isTerminal()} is true),
 * and the system property {@code bloom.progress} is not {@code false}. The launcher script sets that
 * property when standard error is not a terminal, which Java alone cannot tell.
 */
final class TerminalCheck {
  /** Set to {@code false} to turn the progress bar off. */
  static final String PROGRESS_PROPERTY = "bloom.progress";

  private TerminalCheck() {}

  static boolean progressWanted() {
    if ("false".equalsIgnoreCase(System.getProperty(PROGRESS_PROPERTY))) {
      return false;
    }
    return isInteractive(System.console());
  }

  static boolean isInteractive(Console console) {
    if (console == null) {
      return false;
    }
    // JDK 22+ may return a Console even when the streams are redirected; isTerminal() then says which.
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return Boolean.TRUE.equals(isTerminal.invoke(console));
    } catch (NoSuchMethodException e) {
      return true; // before JDK 22 a non-null console means stdin and stdout are a terminal
    } catch (ReflectiveOperationException | SecurityException e) {
      return false;
    }
  }
}
