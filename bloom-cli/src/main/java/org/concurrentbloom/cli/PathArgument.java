package org.concurrentbloom.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converts every file-name argument, refusing one that did not reach the JVM intact. The JVM decodes
 * arguments from the locale's encoding ({@code sun.jnu.encoding}) and puts U+FFFD where it cannot
 * decode a byte: {@code f\xff.bloom} and {@code f\xfe.bloom} would both arrive as {@code f\uFFFD.bloom},
 * and re-encoding that name opens a third file, so a second {@code create} would overwrite the first
 * filter. Under {@code LC_ALL=C} every non-ASCII name arrives so. Such a name cannot round-trip, so it is
 * a usage error naming the argument, as a KEY argument is ({@link KeyInput#checkArguments}).
 */
final class PathArgument implements ITypeConverter<Path> {
  @Override
  public Path convert(String value) {
    check(value);
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new TypeConversionException("'" + value + "' is not a file name this system accepts: " + e.getReason());
    }
  }

  /**
   * Refuses a file name holding U+FFFD (see the class comment).
   *
   * @throws TypeConversionException naming the value, the locale's encoding and what to do
   */
  static void check(String value) {
    if (value.indexOf('\uFFFD') >= 0) {
      throw new TypeConversionException("file name '" + value + "' has bytes that the JVM could not decode with "
          + "the locale's encoding (" + System.getProperty("sun.jnu.encoding") + ") and replaced with U+FFFD, so "
          + "it would name another file; run under a UTF-8 locale such as LC_ALL=C.UTF-8, or rename the file "
          + "to valid UTF-8");
    }
  }
}
