package org.concurrentbloom.guard;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * The watermark column of a {@link JdbcKeySource}: its name, and how its values map to the guard's
 * {@code long} watermarks. A numeric column (an identity or sequence id) maps as is; a timestamp column
 * maps to microseconds since the epoch, the precision PostgreSQL keeps, so a value read and bound back
 * compares equal. Immutable.
 */
final class WatermarkColumn {
  /** A plain SQL identifier, optionally qualified; anything else could smuggle SQL into the query. */
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final long MICROS_PER_SECOND = 1_000_000L;

  final String name;
  private final boolean timestamp;

  WatermarkColumn(String name, boolean timestamp) {
    if (name == null || !IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "watermark column must be a plain SQL identifier ([A-Za-z_][A-Za-z0-9_]*), was " + name);
    }
    this.name = name;
    this.timestamp = timestamp;
  }

  /** The watermark of the current row, or null if the column is SQL NULL there. */
  Long read(ResultSet rs, int column) throws SQLException {
    if (timestamp) {
      Timestamp t = rs.getTimestamp(column);
      return t == null ? null : toMicros(t.toInstant());
    }
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }

  /** Binds {@code watermark} to parameter {@code index} in the column's own SQL type. */
  void bind(PreparedStatement ps, int index, long watermark) throws SQLException {
    if (timestamp) {
      ps.setTimestamp(index, Timestamp.from(fromMicros(watermark)));
    } else {
      ps.setLong(index, watermark);
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
