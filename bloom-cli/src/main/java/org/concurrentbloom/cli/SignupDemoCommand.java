package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.guard.FileSnapshotStore;
import org.concurrentbloom.guard.GuardStats;
import org.concurrentbloom.guard.MembershipGuard;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code bloom demo signup}: a sign-up service's life with a {@link MembershipGuard} in front of its
 * {@code users(email UNIQUE)} table, on an embedded H2 database: seed, concurrent sign-ups, deletes
 * that leave the filter stale, a rebuild, and a restart from the snapshot. One table row per phase.
 */
@Command(
    name = "signup",
    mixinStandardHelpOptions = true,
    description = {
        "Show a membership guard in front of a users(email UNIQUE) table (embedded H2, in memory).",
        "",
        "Seeds U users; runs concurrent sign-ups from several threads, half with taken addresses and half "
            + "with new ones (each new address tried by two threads at once, so the UNIQUE constraint "
            + "decides the races); deletes a tenth of the users and shows the stale filter sending their "
            + "addresses to the database; rebuilds and shows them filtered again; restarts from the "
            + "snapshot, catching up sign-ups made meanwhile. Prints one row per phase: checks, database "
            + "queries, queries saved, false positives, observed versus target FPR, build time. "
            + "Exits with status 1 if any created address is ever answered 'absent'."})
final class SignupDemoCommand implements Callable<Integer> {
  @ParentCommand
  private DemoCommand parent;

  @Spec
  private CommandSpec spec;

  @Option(names = {"-u", "--users"}, paramLabel = "U", defaultValue = "1000000",
      description = "Users to seed (default: ${DEFAULT-VALUE}); sign-ups are U/5, deletes U/10.")
  private int users;

  @Option(names = {"-t", "--threads"}, paramLabel = "T", defaultValue = "4",
      description = "Sign-up threads (default: ${DEFAULT-VALUE}).")
  private int threads;

  @Option(names = {"-p", "--fpp"}, paramLabel = "P", defaultValue = "0.01",
      description = "Target false-positive probability (default: ${DEFAULT-VALUE}).")
  private double fpp;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "42",
      description = "Seed of the generated addresses (default: ${DEFAULT-VALUE}).")
  private long seed;

  private DemoKeys keys;
  private long falseNegatives;

  @Override
  public Integer call() throws Exception {
    if (users < 1000 || threads < 1 || threads > 64 || !(fpp > 0 && fpp < 1)) {
      throw new ParameterException(spec.commandLine(), "--users must be >= 1000, --threads in [1, 64] and --fpp "
          + "in (0, 1); were " + users + ", " + threads + " and " + fpp);
    }
    keys = new DemoKeys(seed);
    PrintWriter out = parent.streams().out();
    long start = System.nanoTime();
    Path dir = Files.createTempDirectory("bloom-demo-signup");
    try (SignupDatabase db = new SignupDatabase()) {
      run(db, new FileSnapshotStore(dir.resolve("users.email.snapshot")), out);
    } finally {
      deleteTree(dir);
    }
    out.println("  false negatives: " + Fmt.count(falseNegatives) + " (every created address was checked after "
        + "each phase)");
    out.println("  total time: " + Fmt.count((System.nanoTime() - start) / 1_000_000) + " ms");
    if (falseNegatives != 0) {
      throw new CliException(falseNegatives + " created addresses were answered 'absent': the guard is broken");
    }
    return 0;
  }

  private void run(SignupDatabase db, FileSnapshotStore store, PrintWriter out) throws Exception {
    int signups = users / 5;
    int deletes = users / 10;
    int offline = Math.max(100, users / 100);
    out.println("bloom demo signup: " + Fmt.count(users) + " users in an embedded H2 database (in memory), "
        + threads + " sign-up threads, target fpp " + Fmt.percent(fpp) + ", seed " + seed);
    out.println("  pattern: if guard.check(email) says taken -> taken; else INSERT (the UNIQUE constraint "
        + "decides races) and guard.recordInsert(email) after the commit");
    long t0 = System.nanoTime();
    db.seed(users, keys::key);
    out.println("  seeded " + Fmt.count(users) + " users in " + Fmt.count(millisSince(t0)) + " ms");
    out.println();
    SignupPhaseTable table = new SignupPhaseTable(out, fpp);
    table.header();

    // A service sizes its filter for the growth it plans; deletes rebuild only at 50% (shown by hand here).
    MembershipGuard.Builder<String> builder = MembershipGuard.builder(Funnels.stringFunnel(), db.keySource())
        .name("users.email").expectedInsertions(users + signups).fpp(fpp).rebuildAfterDeleteFraction(0.5)
        .snapshotStore(store);
    MembershipGuard<String> guard = builder.build();
    awaitReady(guard);
    GuardStats before = guard.stats();
    table.row("start: full scan", before, before, before.lastRebuildDuration().toMillis());

    Queue<String> created = new ConcurrentLinkedQueue<>();
    LongAdder[] outcomes = signUps(db, guard, signups, created);
    GuardStats after = guard.stats();
    table.row("concurrent sign-ups", before, after, -1);
    table.note(Fmt.count(outcomes[0].sum()) + " created, " + Fmt.count(outcomes[1].sum()) + " taken by the check, "
        + Fmt.count(outcomes[2].sum()) + " races lost at the UNIQUE constraint (both saw 'absent')");
    verifyPresent(guard, created);

    db.deleteRange(0, deletes, i -> keys.key(i * 10 + 3));
    for (long i = 0; i < deletes; i++) {
      guard.recordDelete(keys.key(i * 10 + 3));
    }
    before = guard.stats();
    probeDeleted(db, guard, deletes);
    table.row("deleted 10%: stale", before, guard.stats(), -1);
    table.note("a Bloom filter cannot forget: every deleted address still costs a query until a rebuild");

    guard.rebuildNow();
    before = guard.stats();
    probeDeleted(db, guard, deletes);
    table.row("rebuilt", before, guard.stats(), guard.stats().lastRebuildDuration().toMillis());
    verifyPresent(guard, created);

    guard.close(); // writes the snapshot
    long offlineBase = 4L * users;
    db.insertRange(offlineBase, offlineBase + offline, keys::key); // sign-ups served by another instance
    MembershipGuard<String> restarted = builder.build();
    try {
      awaitReady(restarted);
      before = restarted.stats();
      probeDeleted(db, restarted, deletes);
      table.row("restart: snapshot", before, restarted.stats(), before.lastRebuildDuration().toMillis());
      table.note("loaded the snapshot and caught up " + Fmt.count(offline) + " sign-ups made while down, by the "
          + "id watermark");
      verifyPresent(restarted, created);
      List<String> offlineAddresses = new ArrayList<>();
      for (long i = offlineBase; i < offlineBase + offline; i++) {
        offlineAddresses.add(keys.key(i));
      }
      verifyPresent(restarted, offlineAddresses);
    } finally {
      restarted.close();
    }
    out.println();
  }

  /** Sign-ups from {@code threads} threads; returns {created, taken, lost at the constraint}. */
  @SuppressWarnings("EnumOrdinal") // outcomes[] is indexed by Outcome, in its declared order
  private LongAdder[] signUps(SignupDatabase db, MembershipGuard<String> guard, int signups, Queue<String> created)
      throws Exception {
    LongAdder[] outcomes = {new LongAdder(), new LongAdder(), new LongAdder()};
    int perThread = signups / threads;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          try (Connection c = db.dataSource.getConnection()) {
            SignupService service = new SignupService(guard, c);
            for (int j = 0; j < perThread; j++) {
              // Even attempts: an existing user's address. Odd: a new one, which the paired thread
              // (0 with 1, 2 with 3, ...) tries too, at about the same moment.
              String email = j % 2 == 0
                  ? keys.key(Math.floorMod(j * 7919L + thread * 104_729L, (long) users))
                  : keys.key(users + (long) (thread / 2) * perThread + j);
              SignupService.Outcome o = service.signUp(email);
              outcomes[o.ordinal()].increment();
              if (o == SignupService.Outcome.CREATED) {
                created.add(email);
              }
            }
          }
          return null;
        }));
      }
      for (Future<Void> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    return outcomes;
  }

  /** "Is it taken?" for every deleted address (all free now), as a sign-up form would ask. */
  private void probeDeleted(SignupDatabase db, MembershipGuard<String> guard, int deletes) throws SQLException {
    try (Connection c = db.dataSource.getConnection()) {
      SignupService service = new SignupService(guard, c);
      for (long i = 0; i < deletes; i++) {
        if (service.isTaken(keys.key(i * 10 + 3))) {
          throw new IllegalStateException("a deleted address is still in the table");
        }
      }
    }
  }

  private void verifyPresent(MembershipGuard<String> guard, Iterable<String> addresses) {
    for (String email : addresses) {
      if (!guard.mightExist(email)) {
        falseNegatives++;
      }
    }
  }

  private static void awaitReady(MembershipGuard<String> guard) throws InterruptedException, CliException {
    if (!guard.awaitReady(Duration.ofMinutes(5))) {
      throw new CliException("the guard did not become ready: " + guard.stats().lastError());
    }
  }

  private static long millisSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
