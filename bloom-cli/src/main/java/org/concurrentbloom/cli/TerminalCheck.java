package org.concurrentbloom.cli;

/**
 * Which of standard error and standard output are terminals. Java cannot tell for standard error, so
 * the launcher script ({@code ./bloom}) tests both with {@code [ -t 2 ]} and {@code [ -t 1 ]} and passes
 * the answers as the system properties below; without them (a plain {@code java -jar}) neither counts
 * as a terminal and no progress bar is drawn. {@code -Dbloom.progress=false} turns the bar off anyway.
 */
final class TerminalCheck {
  static final String STDERR_PROPERTY = "bloom.stderr.tty";
  static final String STDOUT_PROPERTY = "bloom.stdout.tty";
  static final String PROGRESS_PROPERTY = "bloom.progress";

  private TerminalCheck() {}

  static boolean stderrIsTerminal() {
    return !"false".equalsIgnoreCase(System.getProperty(PROGRESS_PROPERTY))
        && Boolean.parseBoolean(System.getProperty(STDERR_PROPERTY));
  }

  static boolean stdoutIsTerminal() {
    return Boolean.parseBoolean(System.getProperty(STDOUT_PROPERTY));
  }
}
