package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot written by a JVM in one time zone and caught up by a JVM in another (a host moved, a
 * container image with another TZ) must start its catch-up at the same row: each phase runs in its own
 * child JVM with {@code -Duser.timezone}, over one H2 file database.
 */
class TimeZoneRestartTest {
  @TempDir
  Path dir;

  static final String ZONELESS = "TIMESTAMP(6)";
  static final String WITH_ZONE = "TIMESTAMP(6) WITH TIME ZONE";

  private String h2() {
    return "jdbc:h2:file:" + dir.resolve("events").toAbsolutePath();
  }

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aSnapshotWrittenInUtcAndCaughtUpInTokyoMissesNoRow() throws Exception {
    assertThat(run("UTC", "write", h2(), "", "", dir, ZONELESS)).isEqualTo("written");
    assertThat(run("Asia/Tokyo", "check", h2(), "", "", dir, ZONELESS)).isEqualTo("fullScans=0 catchUps=1 absent=0");
  }

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aSnapshotWrittenInTokyoAndCaughtUpInNewYorkMissesNoRow() throws Exception {
    assertThat(run("Asia/Tokyo", "write", h2(), "", "", dir, ZONELESS)).isEqualTo("written");
    assertThat(run("America/New_York", "check", h2(), "", "", dir, ZONELESS))
        .isEqualTo("fullScans=0 catchUps=1 absent=0");
  }

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aTimestampWithTimeZoneColumnIsCaughtUpInAnyZoneToo() throws Exception {
    assertThat(run("UTC", "write", h2(), "", "", dir, WITH_ZONE)).isEqualTo("written");
    assertThat(run("Asia/Tokyo", "check", h2(), "", "", dir, WITH_ZONE)).isEqualTo("fullScans=0 catchUps=1 absent=0");
  }

  /** Runs one phase of {@link TimeZoneChild} in a JVM whose default zone is {@code zone}; its output. */
  static String run(String zone, String phase, String url, String user, String password, Path dir, String columnType)
      throws IOException, InterruptedException {
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Duser.timezone=" + zone, "-cp", System.getProperty("java.class.path"), TimeZoneChild.class.getName(),
        phase, url, user, password, dir.resolve("events.snapshot").toString(), columnType)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the %s child ended", phase).isTrue();
      assertThat(child.exitValue()).as("the %s child's exit status", phase).isZero();
      return out;
    } finally {
      child.destroyForcibly();
    }
  }
}
