package org.concurrentbloom.guard;

/** Keys no test inserts, for checking that a guard filters again ("absent" for most of them). */
public final class NeverInserted {
  private NeverInserted() {}

  /** How many of {@code n} never-inserted keys {@code guard} answers "absent" for. */
  public static int absentOf(MembershipGuard<String> guard, int n) {
    int absent = 0;
    for (int i = 0; i < n; i++) {
      if (!guard.mightExist("never-inserted-" + i)) {
        absent++;
      }
    }
    return absent;
  }
}
