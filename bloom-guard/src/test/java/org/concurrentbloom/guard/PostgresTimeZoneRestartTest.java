package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TimeZoneRestartTest} on PostgreSQL, whose driver also sets each session's TimeZone from the
 * JVM's zone, and reports timestamptz as Types.TIMESTAMP: both column types, written in UTC and caught
 * up in Asia/Tokyo. Needs BLOOM_PG_URL as {@link PostgresGuardTest} does.
 */
class PostgresTimeZoneRestartTest {
  @TempDir
  Path dir;

  private String url;

  @BeforeEach
  void server() {
    url = System.getenv("BLOOM_PG_URL");
    if (url == null || url.isBlank()) {
      if (System.getenv("CI") != null) {
        fail("CI is set but BLOOM_PG_URL is not: .ci/run must start PostgreSQL and export BLOOM_PG_URL");
      }
      Assumptions.abort("BLOOM_PG_URL not set: no PostgreSQL server to test against");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {TimeZoneRestartTest.ZONELESS, TimeZoneRestartTest.WITH_ZONE})
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aSnapshotWrittenInUtcAndCaughtUpInTokyoMissesNoRow(String columnType) throws Exception {
    String user = System.getenv().getOrDefault("BLOOM_PG_USER", "postgres");
    String password = System.getenv().getOrDefault("BLOOM_PG_PASSWORD", "");
    assertThat(TimeZoneRestartTest.run("UTC", "write", url, user, password, dir, columnType)).isEqualTo("written");
    assertThat(TimeZoneRestartTest.run("Asia/Tokyo", "check", url, user, password, dir, columnType))
        .isEqualTo("fullScans=0 catchUps=1 absent=0");
  }
}
