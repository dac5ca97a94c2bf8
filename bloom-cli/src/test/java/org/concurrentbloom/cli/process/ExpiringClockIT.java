package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, point 2: one run under a wrong clock must not empty an expiring file for good. Each command
 * runs through the launcher under libfaketime ({@code faketime -f '+2d' bloom ...}), so the JVM's wall
 * clock is two days fast or slow, as a machine's clock can be. Before the fix, {@code add} under a clock
 * two days fast exited 0 with no warning and wrote the file back with every generation dropped, so that
 * keys added a second earlier answered "no" on the right clock.
 */
class ExpiringClockIT {
  /** The window of the files below: its generation span is 8m 34.286s. */
  private static final Duration SPAN = Duration.ofMillis(514_286);

  private static final Pattern AHEAD = Pattern.compile("the clock reads (\\S+), more than its window \\(1h\\) after "
      + "(\\S+) was last written \\(before (\\S+)\\)");
  private static final Pattern BEHIND = Pattern.compile("the clock reads (\\S+), before (\\S+) was last written "
      + "\\(at or after (\\S+), by a clock ahead of this one\\)");

  @TempDir
  Path dir;

  @BeforeEach
  void needsFaketime() throws Exception {
    assumeTrue(new ProcessBuilder("faketime", "-f", "+0d", "true").start().waitFor() == 0, "libfaketime's faketime");
  }

  /** {@code bloom args} with the wall clock moved by {@code offset} (libfaketime's form: "+2d", "-30m"). */
  private static Bloom.Result shifted(String offset, String... args) {
    ProcessBuilder pb = Bloom.command(args);
    List<String> command = new ArrayList<>(List.of("faketime", "-f", offset));
    command.addAll(pb.command());
    pb.command(command);
    // The JIT's compiler threads spin under a shifted clock; the interpreter starts in a second or two.
    pb.environment().put("BLOOM_JAVA_OPTS", "-Xint");
    return Bloom.run(pb, new byte[0]);
  }

  private static List<String> answers(Path f, String... keys) {
    List<String> args = new ArrayList<>(List.of("query", f.toString()));
    args.addAll(List.of(keys));
    Bloom.Result r = Bloom.run(args.toArray(String[]::new)).ok();
    assertThat(r.stderr()).as("a query on the right clock warns of nothing").isEmpty();
    return r.outLines();
  }

  private static Matcher single(Pattern pattern, String stderr, String prefix) {
    assertThat(stderr.lines().toList()).as("one line").singleElement().asString().startsWith(prefix);
    Matcher m = pattern.matcher(stderr);
    assertThat(m.find()).as("%s in %s", pattern, stderr).isTrue();
    return m;
  }

  @Test
  void anAddUnderAClockFarAheadOrBehindIsRefusedAndTheFileKept() throws IOException {
    Path f = dir.resolve("skew.bloom");
    Instant created = Instant.now();
    Bloom.run("create", "--window", "1h", "-n", "1000", "-p", "0.01", "-o", f.toString()).ok();
    Bloom.run("add", f.toString(), "a", "b", "c").ok();
    Instant written = Instant.now();
    byte[] before = Files.readAllBytes(f);

    // Two days fast: more than the window past the file's last write, so every key would be forgotten.
    Instant tried = Instant.now();
    Bloom.Result fast = shifted("+2d", "add", f.toString(), "other");
    assertThat(fast.exitCode()).as("stderr: %s", fast.stderr()).isEqualTo(1);
    assertThat(fast.out()).isEmpty();
    Matcher ahead = single(AHEAD, fast.stderr(), "bloom: error: cannot add to " + f + ": ");
    assertThat(Instant.parse(ahead.group(1))).as("the clock reading named")
        .isBetween(tried.plus(Duration.ofDays(2)).minusSeconds(1), Instant.now().plus(Duration.ofDays(2)));
    assertThat(ahead.group(2)).isEqualTo(f.toString());
    // The file's time named: the end of its newest slot, the one its adds went to.
    assertThat(Instant.parse(ahead.group(3))).isBetween(created.plus(SPAN), written.plus(SPAN));
    assertThat(fast.stderr()).contains("writing it now would forget every key it holds")
        .endsWith("If the clock is right, run again with --accept-clock-jump\n");
    assertThat(Files.readAllBytes(f)).as("the file, byte for byte").isEqualTo(before);
    assertThat(answers(f, "a", "b", "c", "other")).containsExactly("a\tmaybe", "b\tmaybe", "c\tmaybe", "other\tno");

    // Two days slow: behind the file's last write.
    Bloom.Result slow = shifted("-2d", "add", f.toString(), "other");
    assertThat(slow.exitCode()).as("stderr: %s", slow.stderr()).isEqualTo(1);
    Matcher behind = single(BEHIND, slow.stderr(), "bloom: error: cannot add to " + f + ": ");
    assertThat(Instant.parse(behind.group(1))).isBefore(Instant.now().minus(Duration.ofDays(2)));
    assertThat(Instant.parse(behind.group(3))).as("the start of the file's newest slot")
        .isBetween(created.minusSeconds(1), written);
    assertThat(slow.stderr()).endsWith("If the clock is right, run again with --accept-clock-jump\n");
    assertThat(Files.readAllBytes(f)).isEqualTo(before);
    assertThat(answers(f, "a", "b", "c", "other")).containsExactly("a\tmaybe", "b\tmaybe", "c\tmaybe", "other\tno");

    // Read-only commands under the wrong clocks answer by it, and say so on standard error.
    Bloom.Result fastQuery = shifted("+2d", "query", f.toString(), "a");
    assertThat(fastQuery.exitCode()).isZero();
    assertThat(fastQuery.out()).isEqualTo("a\tno\n");
    single(AHEAD, fastQuery.stderr(), "bloom: warning: ");
    assertThat(fastQuery.stderr()).contains("if the clock is wrong, so are those answers");
    Bloom.Result slowQuery = shifted("-2d", "query", f.toString(), "a");
    assertThat(slowQuery.out()).isEqualTo("a\tmaybe\n");
    single(BEHIND, slowQuery.stderr(), "bloom: warning: ");
    Bloom.Result fastInfo = shifted("+2d", "info", f.toString());
    assertThat(fastInfo.exitCode()).isZero();
    single(AHEAD, fastInfo.stderr(), "bloom: warning: ");
    assertThat(Files.readAllBytes(f)).isEqualTo(before);

    // Accepted behind: the add goes into the file's newest generation and nothing is forgotten.
    Bloom.Result acceptedSlow = shifted("-2d", "add", "--accept-clock-jump", f.toString(), "late");
    assertThat(acceptedSlow.exitCode()).as("stderr: %s", acceptedSlow.stderr()).isZero();
    assertThat(acceptedSlow.stderr()).isEmpty();
    assertThat(answers(f, "a", "b", "c", "late")).containsExactly("a\tmaybe", "b\tmaybe", "c\tmaybe", "late\tmaybe");

    // Accepted ahead, on a copy: the user said the clock is right, so the keys are past their time.
    Path copy = Files.copy(f, dir.resolve("accepted.bloom"));
    Bloom.Result acceptedFast = shifted("+2d", "add", "--accept-clock-jump", copy.toString(), "other");
    assertThat(acceptedFast.exitCode()).as("stderr: %s", acceptedFast.stderr()).isZero();
    assertThat(shifted("+2d", "query", copy.toString(), "a", "other").out()).isEqualTo("a\tno\nother\tmaybe\n");
    // And on the right clock that file is now ahead of it: the query warns, naming both times.
    Bloom.Result afterward = Bloom.run("query", copy.toString(), "a");
    assertThat(afterward.out()).isEqualTo("a\tno\n");
    single(BEHIND, afterward.stderr(), "bloom: warning: ");
  }

  /**
   * Clocks that differ from the file's by less than the rule's margins write without a word: 30 minutes
   * fast is within the 1 h window (the oldest generations may be due, as time passes), and 1 minute slow is
   * within one generation span of the newest slot's start (the file records its last write only to the
   * slot). A file that holds no key loses nothing to a clock far ahead.
   */
  @Test
  void smallDifferencesAndEmptyFilesAreWrittenSilently() throws IOException {
    Path f = dir.resolve("near.bloom");
    Bloom.run("create", "--window", "1h", "-n", "1000", "-p", "0.01", "-o", f.toString()).ok();
    Bloom.run("add", f.toString(), "a").ok();
    Bloom.Result slow = shifted("-1m", "add", f.toString(), "b");
    assertThat(slow.exitCode()).as("stderr: %s", slow.stderr()).isZero();
    assertThat(slow.stderr()).isEmpty();
    Bloom.Result fast = shifted("+30m", "add", f.toString(), "c");
    assertThat(fast.exitCode()).as("stderr: %s", fast.stderr()).isZero();
    assertThat(fast.stderr()).isEmpty();
    // The +30m add stepped the file to a slot 30 minutes ahead, so the right clock is now behind it by
    // more than a span; that is the rule, and the keys are all there.
    Bloom.Result behind = Bloom.run("query", f.toString(), "a", "b", "c");
    assertThat(behind.outLines()).containsExactly("a\tmaybe", "b\tmaybe", "c\tmaybe");
    single(BEHIND, behind.stderr(), "bloom: warning: ");

    Path empty = dir.resolve("empty.bloom");
    Bloom.run("create", "--window", "1h", "-n", "1000", "-p", "0.01", "-o", empty.toString()).ok();
    Bloom.Result later = shifted("+2d", "add", empty.toString(), "x");
    assertThat(later.exitCode()).as("stderr: %s", later.stderr()).isZero();
    assertThat(later.stderr()).isEmpty();
    assertThat(shifted("+2d", "query", empty.toString(), "x").out()).isEqualTo("x\tmaybe\n");
  }

  /** --help of add names the option and says what it accepts. */
  @Test
  void addsHelpDocumentsTheOption() {
    String help = new String(Bloom.run("add", "--help").ok().stdout(), StandardCharsets.UTF_8);
    assertThat(help.replaceAll("\\s+", " ")).contains("--accept-clock-jump For an expiring filter: write it back even "
        + "if the wall clock is more than its window past the file's last write");
  }
}
