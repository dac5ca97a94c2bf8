package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.concurrentbloom.cli.CliRunner.Result;
import org.junit.jupiter.api.Test;

class DemoTest {
  private static final Pattern MEASURED =
      Pattern.compile("measured FPR: +([0-9.]+)% \\(([0-9,]+) of ([0-9,]+) never-inserted");

  @Test
  void smallDemoMeasuresAnFprNearTheTargetAndHasNoFalseNegatives() {
    Result demo = CliRunner.run("demo", "--keys", "20000", "--probes", "200000");

    assertThat(demo.exitCode()).as(demo.err()).isZero();
    assertThat(demo.err()).isEmpty();
    Matcher m = MEASURED.matcher(demo.out());
    assertThat(m.find()).as(demo.out()).isTrue();
    double measuredPercent = Double.parseDouble(m.group(1));
    assertThat(measuredPercent).isBetween(0.8, 1.2); // target 1%; 200,000 probes give about ±0.07%
    assertThat(m.group(3)).isEqualTo("200,000");
    assertThat(demo.out()).contains("false negatives:  0 (all 20,000 inserted addresses re-queried)")
        .contains("fill ratio:").contains("estimated FPR:").contains("insert rate:").contains("lookup rate:")
        .contains("not a benchmark").contains("m = 191,744 bits, k = 7");
  }

  @Test
  void demoRespectsFpp() {
    Result demo = CliRunner.run("demo", "--keys", "5000", "--probes", "100000", "--fpp", "0.1");
    assertThat(demo.exitCode()).isZero();
    Matcher m = MEASURED.matcher(demo.out());
    assertThat(m.find()).isTrue();
    assertThat(Double.parseDouble(m.group(1))).isBetween(8.0, 12.0);
  }

  @Test
  void demoRejectsBadSizes() {
    Result demo = CliRunner.run("demo", "--keys", "0");
    assertThat(demo.exitCode()).isEqualTo(2);
    assertThat(demo.errLines()).singleElement().asString().startsWith("bloom: error: ");
  }
}
