package org.concurrentbloom.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the file JMH writes with {@code -rf json -rff FILE}. */
final class JmhResults {
  /** The results, in file order, and how the run was configured (from the first result). */
  record Run(List<Result> results, String settings) {}

  private JmhResults() {}

  static Run read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8));
  }

  static Run parse(String json) {
    if (!(Json.parse(json) instanceof List<?> entries)) {
      throw new IllegalArgumentException("a JMH JSON result file holds an array of results");
    }
    List<Result> results = new ArrayList<>();
    String settings = "";
    for (Object entry : entries) {
      Map<?, ?> e = asMap(entry, "result");
      Map<?, ?> metric = asMap(e.get("primaryMetric"), "primaryMetric");
      Map<String, String> params = new LinkedHashMap<>();
      if (e.get("params") instanceof Map<?, ?> p) {
        p.forEach((k, v) -> params.put(String.valueOf(k), String.valueOf(v)));
      }
      double score = number(metric.get("score"));
      double median = score;
      if (metric.get("scorePercentiles") instanceof Map<?, ?> percentiles && percentiles.containsKey("50.0")) {
        median = number(percentiles.get("50.0"));
      }
      results.add(new Result(String.valueOf(e.get("benchmark")), String.valueOf(e.get("mode")),
          (int) number(e.get("threads")), params, score, number(metric.get("scoreError")), median,
          String.valueOf(metric.get("scoreUnit"))));
      if (settings.isEmpty()) {
        settings = settings(e);
      }
    }
    return new Run(results, settings);
  }

  /** "JMH 1.37, JDK 17.0.15 (OpenJDK 64-Bit Server VM), 1 fork, warm-up 2 × 1 s, measurement 5 × 2 s". */
  private static String settings(Map<?, ?> e) {
    long forks = Math.round(number(e.get("forks")));
    return "JMH " + e.get("jmhVersion") + ", JDK " + e.get("jdkVersion") + " (" + e.get("vmName") + "), "
        + forks + (forks == 1 ? " fork" : " forks") + ", warm-up " + Math.round(number(e.get("warmupIterations")))
        + " × " + e.get("warmupTime") + ", measurement " + Math.round(number(e.get("measurementIterations")))
        + " × " + e.get("measurementTime");
  }

  private static Map<?, ?> asMap(Object o, String what) {
    if (o instanceof Map<?, ?> m) {
      return m;
    }
    throw new IllegalArgumentException("expected an object for " + what + ", found " + o);
  }

  /** A JSON number, or a string such as "NaN" (which is how JMH writes non-finite values). */
  private static double number(Object o) {
    if (o instanceof Number n) {
      return n.doubleValue();
    }
    if (o instanceof String s) {
      return Double.parseDouble(s);
    }
    return Double.NaN;
  }
}
