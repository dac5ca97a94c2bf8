package org.concurrentbloom.benchmarks.report;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.reflect.TypeToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the file JMH writes with {@code -rf json -rff FILE}. JMH runs in its own JVM (run.sh and
 * {@code bloom bench} start {@code java -jar benchmarks.jar}) and this reader in a later one, so the
 * file is all there is to go on; JMH has a writer for it but no reader, and Gson binds it.
 */
final class JmhResults {
  /** The package of the profile benchmarks, which the report leaves out. */
  static final String PROFILE_PACKAGE = ".benchmarks.profile.";

  /** The results, in file order, and how the run was configured (from the first result). */
  record Run(List<Result> results, String settings) {}

  /**
   * One element of JMH's array, the members the report uses under JMH's names; Gson ignores the others
   * (rawData, jvmArgs, ...) and leaves a missing one null. Numbers are boxed so that a missing one reads
   * as NaN rather than 0.
   */
  private record Entry(String jmhVersion, String benchmark, String mode, Double threads, Double forks,
      String jdkVersion, String vmName, Double warmupIterations, String warmupTime,
      Double measurementIterations, String measurementTime, Map<String, String> params,
      Metric primaryMetric, Map<String, Metric> secondaryMetrics) {}

  /** A metric as JMH writes it: the primary one and each of the profilers' secondary ones. */
  private record Metric(Double score, Double scoreError, Map<String, Double> scorePercentiles,
      String scoreUnit) {}

  private static final TypeToken<List<Entry>> ENTRIES = new TypeToken<>() {};

  /** Lenient because JMH writes a non-finite number as a string ("NaN"), which strict Gson refuses. */
  private static final Gson GSON = new GsonBuilder().setStrictness(Strictness.LENIENT).create();

  private JmhResults() {}

  static Run read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8));
  }

  static Run parse(String json) {
    List<Entry> entries;
    try {
      JsonElement tree = JsonParser.parseString(json);
      if (!tree.isJsonArray()) {
        throw new IllegalArgumentException("a JMH JSON result file holds an array of results");
      }
      entries = GSON.fromJson(tree, ENTRIES);
    } catch (JsonParseException e) {
      throw new IllegalArgumentException("malformed JSON: " + e.getMessage(), e);
    }
    List<Result> results = new ArrayList<>();
    String settings = "";
    for (Entry e : entries) {
      if (e == null) {
        throw new IllegalArgumentException("expected an object for result, found null");
      }
      if (String.valueOf(e.benchmark()).contains(PROFILE_PACKAGE)) {
        continue; // the profile's parts of one lookup, not libraries compared: docs/PROFILE.md reports them
      }
      Metric metric = e.primaryMetric();
      if (metric == null) {
        throw new IllegalArgumentException("expected an object for primaryMetric in " + e.benchmark());
      }
      Map<String, String> params = new LinkedHashMap<>();
      if (e.params() != null) {
        e.params().forEach((k, v) -> params.put(k, String.valueOf(v)));
      }
      double score = number(metric.score());
      double median = score;
      if (metric.scorePercentiles() != null && metric.scorePercentiles().containsKey("50.0")) {
        median = number(metric.scorePercentiles().get("50.0"));
      }
      Map<String, Result.Metric> secondary = new LinkedHashMap<>();
      if (e.secondaryMetrics() != null) {
        e.secondaryMetrics().forEach((name, m) -> {
          if (m != null) {
            secondary.put(name, new Result.Metric(number(m.score()), number(m.scoreError()),
                String.valueOf(m.scoreUnit())));
          }
        });
      }
      results.add(new Result(String.valueOf(e.benchmark()), String.valueOf(e.mode()),
          (int) number(e.threads()), params, score, number(metric.scoreError()), median,
          String.valueOf(metric.scoreUnit()), secondary));
      if (settings.isEmpty()) {
        settings = settings(e);
      }
    }
    return new Run(results, settings);
  }

  /** "JMH 1.37, JDK 17.0.15 (OpenJDK 64-Bit Server VM), 1 fork, warm-up 2 × 1 s, measurement 5 × 2 s". */
  private static String settings(Entry e) {
    long forks = Math.round(number(e.forks()));
    return "JMH " + e.jmhVersion() + ", JDK " + e.jdkVersion() + " (" + e.vmName() + "), "
        + forks + (forks == 1 ? " fork" : " forks") + ", warm-up " + Math.round(number(e.warmupIterations()))
        + " × " + e.warmupTime() + ", measurement " + Math.round(number(e.measurementIterations()))
        + " × " + e.measurementTime();
  }

  private static double number(Double d) {
    return d == null ? Double.NaN : d;
  }
}
