package org.concurrentbloom.guard;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * A {@link KeySource} that runs a SQL query on a {@link DataSource} and streams its rows.
 *
 * <pre>{@code
 * KeySource<String> users = JdbcKeySource.builder(dataSource, "SELECT email, id FROM users",
 *         rs -> rs.getString("email"))
 *     .watermarkColumn("id")     // optional: lets a snapshot be caught up instead of rebuilt
 *     .build();
 * }</pre>
 *
 * <p>Streaming. The query runs with a forward-only, read-only result set, a fetch size (default 10,000
 * rows) and auto-commit off for its duration (PostgreSQL's driver fetches in batches through a cursor
 * only inside a transaction), so a table of ten million rows is never held in memory at once. Each
 * scan takes a fresh connection and starts its query inside the call, as {@link KeySource} requires.
 *
 * <p>Watermark. With {@link Builder#watermarkColumn} (a number, such as an identity id) or
 * {@link Builder#timestampWatermarkColumn} (a timestamp), the query must return that column (NOT NULL;
 * rows where it is NULL are streamed but do not move the watermark), and a catch-up runs
 * {@code SELECT * FROM (query) AS bloom_keys WHERE bloom_keys.column > ?}. Sequence values are handed
 * out at insert time but become visible at commit, so a long transaction can commit a row below a
 * watermark already recorded; {@link Builder#watermarkOverlap} widens each catch-up to cover that.
 *
 * <p>Thread safety: immutable; scans may run from any thread, also concurrently.
 *
 * @param <K> the type of key
 */
public final class JdbcKeySource<K> implements KeySource<K> {

  /** Reads the key from the current row of a result set. */
  @FunctionalInterface
  public interface KeyReader<K> {
    /** The key of the current row; null to skip the row (a NULL key cannot be looked up anyway). */
    K read(ResultSet row) throws SQLException;
  }

  private final DataSource dataSource;
  private final String query;
  private final KeyReader<? extends K> reader;
  private final int fetchSize;
  private final WatermarkColumn watermark;
  private final long overlap;

  private JdbcKeySource(Builder<K> b) {
    this.dataSource = b.dataSource;
    this.query = b.query;
    this.reader = b.reader;
    this.fetchSize = b.fetchSize;
    this.watermark = b.watermark;
    this.overlap = b.overlap;
  }

  /**
   * Starts a source over {@code query}, whose rows {@code reader} turns into keys.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code query} is blank
   */
  public static <K> Builder<K> builder(DataSource dataSource, String query, KeyReader<? extends K> reader) {
    return new Builder<>(dataSource, query, reader);
  }

  /**
   * A source of String keys taken from the first column of {@code query}, without a watermark.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code query} is blank
   */
  public static JdbcKeySource<String> ofStrings(DataSource dataSource, String query) {
    return JdbcKeySource.<String>builder(dataSource, query, row -> row.getString(1)).build();
  }

  /** Describes a {@link JdbcKeySource}. Not thread-safe; the source it builds is. */
  public static final class Builder<K> {
    private final DataSource dataSource;
    private final String query;
    private final KeyReader<? extends K> reader;
    private int fetchSize = 10_000;
    private WatermarkColumn watermark;
    private long overlap;

    private Builder(DataSource dataSource, String query, KeyReader<? extends K> reader) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      this.query = Objects.requireNonNull(query, "query");
      this.reader = Objects.requireNonNull(reader, "reader");
      if (query.isBlank()) {
        throw new IllegalArgumentException("query must not be blank");
      }
    }

    /** Rows fetched per round trip; default 10,000. @throws IllegalArgumentException if below 1 */
    public Builder<K> fetchSize(int rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("fetchSize must be >= 1, was " + rows);
      }
      this.fetchSize = rows;
      return this;
    }

    /**
     * Names a numeric, monotonically increasing column of the query (such as an identity id) to use as
     * the watermark. @throws IllegalArgumentException if {@code column} is not a plain SQL identifier
     */
    public Builder<K> watermarkColumn(String column) {
      this.watermark = new WatermarkColumn(column, false);
      return this;
    }

    /**
     * Names a timestamp column of the query, set at insert and never moved back, to use as the
     * watermark, in microseconds. The column must be a {@code TIMESTAMP} or a
     * {@code TIMESTAMP WITH TIME ZONE}; its values are read and bound without the JVM's default time
     * zone, so a snapshot caught up by a JVM in another zone starts from the same row.
     * @throws IllegalArgumentException if {@code column} is not a plain SQL identifier
     */
    public Builder<K> timestampWatermarkColumn(String column) {
      this.watermark = new WatermarkColumn(column, true);
      return this;
    }

    /**
     * Catch-up scans start {@code overlap} below the recorded watermark (ids, or microseconds for a
     * timestamp column), to include rows of transactions that committed late. Default 0.
     *
     * @throws IllegalArgumentException if {@code overlap} is negative
     */
    public Builder<K> watermarkOverlap(long overlap) {
      if (overlap < 0) {
        throw new IllegalArgumentException("watermarkOverlap must be >= 0, was " + overlap);
      }
      this.overlap = overlap;
      return this;
    }

    /** Builds the source. */
    public JdbcKeySource<K> build() {
      return new JdbcKeySource<>(this);
    }
  }

  @Override
  public ScanResult scanAll(Consumer<? super K> sink) throws SQLException {
    return scan(query, false, 0, sink);
  }

  @Override
  public boolean supportsWatermark() {
    return watermark != null;
  }

  @Override
  public ScanResult scanAfter(long after, Consumer<? super K> sink) throws SQLException {
    if (watermark == null) {
      throw new UnsupportedOperationException(this + " has no watermark column");
    }
    long from = after < Long.MIN_VALUE + overlap ? Long.MIN_VALUE : after - overlap;
    String sql = "SELECT * FROM (" + query + ") AS bloom_keys WHERE bloom_keys." + watermark.name + " > ?";
    return scan(sql, true, from, sink);
  }

  private ScanResult scan(String sql, boolean bindWatermark, long after, Consumer<? super K> sink)
      throws SQLException {
    Objects.requireNonNull(sink, "sink");
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      if (autoCommit) {
        connection.setAutoCommit(false);
      } else {
        // End whatever transaction the connection may carry, so the scan's snapshot is taken now, inside
        // this call, as KeySource requires (an old REPEATABLE READ snapshot could miss recent commits).
        connection.rollback();
      }
      try {
        ScanResult result;
        try (PreparedStatement statement = connection.prepareStatement(
            sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
          statement.setFetchSize(fetchSize);
          if (bindWatermark) {
            if (watermark.needsType()) {
              learnWatermarkType(connection);
            }
            watermark.bind(statement, 1, after);
          }
          try (ResultSet rows = statement.executeQuery()) {
            result = stream(rows, sink);
          }
        }
        connection.commit(); // a read-only transaction: ends it and releases the cursor
        return result;
      } catch (SQLException | RuntimeException | Error e) {
        rollbackQuietly(connection, e);
        throw e;
      } finally {
        if (autoCommit) {
          connection.setAutoCommit(true);
        }
      }
    }
  }

  /**
   * A catch-up right after a restart binds the watermark before any row was read, so the column's type
   * (with or without time zone) is asked of an empty result of the same query.
   */
  private void learnWatermarkType(Connection connection) throws SQLException {
    String probe = "SELECT * FROM (" + query + ") AS bloom_keys WHERE 1 = 0";
    try (PreparedStatement statement = connection.prepareStatement(probe);
        ResultSet empty = statement.executeQuery()) {
      watermark.learnType(empty.getMetaData(), empty.findColumn(watermark.name));
    }
  }

  private ScanResult stream(ResultSet rows, Consumer<? super K> sink) throws SQLException {
    int column = watermark == null ? 0 : rows.findColumn(watermark.name);
    long keys = 0;
    boolean seen = false;
    long max = Long.MIN_VALUE;
    while (rows.next()) {
      K key = reader.read(rows);
      if (key == null) {
        continue;
      }
      sink.accept(key);
      keys++;
      if (column != 0) {
        Long w = watermark.read(rows, column);
        if (w != null) {
          seen = true;
          max = Math.max(max, w);
        }
      }
    }
    return seen ? ScanResult.of(keys, max) : ScanResult.of(keys);
  }

  private static void rollbackQuietly(Connection connection, Throwable failure) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  @Override
  public String toString() {
    return "JdbcKeySource[" + query + (watermark == null ? "" : ", watermark " + watermark) + "]";
  }
}
