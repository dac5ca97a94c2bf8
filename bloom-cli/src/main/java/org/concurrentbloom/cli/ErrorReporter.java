package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into exactly one line, {@code bloom: error: <message>}, on standard error, with no
 * stack trace. Usage errors exit with status 2 and name the help to read; failures while running exit
 * with status 1 (2 for {@code query --quiet}, whose 1 means "absent"). A closed pipe on standard output
 * exits with 141 and no message, as a process killed by SIGPIPE would.
 */
final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {
  private final PrintWriter err;
  /** Set once standard output failed, so a second failure (the final flush) is not reported again. */
  private int outputFailureCode;

  ErrorReporter(PrintWriter err) {
    this.err = err;
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    StringBuilder line = new StringBuilder(String.valueOf(ex.getMessage()));
    if (ex instanceof UnmatchedArgumentException unmatched) {
      List<String> suggestions = unmatched.getSuggestions();
      if (!suggestions.isEmpty()) {
        line.append("; did you mean ").append(String.join(" or ", suggestions)).append('?');
      }
    }
    line.append(" (see '").append(cmd.getCommandSpec().qualifiedName()).append(" --help')");
    print(line.toString());
    return BloomCli.EXIT_USAGE;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
    if (ex instanceof OutputFailure failure) {
      return outputFailed(failure);
    }
    print(describe(ex));
    return cmd.getCommand() instanceof QueryCommand query && query.quiet() ? BloomCli.EXIT_USAGE
        : BloomCli.EXIT_FAILURE;
  }

  /** Reports that standard output failed (once) and returns the exit code. */
  int outputFailed(OutputFailure failure) {
    if (outputFailureCode == 0) {
      if (failure.isClosedPipe()) {
        outputFailureCode = BloomCli.EXIT_CLOSED_PIPE;
      } else {
        print("cannot write to standard output: " + reason(failure.getCause()));
        outputFailureCode = BloomCli.EXIT_FAILURE;
      }
    }
    return outputFailureCode;
  }

  /** Reports an OutOfMemoryError that the memory checks did not foresee, and returns the exit code. */
  int outOfMemory() {
    print("out of memory (the JVM may use at most " + Fmt.humanBytes(Runtime.getRuntime().maxMemory())
        + "); give it more with BLOOM_JAVA_OPTS, e.g. BLOOM_JAVA_OPTS=-Xmx"
        + MemoryCheck.suggestedHeapGiB(2 * Runtime.getRuntime().maxMemory()) + "g");
    return BloomCli.EXIT_FAILURE;
  }

  private void print(String message) {
    err.println("bloom: error: " + oneLine(withoutOwnPrefix(message)));
    err.flush();
  }

  /**
   * The message without the "Error: " that picocli puts before some of its own (an exclusive or
   * required group of options: "Error: --blocked, --scalable are mutually exclusive (specify only
   * one)"), which the line's "bloom: error: " already says.
   */
  static String withoutOwnPrefix(String message) {
    return message.strip().startsWith("Error: ") ? message.strip().substring("Error: ".length()) : message;
  }

  /** The message for an exception that escaped a command. */
  static String describe(Throwable ex) {
    if (ex instanceof CliException) {
      return ex.getMessage();
    }
    if (ex instanceof IllegalArgumentException && ex.getMessage() != null) {
      return ex.getMessage();
    }
    if (ex instanceof UncheckedIOException unchecked) {
      return reason(unchecked.getCause());
    }
    if (ex instanceof IOException io) {
      return reason(io);
    }
    return "unexpected " + ex.getClass().getName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage());
  }

  /**
   * Why an I/O operation failed, in words, without repeating the path (callers say which file): for
   * example "no such file", "permission denied", or the library's own description of a corrupt filter.
   */
  static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "file already exists";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "directory not empty";
    }
    if (e instanceof CharacterCodingException) {
      return "not valid UTF-8 text";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  private static String oneLine(String s) {
    return s.strip().replaceAll("\\s*\\R\\s*", "; ");
  }
}
