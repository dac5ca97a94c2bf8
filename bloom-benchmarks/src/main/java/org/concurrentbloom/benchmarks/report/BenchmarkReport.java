package org.concurrentbloom.benchmarks.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Turns a JMH result file into the benchmark report: Markdown tables (scores, errors, medians, the
 * ratio to Guava and the ratio to the fastest peer library per case) and a PNG bar chart of throughput.
 *
 * <pre>
 *   java -cp benchmarks.jar org.concurrentbloom.benchmarks.report.BenchmarkReport RESULT.json
 *       [--markdown FILE] [--chart FILE.png] [--title TEXT]
 * </pre>
 *
 * Without {@code --markdown} the tables go to standard output. The input is JMH's JSON format
 * ({@code -rf json}), not CSV, because only the JSON has the median (the score percentiles) and the
 * run's settings. Exit status: 0 on success, 1 on an unreadable or malformed file, 2 on bad arguments.
 */
public final class BenchmarkReport {
  private BenchmarkReport() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    Path input = null;
    Path markdown = null;
    Path chart = null;
    String title = "Benchmark results";
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        if (input != null) {
          return usage(err, "more than one result file: " + input + " and " + a);
        }
        input = Path.of(a);
        continue;
      }
      if (!List.of("--markdown", "--chart", "--title").contains(a)) {
        return usage(err, "unknown option " + a);
      }
      if (i + 1 == args.length) {
        return usage(err, a + " needs a value");
      }
      String value = args[++i];
      switch (a) {
        case "--markdown" -> markdown = Path.of(value);
        case "--chart" -> chart = Path.of(value);
        default -> title = value;
      }
    }
    if (input == null) {
      return usage(err, "no JMH result file given");
    }
    try {
      JmhResults.Run run = JmhResults.read(input);
      if (run.results().isEmpty()) {
        err.println("BenchmarkReport: " + input + " holds no results");
        return 1;
      }
      String md = MarkdownTables.render(run, title, input.getFileName().toString());
      if (markdown == null) {
        out.print(md);
        out.flush();
      } else {
        Path parent = markdown.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        Files.writeString(markdown, md, StandardCharsets.UTF_8);
      }
      if (chart != null) {
        BarChart.write(run.results(), title, chart);
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("BenchmarkReport: cannot report " + input + ": " + e.getMessage());
      return 1;
    }
  }

  private static int usage(PrintStream err, String problem) {
    err.println("BenchmarkReport: " + problem);
    err.println("usage: BenchmarkReport RESULT.json [--markdown FILE] [--chart FILE.png] [--title TEXT]");
    return 2;
  }
}
