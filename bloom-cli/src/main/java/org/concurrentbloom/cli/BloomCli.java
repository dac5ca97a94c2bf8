package org.concurrentbloom.cli;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code bloom} command: entry point and root of the subcommands. {@link #main} runs it against the
 * process's streams and exits; {@link #run} runs it against given streams and returns the exit code, for
 * tests and embedding.
 */
@Command(
    name = "bloom",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "Create, update, query, inspect and merge Bloom filter files of string keys.",
        "",
        "Commands that read keys take them one per line (UTF-8; empty lines are ignored) from the file "
            + "given with --input, or from standard input with --input -. A progress bar is drawn on "
            + "standard error while a large file is read, only when running in a terminal. "
            + "Put -- before key arguments that start with a dash."},
    subcommands = {
        CreateCommand.class,
        AddCommand.class,
        QueryCommand.class,
        InfoCommand.class,
        MergeCommand.class,
        DemoCommand.class,
        BenchCommand.class,
        CommandLine.HelpCommand.class},
    footer = {"", "Exit status: 0 on success, 1 if the command failed, 2 on a usage error."})
public final class BloomCli implements Runnable {
  /** Exit code of a command that was used correctly but failed. */
  public static final int EXIT_FAILURE = 1;
  /** Exit code of a command line that could not be parsed or had invalid values. */
  public static final int EXIT_USAGE = 2;

  private final CliStreams streams;

  @Spec
  private CommandSpec spec;

  BloomCli(CliStreams streams) {
    this.streams = streams;
  }

  /** The streams and settings every subcommand uses. */
  CliStreams streams() {
    return streams;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "no command given; commands: " + String.join(", ", spec.subcommands().keySet()));
  }

  /** Runs {@code bloom} with the process's streams and exits with its exit code. */
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
        new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), 1 << 16), false);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(
        new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true);
    int code = run(args, out, err, System.in, TerminalCheck.progressWanted());
    System.exit(code);
  }

  /**
   * Runs {@code bloom} with {@code args} against the given streams, with no progress bar, and returns
   * the exit code instead of exiting. Flushes {@code out} and {@code err} before returning.
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err, InputStream in) {
    return run(args, out, err, in, false);
  }

  /** As {@link #run(String[], PrintWriter, PrintWriter, InputStream)}; {@code progress} enables the bar. */
  public static int run(String[] args, PrintWriter out, PrintWriter err, InputStream in, boolean progress) {
    CliStreams streams = new CliStreams(out, err, in, progress);
    CommandLine cli = new CommandLine(new BloomCli(streams));
    ErrorReporter reporter = new ErrorReporter(err);
    cli.setOut(out)
        .setErr(err)
        .setExecutionExceptionHandler(reporter)
        .setParameterExceptionHandler(reporter);
    try {
      return cli.execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }
}
