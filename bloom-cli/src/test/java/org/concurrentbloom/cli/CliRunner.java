package org.concurrentbloom.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs {@code bloom} in-process with captured output, for the tests. */
final class CliRunner {
  private CliRunner() {}

  /** The exit code and everything written to standard output and standard error. */
  record Result(int exitCode, String out, String err) {
    List<String> outLines() {
      return out.lines().toList();
    }

    List<String> errLines() {
      return err.lines().toList();
    }
  }

  static Result run(String... args) {
    return runWithStdin("", args);
  }

  static Result runWithStdin(String stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BloomCli.run(args, new PrintWriter(out), new PrintWriter(err),
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    return new Result(code, out.toString(), err.toString());
  }
}
