package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.FilterType;

/**
 * Compares the wall clock with the times an expiring filter file records, before a command lets the clock
 * decide what the file has forgotten. bloom cannot tell a clock that is wrong from time that has really
 * passed, so it acts where the difference is past anything the file has seen:
 * <ul>
 *   <li><b>Far ahead:</b> the clock is more than the window past the end of the file's newest slot (the
 *       file was written before then), and generations that hold keys are past their time by it. If the
 *       clock is right, their keys are due to be forgotten; if it is wrong (a clock days fast), writing
 *       the file would forget them for good.
 *   <li><b>Behind:</b> the clock is more than one generation span before the start of the file's newest
 *       slot: a clock ahead of this one wrote the file. Nothing is forgotten by such a clock, but keys
 *       added now would be kept by the file's later times, past their time by this one, and a file whose
 *       times are ahead may already have lost keys to the clock that wrote it. A clock behind by less than
 *       a span is let through: the file records its last write only to its slot, and such an add is kept
 *       at most one span longer, as if it had come at the start of that slot.
 * </ul>
 * A command that writes the filter refuses either case with one line naming both times, unless given
 * {@value #ACCEPT_OPTION}; a command that only reads it prints one warning line and goes on. The check reads
 * the file's generations as the record holds them ({@link ExpiringBloomFilter#generationsWithoutStepping()}),
 * so it must run before anything steps the filter by the clock.
 */
final class ClockCheck {
  /** The option of the commands that write an expiring filter back, to write it whatever the clock says. */
  static final String ACCEPT_OPTION = "--accept-clock-jump";
  /** Its help, shared by the commands that take it. */
  static final String ACCEPT_HELP = "For an expiring filter: write it back even if the wall clock is more than "
      + "its window past the file's last write (which forgets every key it holds) or behind it (a clock "
      + "ahead of this one wrote it). Without this, such an add is refused, naming both times: bloom cannot "
      + "tell a wrong clock from a long pause, and a wrong clock would empty the file for good.";

  private ClockCheck() {}

  /** How the clock stands to the file's times. */
  private enum Skew { NONE, AHEAD, BEHIND }

  /**
   * What the check found: the clock reading, the file's time it was compared with (the end of its newest
   * slot when ahead, the start when behind), and the file's window and the end of its newest generation.
   */
  private record Finding(Skew skew, Instant now, Instant fileTime, Duration window, Instant newestForgotten) {}

  /**
   * Before {@code command} writes {@code f} back: refuses a clock far ahead of or behind the file's times
   * unless {@code accept}. Does nothing for other filter types.
   *
   * @throws CliException naming the clock reading, the file's time and the option that accepts it
   */
  static void beforeWrite(FilterFile f, Path path, String command, boolean accept) throws CliException {
    Finding found = check(f, Instant.now());
    if (found.skew() == Skew.NONE || accept) {
      return;
    }
    String what = found.skew() == Skew.AHEAD
        ? "writing it now would forget every key it holds (for good, if the clock is wrong)"
        : "keys added now would be kept until " + found.newestForgotten() + ", past their time by this clock";
    throw new CliException("cannot " + command + " " + path + ": " + describe(found, path) + "; " + what
        + ". If the clock is right, run again with " + ACCEPT_OPTION);
  }

  /** Before a command that only reads {@code f}: one warning line on {@code err} for a clock far ahead or behind. */
  static void warnOnRead(FilterFile f, Path path, PrintWriter err) {
    Finding found = check(f, Instant.now());
    if (found.skew() == Skew.NONE) {
      return;
    }
    String what = found.skew() == Skew.AHEAD
        ? "its keys are past their time by this clock and answer \"no\"; if the clock is wrong, so are those answers"
        : "it answers as written, keeping keys that this clock may already have forgotten";
    err.println("bloom: warning: " + describe(found, path) + "; " + what);
    err.flush();
  }

  private static String describe(Finding found, Path path) {
    return found.skew() == Skew.AHEAD
        ? "the clock reads " + found.now() + ", more than its window (" + WindowOption.format(found.window())
            + ") after " + path + " was last written (before " + found.fileTime() + ")"
        : "the clock reads " + found.now() + ", before " + path + " was last written (at or after "
            + found.fileTime() + ", by a clock ahead of this one)";
  }

  private static Finding check(FilterFile f, Instant clock) {
    Instant now = clock.truncatedTo(ChronoUnit.MILLIS); // the filter reads milliseconds
    if (f.kind != FilterType.EXPIRING) {
      return new Finding(Skew.NONE, now, now, Duration.ZERO, now);
    }
    ExpiringBloomFilter<Object> e = f.expiring();
    List<ExpiringBloomFilter.Generation> held = e.generationsWithoutStepping();
    if (held.isEmpty()) { // only while another thread's step clears every generation; a loaded file has none
      return new Finding(Skew.NONE, now, now, e.window(), now);
    }
    ExpiringBloomFilter.Generation newest = held.get(0);
    if (now.isBefore(newest.start().minus(e.generationSpan()))) {
      return new Finding(Skew.BEHIND, now, newest.start(), e.window(), newest.forgottenFrom());
    }
    boolean losesKeys = held.stream().anyMatch(g -> (g.setBits() > 0 || g.count() > 0)
        && !now.isBefore(g.forgottenFrom()));
    if (losesKeys && now.isAfter(newest.end().plus(e.window()))) {
      return new Finding(Skew.AHEAD, now, newest.end(), e.window(), newest.forgottenFrom());
    }
    return new Finding(Skew.NONE, now, now, e.window(), newest.forgottenFrom());
  }
}
