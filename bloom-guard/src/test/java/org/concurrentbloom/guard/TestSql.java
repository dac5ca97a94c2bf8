package org.concurrentbloom.guard;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Small helpers the database and concurrency tests share. */
final class TestSql {
  private TestSql() {}

  /**
   * Runs {@code INSERT INTO table(email) VALUES (email)} on an auto-committing connection; false if the
   * UNIQUE constraint refused it (SQLSTATE 23505 in both H2 and PostgreSQL).
   */
  static boolean insertEmail(Connection c, String table, String email) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " (email) VALUES (?)")) {
      p.setString(1, email);
      return p.executeUpdate() == 1;
    } catch (SQLException e) {
      if ("23505".equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  /** The number of rows of {@code table} with this e-mail (0 or 1). */
  static int countEmail(Connection c, String table, String email) throws SQLException {
    try (PreparedStatement q = c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE email = ?")) {
      q.setString(1, email);
      try (ResultSet rs = q.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
