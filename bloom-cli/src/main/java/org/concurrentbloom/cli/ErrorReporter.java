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
 * with status 1.
 */
final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {
  private final PrintWriter err;

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
    print(describe(ex));
    return BloomCli.EXIT_FAILURE;
  }

  private void print(String message) {
    err.println("bloom: error: " + oneLine(message));
    err.flush();
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
    if (ex instanceof IOException) {
      return reason((IOException) ex);
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
