package org.concurrentbloom.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs {@code bloom} in-process with captured output, for the tests of single commands. */
final class CliRunner {
  private CliRunner() {}

  /** The exit code and everything written to standard output and standard error. */
  record Result(int exitCode, byte[] stdout, String err) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }

    List<String> outLines() {
      return out().lines().toList();
    }

    List<String> errLines() {
      return err.lines().toList();
    }
  }

  static Result run(String... args) {
    return runWithStdin("", args);
  }

  static Result runWithStdin(String stdin, String... args) {
    return runWithStdin(stdin.getBytes(StandardCharsets.UTF_8), args);
  }

  static Result runWithStdin(byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    int code = BloomCli.run(args, out, new PrintWriter(err), new ByteArrayInputStream(stdin));
    return new Result(code, out.toByteArray(), err.toString());
  }
}
