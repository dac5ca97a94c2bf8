package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;

class SignupDemoTest {
  /** A table row: phase, checks, db queries, saved, false pos, FPR seen, target, build ms. */
  private static Matcher row(String out, String phase) {
    Matcher m = Pattern.compile("^  " + Pattern.quote(phase) + " +([0-9,]+) +([0-9,]+) +([0-9,]+) +([0-9,]+) +"
        + "([0-9.]+%|-) +([0-9.]+)% +([0-9,]+|-)$", Pattern.MULTILINE).matcher(out);
    assertThat(m.find()).as("row %s in%n%s", phase, out).isTrue();
    return m;
  }

  private static long number(Matcher m, int group) {
    return Long.parseLong(m.group(group).replace(",", ""));
  }

  @Test
  void runsEveryPhaseAndShowsStaleThenRebuiltFiltering() {
    Result demo = CliRunner.run("demo", "signup", "--users", "20000", "--threads", "3");

    assertThat(demo.exitCode()).as(demo.err() + demo.out()).isZero();
    assertThat(demo.err()).isEmpty();
    String out = demo.out();
    assertThat(out).contains("20,000 users in an embedded H2 database", "seeded 20,000 users",
        "false negatives: 0", "caught up 200 sign-ups made while down");

    Matcher start = row(out, "start: full scan");
    assertThat(start.group(7)).isNotEqualTo("-");

    Matcher signups = row(out, "concurrent sign-ups");
    assertThat(number(signups, 1)).isEqualTo(3 * (4_000 / 3));
    assertThat(number(signups, 2) + number(signups, 3)).as("every check is a query or a query saved")
        .isEqualTo(number(signups, 1));

    // 2,000 deleted addresses: the stale filter sends every one to the database...
    Matcher stale = row(out, "deleted 10%: stale");
    assertThat(number(stale, 1)).isEqualTo(2_000);
    assertThat(number(stale, 2)).isEqualTo(2_000);
    assertThat(number(stale, 4)).isEqualTo(2_000);
    assertThat(stale.group(5)).isEqualTo("100.00%");

    // ...the rebuilt one filters them again, at about the target rate (p <= 1%: at most ~1.7% of 2,000
    // at three standard errors), and so does the one restarted from the snapshot.
    for (String phase : new String[] {"rebuilt", "restart: snapshot"}) {
      Matcher m = row(out, phase);
      assertThat(number(m, 1)).isEqualTo(2_000);
      assertThat(number(m, 4)).isLessThanOrEqualTo(34);
      assertThat(number(m, 3)).isGreaterThanOrEqualTo(2_000 - 34);
      assertThat(m.group(7)).isNotEqualTo("-");
    }
  }

  @Test
  void plainDemoStillRunsAndSignupRejectsBadSizes() {
    assertThat(CliRunner.run("demo", "--keys", "1000", "--probes", "1000").exitCode()).isZero();
    Result bad = CliRunner.run("demo", "signup", "--users", "10");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.errLines()).singleElement().asString().startsWith("bloom: error: ").contains("were 10");
  }
}
