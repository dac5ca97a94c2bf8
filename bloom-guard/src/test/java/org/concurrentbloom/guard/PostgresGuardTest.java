package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The guard against a real PostgreSQL server, unchanged: JDBC streaming through a cursor, concurrent
 * sign-ups decided by the UNIQUE constraint, rebuilds, and a restart caught up from the id watermark.
 *
 * <p>Connects with BLOOM_PG_URL, BLOOM_PG_USER and BLOOM_PG_PASSWORD (.ci/run starts a server and sets
 * them). Without BLOOM_PG_URL the test is skipped, except under CI (CI set), where that is a failure.
 */
class PostgresGuardTest {
  private static final String TABLE = "bloom_guard_users";

  private PGSimpleDataSource dataSource;

  @BeforeEach
  void connect() throws SQLException {
    String url = System.getenv("BLOOM_PG_URL");
    if (url == null || url.isBlank()) {
      if (System.getenv("CI") != null) {
        fail("CI is set but BLOOM_PG_URL is not: .ci/run must start PostgreSQL and export BLOOM_PG_URL");
      }
      Assumptions.abort("BLOOM_PG_URL not set: no PostgreSQL server to test against");
    }
    dataSource = new PGSimpleDataSource();
    dataSource.setURL(url);
    dataSource.setUser(System.getenv().getOrDefault("BLOOM_PG_USER", "postgres"));
    dataSource.setPassword(System.getenv().getOrDefault("BLOOM_PG_PASSWORD", ""));
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + TABLE);
      s.execute("CREATE TABLE " + TABLE + " (id BIGSERIAL PRIMARY KEY, email TEXT NOT NULL UNIQUE)");
      s.execute("INSERT INTO " + TABLE + " (email) SELECT 'seed' || g || '@example.com' FROM generate_series(0, 49999) g");
    }
  }

  @AfterEach
  void dropTable() throws SQLException {
    if (dataSource != null) {
      try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS " + TABLE);
      }
    }
  }

  private JdbcKeySource<String> source() {
    return JdbcKeySource.builder(dataSource, "SELECT email, id FROM " + TABLE, rs -> rs.getString("email"))
        .watermarkColumn("id").fetchSize(5_000).build();
  }

  private static boolean insert(Connection c, String email) throws SQLException {
    return TestSql.insertEmail(c, TABLE, email);
  }

  private static boolean exists(Connection c, String email) throws SQLException {
    return TestSql.countEmail(c, TABLE, email) > 0;
  }

  @Test
  void signUpsRebuildsAndARestartAgainstPostgres(@TempDir Path dir) throws Exception {
    FileSnapshotStore store = new FileSnapshotStore(dir.resolve("pg.snapshot"));
    Queue<String> created = new ConcurrentLinkedQueue<>();
    int threads = 4;
    int perThread = 1_500;
    try (MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), source())
        .name("pg-users").expectedInsertions(100_000).fpp(0.01).snapshotStore(store).build()) {
      assertThat(guard.awaitReady(Duration.ofSeconds(60))).isTrue();
      assertThat(guard.stats().filterCount()).isEqualTo(50_000);

      ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
      CyclicBarrier start = new CyclicBarrier(threads + 1);
      List<Future<int[]>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        results.add(pool.submit(() -> {
          int taken = 0;
          try (Connection c = dataSource.getConnection()) {
            start.await();
            for (int i = 0; i < perThread; i++) {
              // Pairs of threads try the same new addresses, so some sign-ups race; every third is taken.
              String email = i % 3 == 0 ? "seed" + (i * 7 + thread) + "@example.com"
                  : "new-" + (thread / 2) + "-" + i + "@example.com";
              if (guard.check(email, e -> exists(c, e)) || !insert(c, email)) {
                taken++;
              } else {
                guard.recordInsert(email);
                created.add(email);
              }
            }
          }
          return new int[] {taken};
        }));
      }
      start.await();
      guard.rebuildNow(); // while the sign-ups run
      guard.rebuildNow();
      int taken = 0;
      for (Future<int[]> f : results) {
        taken += f.get(120, TimeUnit.SECONDS)[0];
      }
      pool.shutdown();

      // Each new address was tried by two threads: exactly one created it, whatever the guard said.
      assertThat(created).doesNotHaveDuplicates();
      assertThat(created).hasSize(threads / 2 * (perThread - perThread / 3));
      assertThat(taken).isEqualTo(threads * perThread - created.size());
      for (String email : created) {
        assertThat(guard.mightExist(email)).as(email).isTrue();
      }
      assertThat(guard.stats().rebuilds()).isGreaterThanOrEqualTo(3);
      assertThat(guard.stats().lastError()).isNull();
    }

    // Restart: rows added while no guard ran are caught up from the snapshot's id watermark.
    try (Connection c = dataSource.getConnection()) {
      for (int i = 0; i < 100; i++) {
        assertThat(insert(c, "offline-" + i + "@example.com")).isTrue();
      }
    }
    try (MembershipGuard<String> restarted = MembershipGuard.builder(Funnels.stringFunnel(), source())
        .name("pg-users").expectedInsertions(100_000).fpp(0.01).snapshotStore(store).build()) {
      assertThat(restarted.awaitReady(Duration.ofSeconds(60))).isTrue();
      for (int i = 0; i < 100; i++) {
        assertThat(restarted.mightExist("offline-" + i + "@example.com")).isTrue();
      }
      for (String email : created) {
        assertThat(restarted.mightExist(email)).isTrue();
      }
      // Keys caught up that the filter already answered "maybe" for (p = 1%) are not counted again.
      long expected = 50_000L + created.size() + 100;
      assertThat(restarted.stats().filterCount()).isBetween(expected - 100, expected);
    }
  }
}
