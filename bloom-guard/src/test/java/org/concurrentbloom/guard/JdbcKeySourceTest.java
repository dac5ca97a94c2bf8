package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JdbcKeySourceTest {
  private H2Users db;

  @BeforeEach
  void open() throws SQLException {
    db = new H2Users();
    db.seed("u", 2_500);
  }

  @AfterEach
  void close() throws SQLException {
    db.close();
  }

  @Test
  void scanAllStreamsEveryKeyAndReportsTheLargestId() throws Exception {
    List<String> keys = new ArrayList<>();
    ScanResult r = db.source().scanAll(keys::add);
    assertThat(keys).hasSize(2_500).contains("u0@example.com", "u2499@example.com").doesNotHaveDuplicates();
    assertThat(r.keys()).isEqualTo(2_500);
    assertThat(r.maxWatermark()).hasValue(2_500);
  }

  @Test
  void scanAfterStreamsOnlyNewerRowsAndOverlapWidensIt() throws Exception {
    List<String> keys = new ArrayList<>();
    ScanResult r = db.source().scanAfter(2_490, keys::add);
    assertThat(keys).hasSize(10).contains("u2490@example.com", "u2499@example.com");
    assertThat(r.maxWatermark()).hasValue(2_500);
    keys.clear();
    JdbcKeySource<String> overlapping = JdbcKeySource.builder(db.dataSource, "SELECT email, id FROM users",
        rs -> rs.getString(1)).watermarkColumn("id").watermarkOverlap(5).build();
    overlapping.scanAfter(2_490, keys::add);
    assertThat(keys).hasSize(15);
    assertThat(db.source().scanAfter(2_500, k -> { }).maxWatermark()).isEmpty();
  }

  @Test
  void aTimestampColumnWorksAsWatermarkInMicroseconds() throws Exception {
    try (Connection c = db.dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("UPDATE users SET created_at = TIMESTAMP '2024-01-01 00:00:00' + id * INTERVAL '1' SECOND");
    }
    JdbcKeySource<String> source = JdbcKeySource.builder(db.dataSource, "SELECT email, created_at FROM users",
        rs -> rs.getString("email")).timestampWatermarkColumn("created_at").build();
    ScanResult all = source.scanAll(k -> { });
    long last = all.maxWatermark().orElseThrow();
    long firstOfLastTen = last - 10 * 1_000_000L;
    List<String> keys = new ArrayList<>();
    source.scanAfter(firstOfLastTen, keys::add);
    assertThat(keys).hasSize(10).contains("u2499@example.com");
    Instant t = Instant.parse("2024-05-06T07:08:09.123456Z");
    assertThat(WatermarkColumn.fromMicros(WatermarkColumn.toMicros(t))).isEqualTo(t);
    Instant before1970 = Instant.parse("1969-12-31T23:59:59.999999Z");
    assertThat(WatermarkColumn.fromMicros(WatermarkColumn.toMicros(before1970))).isEqualTo(before1970);
  }

  @Test
  void nullKeysAreSkipped() throws Exception {
    JdbcKeySource<String> source = JdbcKeySource.ofStrings(db.dataSource,
        "SELECT CASE WHEN MOD(id, 2) = 0 THEN NULL ELSE email END FROM users");
    assertThat(source.scanAll(k -> { }).keys()).isEqualTo(1_250);
    assertThat(source.supportsWatermark()).isFalse();
    assertThatThrownBy(() -> source.scanAfter(0, k -> { })).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void streamsWithAFetchSizeForwardOnlyInsideATransactionAndRestoresAutoCommit() throws Exception {
    List<String> calls = new ArrayList<>();
    DataSource recording = recordingDataSource(db.dataSource, calls);
    JdbcKeySource.builder(recording, "SELECT email, id FROM users", rs -> rs.getString(1))
        .watermarkColumn("id").fetchSize(777).build().scanAll(k -> { });
    assertThat(calls).containsSubsequence("setAutoCommit(false)", "prepareStatement(forward-only, read-only)",
        "setFetchSize(777)", "executeQuery", "commit", "setAutoCommit(true)", "close");
  }

  @Test
  void aFailingQueryThrowsAndRollsBack() {
    JdbcKeySource<String> broken = JdbcKeySource.ofStrings(db.dataSource, "SELECT email FROM no_such_table");
    assertThatThrownBy(() -> broken.scanAll(k -> { })).isInstanceOf(SQLException.class)
        .hasMessageContaining("NO_SUCH_TABLE");
  }

  @Test
  void rejectsBadArgumentsNamingThem() {
    assertThatThrownBy(() -> JdbcKeySource.ofStrings(db.dataSource, " "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
    JdbcKeySource.Builder<String> b = JdbcKeySource.builder(db.dataSource, "SELECT 1", rs -> "x");
    assertThatThrownBy(() -> b.fetchSize(0)).hasMessageContaining("was 0");
    assertThatThrownBy(() -> b.watermarkOverlap(-1)).hasMessageContaining("was -1");
    assertThatThrownBy(() -> b.watermarkColumn("id; DROP TABLE users")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was id; DROP TABLE users");
  }

  /** Wraps a data source so that the calls the source makes on connections and statements are listed. */
  private static DataSource recordingDataSource(DataSource real, List<String> calls) {
    InvocationHandler ds = (proxy, method, args) -> {
      if (method.getName().equals("getConnection")) {
        Connection c = real.getConnection();
        return Proxy.newProxyInstance(JdbcKeySourceTest.class.getClassLoader(), new Class<?>[] {Connection.class},
            (p, m, a) -> {
              switch (m.getName()) {
                case "setAutoCommit" -> calls.add("setAutoCommit(" + a[0] + ")");
                case "commit", "close" -> calls.add(m.getName());
                case "prepareStatement" -> {
                  if (a.length == 3 && (int) a[1] == java.sql.ResultSet.TYPE_FORWARD_ONLY
                      && (int) a[2] == java.sql.ResultSet.CONCUR_READ_ONLY) {
                    calls.add("prepareStatement(forward-only, read-only)");
                  }
                  PreparedStatement st = (PreparedStatement) invoke(m, c, a);
                  return Proxy.newProxyInstance(JdbcKeySourceTest.class.getClassLoader(),
                      new Class<?>[] {PreparedStatement.class}, (p2, m2, a2) -> {
                        if (m2.getName().equals("setFetchSize")) {
                          calls.add("setFetchSize(" + a2[0] + ")");
                        } else if (m2.getName().equals("executeQuery")) {
                          calls.add("executeQuery");
                        }
                        return invoke(m2, st, a2);
                      });
                }
                default -> { }
              }
              return invoke(m, c, a);
            });
      }
      return invoke(method, real, args);
    };
    return (DataSource) Proxy.newProxyInstance(JdbcKeySourceTest.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, ds);
  }

  private static Object invoke(java.lang.reflect.Method m, Object target, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
