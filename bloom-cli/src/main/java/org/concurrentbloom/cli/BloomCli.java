package org.concurrentbloom.cli;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
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
        "Create, update, query, inspect and merge Bloom filter files: standard, blocked, "
            + "Guava-compatible, counting, scalable and expiring (create --window) filters of UTF-8 "
            + "strings, 64-bit or 32-bit integers, or byte strings.",
        "",
        "Keys: commands that read keys take KEY arguments and/or --input KEYS, a file (or - for "
            + "standard input) of one key per line in UTF-8. Line ends (LF or CRLF) are removed and "
            + "empty lines are skipped; every other line is one key exactly as written, spaces "
            + "included (a line of spaces is a key). A UTF-8 byte-order mark at the start of the "
            + "input is not part of the first key. Input that is not valid UTF-8 is refused, naming "
            + "the line. A KEY argument that the JVM could not decode from the locale (non-ASCII "
            + "under LC_ALL=C, or invalid UTF-8) is refused: pass such keys with --input. Put -- "
            + "before key arguments that start with a dash.",
        "",
        "Key types: a file records the kind of key it holds (format version 2); commands use it, "
            + "and refuse a --key-type that contradicts it. Files of format version 1 record none: "
            + "their keys are taken as strings unless --key-type says otherwise.",
        "",
        "Files: create, add, remove and merge replace their output atomically (write a new copy, "
            + "then rename it over the old), so an update needs free space for a second copy of the "
            + "file; if anything fails the file is left as it was. The summary line is printed before "
            + "the rename: if standard output cannot take it (a full disk, a closed pipe), the file is "
            + "left as it was too, so a failed exit status always means nothing changed, and a retry "
            + "never applies a change twice. The new copy keeps the old one's owner, group and mode. A "
            + "file with more than one hard link, or one whose mode makes it read-only, is refused (a "
            + "rename would split the links, or ignore the mode). Updates of one file by several bloom "
            + "runs at once take turns through a lock file .NAME.lock beside it, so no run loses "
            + "another's keys. An output that is a character device or FIFO (e.g. /dev/null), or - for "
            + "standard output, is written into; a directory, block device or socket is refused. "
            + "Temporary files .NAME.*.bloom.tmp left by a killed run are removed by the next update of "
            + "NAME. A FILE that is only read (query, info, merge, export, import) may be any readable "
            + "file, a FIFO, /dev/stdin or a shell's <(...), or - for standard input; it is read once. "
            + "A file name that the JVM cannot decode from the locale's encoding (invalid UTF-8, or "
            + "non-ASCII under LC_ALL=C) is refused, as it would name another file.",
        "",
        "Memory: a filter is held in memory while it is built or updated. A command that would "
            + "need more than the JVM may use says so before it starts; give the JVM more with "
            + "BLOOM_JAVA_OPTS, e.g. BLOOM_JAVA_OPTS=-Xmx16g bloom create ...",
        "",
        "A progress bar is drawn on standard error while a large --input file is read, only when "
            + "standard error is a terminal and results are not being printed to a terminal."},
    subcommands = {
        CreateCommand.class,
        AddCommand.class,
        QueryCommand.class,
        RemoveCommand.class,
        InfoCommand.class,
        MergeCommand.class,
        ImportCommand.class,
        ExportCommand.class,
        DemoCommand.class,
        BenchCommand.class,
        CommandLine.HelpCommand.class},
    footer = {"", "Exit status: 0 on success, 1 if the command failed, 2 on a usage error (query --quiet: "
        + "0 if every key may be present, 1 if any is definitely absent, 2 on any error). A write "
        + "error on standard output fails the command; a closed pipe (bloom query ... | head) stops "
        + "it at once with status 141, as SIGPIPE would. An update that exits with 1 or 141 has left its "
        + "file unchanged."})
public final class BloomCli implements Runnable {
  /** Exit code of a command that was used correctly but failed. */
  public static final int EXIT_FAILURE = 1;
  /** Exit code of a command line that could not be parsed or had invalid values. */
  public static final int EXIT_USAGE = 2;
  /** Exit code when the reader of standard output went away: 128 + SIGPIPE, as a shell reports it. */
  public static final int EXIT_CLOSED_PIPE = 141;

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
    OutputStream stdout = FailFastOutput.of(new FileOutputStream(FileDescriptor.out));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(
        new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true);
    int code = run(args, stdout, err, System.in, TerminalCheck.stderrIsTerminal(), TerminalCheck.stdoutIsTerminal());
    System.exit(code);
  }

  /**
   * Runs {@code bloom} with {@code args} against the given streams, with no progress bar, and returns
   * the exit code instead of exiting. Results are written to {@code stdout} as UTF-8. Flushes
   * {@code stdout} and {@code err} before returning.
   */
  public static int run(String[] args, OutputStream stdout, PrintWriter err, InputStream in) {
    return run(args, stdout, err, in, false, false);
  }

  /** As {@link #run(String[], OutputStream, PrintWriter, InputStream)}, saying which streams are terminals. */
  static int run(String[] args, OutputStream stdout, PrintWriter err, InputStream in, boolean stderrTerminal,
      boolean stdoutTerminal) {
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8),
        1 << 16), false);
    CliStreams streams = new CliStreams(out, stdout, err, in, stderrTerminal, stdoutTerminal);
    CommandLine cli = new CommandLine(new BloomCli(streams));
    shareVersion(cli, new VersionProvider());
    ErrorReporter reporter = new ErrorReporter(err);
    CommandLine.IExecutionStrategy runLast = new CommandLine.RunLast();
    cli.registerConverter(java.nio.file.Path.class, new PathArgument());
    cli.setOut(out)
        .setErr(err)
        .setExecutionExceptionHandler(reporter)
        .setParameterExceptionHandler(reporter)
        // picocli prints a stack trace for anything thrown outside a command, as a failed write of
        // --help output is: report that like any other failure of standard output.
        .setExecutionStrategy(parseResult -> {
          try {
            return runLast.execute(parseResult);
          } catch (OutputFailure e) {
            return reporter.outputFailed(e);
          }
        });
    int code;
    try {
      code = cli.execute(args);
      out.flush();
      stdout.flush();
    } catch (IOException e) {
      code = reporter.outputFailed(new OutputFailure(e));
    } catch (OutputFailure e) {
      code = reporter.outputFailed(e);
    } catch (OutOfMemoryError e) {
      code = reporter.outOfMemory();
    } finally {
      err.flush();
    }
    return code;
  }

  /**
   * Gives every subcommand, at any depth, the root's version provider: each lists -V/--version (through
   * mixinStandardHelpOptions), and without a provider picocli would print nothing for it.
   */
  private static void shareVersion(CommandLine command, IVersionProvider provider) {
    for (CommandLine sub : command.getSubcommands().values()) {
      sub.getCommandSpec().versionProvider(provider);
      shareVersion(sub, provider);
    }
  }
}
