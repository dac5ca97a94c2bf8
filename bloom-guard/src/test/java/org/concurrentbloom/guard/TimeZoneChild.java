package org.concurrentbloom.guard;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.concurrentbloom.Funnels;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The child JVM of {@link TimeZoneRestartTest}, started with a chosen {@code -Duser.timezone}. Phase
 * "write" creates a table of events with a timestamp column of the given SQL type (in an H2 file
 * database or on PostgreSQL: args phase, JDBC URL, user, password, snapshot file, column type), builds a
 * guard over its first 1,000 rows, closes it (writing the snapshot), then inserts rows 1,000 to 3,999,
 * one second apart. Phase "check" restarts the guard from that snapshot and prints how it caught up and
 * how many of the later rows it answers "absent" for.
 */
public final class TimeZoneChild {
  static final int BEFORE = 1_000;
  static final int AFTER = 3_000;
  private static final LocalDateTime BASE = LocalDateTime.of(2024, 1, 1, 0, 0);

  private TimeZoneChild() {}

  public static void main(String[] args) throws Exception {
    DataSource db = dataSource(args[1], args[2], args[3]);
    Path snapshot = Path.of(args[4]);
    boolean withZone = args[5].toUpperCase(java.util.Locale.ROOT).contains("WITH TIME ZONE");
    if (args[0].equals("write")) {
      try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS tz_events");
        s.execute("CREATE TABLE tz_events (email VARCHAR(100) PRIMARY KEY, created_at " + args[5] + " NOT NULL)");
      }
      insert(db, 0, BEFORE, withZone);
      Counting source = new Counting(db);
      try (MembershipGuard<String> guard = guard(source, snapshot)) {
        if (!guard.awaitReady(Duration.ofSeconds(60))) {
          throw new AssertionError("the first build did not finish");
        }
      }
      insert(db, BEFORE, BEFORE + AFTER, withZone);
      System.out.println("written");
      return;
    }
    Counting source = new Counting(db);
    try (MembershipGuard<String> guard = guard(source, snapshot)) {
      if (!guard.awaitReady(Duration.ofSeconds(60))) {
        throw new AssertionError("the restart did not finish");
      }
      int absent = 0;
      for (int i = BEFORE; i < BEFORE + AFTER; i++) {
        if (!guard.mightExist(email(i))) {
          absent++;
        }
      }
      System.out.println("fullScans=" + source.fullScans + " catchUps=" + source.catchUps + " absent=" + absent);
    }
  }

  private static MembershipGuard<String> guard(KeySource<String> source, Path snapshot) throws Exception {
    return MembershipGuard.builder(Funnels.stringFunnel(), source).name("events").expectedInsertions(10_000)
        .fpp(1e-6).snapshotStore(new FileSnapshotStore(snapshot)).build();
  }

  private static String email(int i) {
    return "e" + i + "@example.com";
  }

  private static DataSource dataSource(String url, String user, String password) {
    if (url.startsWith("jdbc:postgresql:")) {
      org.postgresql.ds.PGSimpleDataSource pg = new org.postgresql.ds.PGSimpleDataSource();
      pg.setURL(url);
      pg.setUser(user);
      pg.setPassword(password);
      return pg;
    }
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL(url);
    return h2;
  }

  private static void insert(DataSource db, int from, int to, boolean withZone) throws SQLException {
    try (Connection c = db.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO tz_events VALUES (?, ?)")) {
      for (int i = from; i < to; i++) {
        ps.setString(1, email(i));
        // Values that mean the same in every JVM zone: a wall-clock value, or an instant at UTC.
        ps.setObject(2, withZone ? BASE.plusSeconds(i).atOffset(ZoneOffset.UTC) : BASE.plusSeconds(i));
        ps.executeUpdate();
      }
    }
  }

  /** The JDBC source with a TIMESTAMP watermark, counting which kind of scan the guard ran. */
  private static final class Counting implements KeySource<String> {
    private final JdbcKeySource<String> jdbc;
    final AtomicInteger fullScans = new AtomicInteger();
    final AtomicInteger catchUps = new AtomicInteger();

    Counting(DataSource db) {
      this.jdbc = JdbcKeySource.builder(db, "SELECT email, created_at FROM tz_events", rs -> rs.getString("email"))
          .timestampWatermarkColumn("created_at").build();
    }

    @Override
    public ScanResult scanAll(Consumer<? super String> sink) throws Exception {
      fullScans.incrementAndGet();
      return jdbc.scanAll(sink);
    }

    @Override
    public boolean supportsWatermark() {
      return true;
    }

    @Override
    public ScanResult scanAfter(long watermark, Consumer<? super String> sink) throws Exception {
      catchUps.incrementAndGet();
      return jdbc.scanAfter(watermark, sink);
    }
  }
}
