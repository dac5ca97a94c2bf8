package org.concurrentbloom.cli;

import java.sql.Connection;
import java.sql.SQLException;
import org.concurrentbloom.guard.MembershipGuard;

/**
 * The sign-up pattern the guard is for, as a service would write it: the guard answers "definitely
 * free" without a query for most new addresses; on "maybe" the database is asked; and whatever the
 * guard said, the INSERT and its UNIQUE constraint decide, because two sign-ups of one new address can
 * both pass the check at once. Only a committed insert is recorded. One instance per thread (it holds
 * that thread's connection).
 */
final class SignupService {
  /** What became of one sign-up attempt. */
  enum Outcome {
    /** The user was created. */
    CREATED,
    /** The address was found taken by the check (guard said maybe, the database confirmed). */
    TAKEN,
    /** The check said free, but another sign-up inserted the address first: the constraint caught it. */
    TAKEN_BY_CONSTRAINT
  }

  private final MembershipGuard<String> guard;
  private final Connection connection;

  SignupService(MembershipGuard<String> guard, Connection connection) {
    this.guard = guard;
    this.connection = connection;
  }

  Outcome signUp(String email) throws SQLException {
    if (isTaken(email)) {
      return Outcome.TAKEN;
    }
    if (!SignupDatabase.insert(connection, email)) { // a concurrent sign-up won the race
      return Outcome.TAKEN_BY_CONSTRAINT;
    }
    guard.recordInsert(email); // after the commit (the connection auto-commits)
    return Outcome.CREATED;
  }

  /** "Is this address taken?": the guard, then the database only on "maybe". */
  boolean isTaken(String email) throws SQLException {
    return guard.check(email, e -> SignupDatabase.exists(connection, e));
  }
}
