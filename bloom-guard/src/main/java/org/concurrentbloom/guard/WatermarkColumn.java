package org.concurrentbloom.guard;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.regex.Pattern;

/**
 * The watermark column of a {@link JdbcKeySource}: its name, and how its values map to the guard's
 * {@code long} watermarks. A numeric column (an identity or sequence id) maps as is; a timestamp column
 * maps to microseconds, the precision PostgreSQL keeps, so a value read and bound back compares equal.
 *
 * <p>Time zones. The value must survive a restart under another JVM zone (a snapshot written in UTC and
 * caught up in Asia/Tokyo), so no conversion here may use the JVM's default zone: {@code getTimestamp}
 * and {@code setTimestamp} do, and shifted the catch-up bound by the zones' difference, which missed
 * every row in between. A {@code TIMESTAMP} without time zone is read and bound as a
 * {@link LocalDateTime}, its own wall-clock value, counted in microseconds as if it were UTC (it is not
 * an instant, only a value that orders like the column). A {@code TIMESTAMP WITH TIME ZONE} is read and
 * bound as an {@link OffsetDateTime}: microseconds since the epoch. Which of the two a column is comes
 * from the driver's metadata, asked once. Immutable apart from that cached answer, so any thread may
 * call any method: the answer is volatile, and two threads that both ask get the same one.
 */
final class WatermarkColumn {
  /** A plain SQL identifier, optionally qualified; anything else could smuggle SQL into the query. */
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final long MICROS_PER_SECOND = 1_000_000L;

  final String name;
  private final boolean timestamp;
  /** For a timestamp column: null until the metadata was read, then whether it carries a zone. */
  private volatile Boolean withZone;

  WatermarkColumn(String name, boolean timestamp) {
    if (name == null || !IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "watermark column must be a plain SQL identifier ([A-Za-z_][A-Za-z0-9_]*), was " + name);
    }
    this.name = name;
    this.timestamp = timestamp;
  }

  /** True for a timestamp column whose SQL type is not known yet: {@link #bind} needs it. */
  boolean needsType() {
    return timestamp && withZone == null;
  }

  /**
   * Learns the column's SQL type from the metadata of a result that has it.
   *
   * @throws SQLException if the column is neither a timestamp nor a timestamp with time zone
   */
  void learnType(ResultSetMetaData meta, int column) throws SQLException {
    if (!timestamp || withZone != null) {
      return;
    }
    int type = meta.getColumnType(column);
    String typeName = String.valueOf(meta.getColumnTypeName(column)).toLowerCase(java.util.Locale.ROOT);
    // PostgreSQL's driver reports timestamptz as Types.TIMESTAMP; only its type name tells them apart.
    boolean zoneName = typeName.equals("timestamptz") || typeName.contains("with time zone");
    if (type == Types.TIMESTAMP_WITH_TIMEZONE || (type == Types.TIMESTAMP && zoneName)) {
      withZone = true;
    } else if (type == Types.TIMESTAMP) {
      withZone = false;
    } else {
      throw new SQLException("timestamp watermark column " + name + " has SQL type " + meta.getColumnTypeName(column)
          + " (java.sql.Types " + type + "); expected TIMESTAMP or TIMESTAMP WITH TIME ZONE");
    }
  }

  /** The watermark of the current row, or null if the column is SQL NULL there. */
  Long read(ResultSet rs, int column) throws SQLException {
    if (timestamp) {
      if (withZone == null) {
        learnType(rs.getMetaData(), column);
      }
      if (withZone) {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : toMicros(t.toInstant());
      }
      LocalDateTime t = rs.getObject(column, LocalDateTime.class);
      return t == null ? null : toMicros(t.toInstant(ZoneOffset.UTC));
    }
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }

  /** Binds {@code watermark} to parameter {@code index} in the column's own SQL type. */
  void bind(PreparedStatement ps, int index, long watermark) throws SQLException {
    if (!timestamp) {
      ps.setLong(index, watermark);
      return;
    }
    if (withZone == null) {
      throw new IllegalStateException("the SQL type of watermark column " + name + " is not known yet");
    }
    Instant t = fromMicros(watermark);
    if (withZone) {
      ps.setObject(index, t.atOffset(ZoneOffset.UTC));
    } else {
      ps.setObject(index, LocalDateTime.ofInstant(t, ZoneOffset.UTC));
    }
  }

  static long toMicros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), MICROS_PER_SECOND), t.getNano() / 1000);
  }

  static Instant fromMicros(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
        Math.floorMod(micros, MICROS_PER_SECOND) * 1000);
  }

  @Override
  public String toString() {
    return name + (timestamp ? " (timestamp)" : " (number)");
  }
}
