package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.concurrentbloom.guard.GuardStats;

/**
 * The compact table {@code bloom demo signup} prints, one row per phase, from the guard's counters
 * before and after the phase: checks, database lookups made on "maybe", lookups saved (definite
 * negatives), confirmed false positives, the false-positive rate observed among absent addresses
 * checked, the target, and the time of the filter build the phase made (if any).
 */
final class SignupPhaseTable {
  private static final String ROW = "  %-24s %10s %11s %10s %10s %9s %8s %9s%n";

  private final PrintWriter out;
  private final double target;

  SignupPhaseTable(PrintWriter out, double target) {
    this.out = out;
    this.target = target;
  }

  void header() {
    out.printf(Locale.ROOT, ROW, "phase", "checks", "db queries", "saved", "false pos", "FPR seen", "target",
        "build ms");
  }

  /** One row for a phase that turned counters {@code before} into {@code after}; buildMillis < 0: none. */
  void row(String phase, GuardStats before, GuardStats after, long buildMillis) {
    long checks = after.checks() - before.checks();
    long lookups = after.lookups() - before.lookups();
    long saved = after.definiteNegatives() - before.definiteNegatives();
    long falsePositives = after.falsePositives() - before.falsePositives();
    long absentChecked = falsePositives + saved; // every check of the demo goes through check()
    String seen = absentChecked == 0 ? "-" : String.format(Locale.ROOT, "%.2f%%", 100.0 * falsePositives / absentChecked);
    out.printf(Locale.ROOT, ROW, phase, Fmt.count(checks), Fmt.count(lookups), Fmt.count(saved),
        Fmt.count(falsePositives), seen, String.format(Locale.ROOT, "%.2f%%", 100 * target),
        buildMillis < 0 ? "-" : Fmt.count(buildMillis));
    out.flush();
  }

  /** An indented line under the table explaining the row before it. */
  void note(String text) {
    out.println("      " + text);
    out.flush();
  }
}
