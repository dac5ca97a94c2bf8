package org.concurrentbloom.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code bloom bench}: a short comparison with every peer library of the JMH suite (Guava, Commons
 * Collections, DataSketches, FastFilter), in about a minute and a half, by running a fixed subset of the suite from
 * {@code bloom-benchmarks/target/benchmarks.jar} in child JVMs and printing the report generator's ratio
 * tables: against Guava and against the fastest peer of each case.
 *
 * <p>Three JMH runs, because JMH crosses every parameter with every other: String keys for lookups and
 * adds of ours and the peers that take Strings; long-key lookups, the only keys FastFilter takes, with
 * ours, Guava and DataSketches beside it; and the primitive long path ({@code addLong},
 * {@code mightContainLong}, the {@code long[]} batches) against FastFilter. Their JSON result files are
 * joined into one for the report.
 *
 * <p>Why a child process rather than code in the CLI: the comparison needs Guava, Commons Collections
 * and a harness that measures properly (forked JVM, warm-up, dead-code protection); bundling them would
 * add about 4 MB of dependencies to a tool that needs none of them for its real work, and a home-made
 * timing loop would give numbers that disagree with the published JMH ones. The benchmarks jar already
 * has all of it, including the report generator, so this command stays a thin launcher with no new
 * dependency.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
        "Compare this library with Guava, Commons Collections, DataSketches and FastFilter in "
            + "about a minute and a half.",
        "",
        "Runs a small, fixed subset of the JMH benchmark suite (mightContain and add of new keys, "
            + "one thread, n = 1M e-mail-like String keys, p = 1%%; then mightContain of long keys, "
            + "which FastFilter needs; then addLong, mightContainLong (1 and 2 threads) and the long[] "
            + "batches against FastFilter; 1 warm-up and 1 measurement iteration of 1 s each) from the "
            + "benchmarks jar in separate JVMs, then prints a Markdown table per operation with ns/op, "
            + "the ratio to Guava (to FastFilter in the long-path tables) and the ratio to the "
            + "fastest peer of each case (above 1.00x is faster). The numbers are rough; for real "
            + "ones run the full suite:",
        "  bloom-benchmarks/run.sh full",
        "",
        "Needs the benchmarks jar: the ./bloom launcher builds it on first use (and after a source "
            + "change), as it builds bloom itself; elsewhere build it in the checkout with:",
        "  mvn -B -q -pl bloom-benchmarks -am package -DskipTests"})
final class BenchCommand implements Callable<Integer> {
  /** Where the benchmarks jar is built, relative to the checkout. */
  static final String JAR_IN_CHECKOUT = "bloom-benchmarks/target/benchmarks.jar";
  private static final String REPORT_MAIN = "org.concurrentbloom.benchmarks.report.BenchmarkReport";
  private static final int LOG_LINES_KEPT = 15;
  /** The fixed settings of both JMH runs: one fork, one short warm-up and measurement, n = 1M. */
  private static final List<String> SHORT_RUN = List.of(
      "-f", "1", "-wi", "1", "-w", "1s", "-i", "1", "-r", "1s", "-p", "n=1000000");
  /** The long-key run's implementations: FastFilter, the reason for the run, with ours and two peers. */
  static final String LONG_KEY_IMPLS = "OURS_STANDARD,OURS_BLOCKED,GUAVA,DATASKETCHES,FASTFILTER";
  /**
   * Benchmarks in the three runs: 5 implementations × (lookup + add) with Strings, 5 lookups with longs,
   * and the primitive long path (4 operations and a 2-thread lookup) of ours and FastFilter.
   */
  private static final int CASES = 25;

  @ParentCommand
  private BloomCli parent;

  @Option(names = "--jar", paramLabel = "FILE",
      description = "The JMH benchmarks jar (default: " + JAR_IN_CHECKOUT + " of the checkout this "
          + "bloom was built in).")
  private Path jar;

  @Override
  public Integer call() throws CliException, IOException, InterruptedException {
    Path benchmarks = jar != null ? jar : defaultJar();
    if (!Files.isRegularFile(benchmarks)) {
      throw new CliException("no benchmarks jar at " + benchmarks + "; run bench through the ./bloom launcher, "
          + "which builds it, or build it with 'mvn -B -q -pl bloom-benchmarks -am package -DskipTests' in the "
          + "checkout, or give its path with --jar");
    }
    PrintWriter out = parent.streams().out();
    PrintWriter err = parent.streams().err();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path result = Files.createTempFile("bloom-bench-", ".json");
    Path longKeys = Files.createTempFile("bloom-bench-long-", ".json");
    Path longPath = Files.createTempFile("bloom-bench-long-path-", ".json");
    try {
      err.println("bloom bench: running " + CASES + " short JMH benchmarks from " + benchmarks
          + " (about a minute and a half) ...");
      err.flush();
      run(jmhCommand(java, benchmarks, result), err, true, "JMH");
      run(longKeyJmhCommand(java, benchmarks, longKeys), err, true, "JMH");
      run(longPathJmhCommand(java, benchmarks, longPath), err, true, "JMH");
      String joined = joinJsonArrays(Files.readString(result, StandardCharsets.UTF_8),
          Files.readString(longKeys, StandardCharsets.UTF_8));
      Files.writeString(result, joinJsonArrays(joined, Files.readString(longPath, StandardCharsets.UTF_8)),
          StandardCharsets.UTF_8);
      out.print(run(reportCommand(java, benchmarks, result), err, false, "the report generator"));
      return 0;
    } finally {
      Files.deleteIfExists(result);
      Files.deleteIfExists(longKeys);
      Files.deleteIfExists(longPath);
    }
  }

  /** The JMH command line: the fixed subset, one fork, short iterations, JSON results to {@code result}. */
  static List<String> jmhCommand(Path java, Path jar, Path result) {
    return jmh(java, jar, result, List.of("-p", "keys=STRING"),
        List.of("MightContainBenchmark\\.mightContain$", "AddBenchmark\\.add$"));
  }

  /**
   * The second JMH run: lookups of long keys, for FastFilter, which takes no Strings, and for ours, Guava
   * and DataSketches on the same keys, so that its rows have something to be compared with.
   */
  static List<String> longKeyJmhCommand(Path java, Path jar, Path result) {
    return jmh(java, jar, result, List.of("-p", "keys=LONG", "-p", "impl=" + LONG_KEY_IMPLS),
        List.of("MightContainBenchmark\\.mightContain$"));
  }

  /**
   * The third JMH run: the primitive long-key path ({@code addLong}, {@code mightContainLong} on one and
   * two threads, {@code addAll(long[])}, {@code mightContainAll(long[])}) of our blocked filter against
   * FastFilter's BlockedBloom, the fastest JVM filter for 64-bit keys.
   */
  static List<String> longPathJmhCommand(Path java, Path jar, Path result) {
    return jmh(java, jar, result, List.of(), List.of("LongPathBenchmark\\."));
  }

  private static List<String> jmh(Path java, Path jar, Path result, List<String> params, List<String> benchmarks) {
    List<String> command = new ArrayList<>(List.of(java.toString(), "-jar", jar.toString()));
    command.addAll(SHORT_RUN);
    command.addAll(params);
    command.addAll(List.of("-bm", "avgt", "-tu", "ns", "-rf", "json", "-rff", result.toString()));
    command.addAll(benchmarks);
    return List.copyOf(command);
  }

  /**
   * Two JMH JSON result files as one: each is an array of results, so the second's elements are
   * appended to the first's. Refuses anything that is not an array, rather than write a broken file.
   */
  static String joinJsonArrays(String first, String second) throws CliException {
    String a = arrayBody(first);
    String b = arrayBody(second);
    if (a.isEmpty() || b.isEmpty()) {
      return "[" + a + b + "]\n";
    }
    return "[" + a + ",\n" + b + "]\n";
  }

  private static String arrayBody(String json) throws CliException {
    String t = json.strip();
    if (!t.startsWith("[") || !t.endsWith("]")) {
      throw new CliException("JMH wrote no JSON array of results, but: "
          + t.substring(0, Math.min(40, t.length())));
    }
    return t.substring(1, t.length() - 1).strip();
  }

  static List<String> reportCommand(Path java, Path jar, Path result) {
    return List.of(java.toString(), "-cp", jar.toString(), REPORT_MAIN, result.toString(),
        "--title", "bloom bench: n = 1M, String keys (long keys for FastFilter's lookups), p = 1%, "
            + "1 × 1 s measurement (rough figures)");
  }

  /**
   * Runs {@code command} and returns its output. With {@code progress}, JMH's progress and parameter
   * lines are passed on to {@code err} as they come, so the wait is not silent. A non-zero exit becomes
   * a CliException that quotes the last lines of output, where JMH and java explain what went wrong.
   */
  private static String run(List<String> command, PrintWriter err, boolean progress, String what)
      throws IOException, InterruptedException, CliException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    StringBuilder output = new StringBuilder();
    Deque<String> tail = new ArrayDeque<>();
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = lines.readLine()) != null; ) {
        output.append(line).append('\n');
        if (tail.size() == LOG_LINES_KEPT) {
          tail.removeFirst();
        }
        tail.addLast(line);
        if (progress && (line.startsWith("# Run progress") || line.startsWith("# Parameters"))) {
          err.println("  " + line.substring(2));
          err.flush();
        }
      }
    }
    int code = process.waitFor();
    if (code != 0) {
      List<String> last = new ArrayList<>(tail);
      last.removeIf(String::isBlank);
      throw new CliException(what + " failed with exit status " + code + ": " + String.join(" | ", last));
    }
    return output.toString();
  }

  /**
   * The jar of the checkout this bloom runs from: both bloom-cli/target/bloom-cli.jar and, in tests,
   * bloom-cli/target/classes are two levels below the checkout. Falls back to the working directory.
   */
  static Path defaultJar() {
    try {
      Path self = Path.of(BenchCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path target = self.toAbsolutePath().getParent();
      Path module = target == null ? null : target.getParent();
      Path checkout = module == null ? null : module.getParent();
      if (checkout != null) {
        return checkout.resolve(JAR_IN_CHECKOUT);
      }
    } catch (URISyntaxException | RuntimeException e) {
      // no usable code source (an unusual class loader): use the working directory
    }
    return Path.of(JAR_IN_CHECKOUT).toAbsolutePath();
  }
}
