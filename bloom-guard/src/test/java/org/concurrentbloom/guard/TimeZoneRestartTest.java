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

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aSnapshotWrittenInUtcAndCaughtUpInTokyoMissesNoRow() throws Exception {
    assertThat(run("UTC", "write")).isEqualTo("written");
    assertThat(run("Asia/Tokyo", "check")).isEqualTo("fullScans=0 catchUps=1 absent=0");
  }

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aSnapshotWrittenInTokyoAndCaughtUpInNewYorkMissesNoRow() throws Exception {
    assertThat(run("Asia/Tokyo", "write")).isEqualTo("written");
    assertThat(run("America/New_York", "check")).isEqualTo("fullScans=0 catchUps=1 absent=0");
  }

  private String run(String zone, String phase) throws IOException, InterruptedException {
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Duser.timezone=" + zone, "-cp", System.getProperty("java.class.path"), TimeZoneChild.class.getName(),
        phase, dir.resolve("events").toString(), dir.resolve("events.snapshot").toString())
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
