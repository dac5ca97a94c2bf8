package org.concurrentbloom.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A {@code --window} value: a whole number and a unit ({@code 500ms}, {@code 90s}, {@code 15m},
 * {@code 24h}, {@code 7d}) or an ISO-8601 duration ({@code PT24H}, {@code P7D}). Only the syntax is
 * checked here; whether the length is one an expiring filter takes (positive, whole milliseconds, at
 * least a second) is the library's to say, so its message and this one never disagree.
 */
final class WindowOption implements ITypeConverter<WindowOption.Window> {
  /** The forms {@code --window} takes, for its description and messages. */
  static final String FORMS = "a whole number and a unit, ms, s, m, h or d (90s, 15m, 24h, 7d), or ISO-8601 (PT24H)";

  // Units are lowercase only: "M" reads as months to many, and a window of months is written in days.
  private static final Pattern SHORT = Pattern.compile("([0-9]+)(ms|s|m|h|d)");

  /** The value as the user wrote it, for messages, and the length it denotes. */
  record Window(String text, Duration duration) {}

  @Override
  public Window convert(String value) {
    return new Window(value, parse(value));
  }

  /**
   * The length {@code text} denotes.
   *
   * @throws TypeConversionException naming the value if it is in neither form or too long for a duration
   */
  static Duration parse(String text) {
    String v = text.strip();
    Matcher m = SHORT.matcher(v);
    try {
      if (m.matches()) {
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          default -> Duration.ofDays(amount);
        };
      }
      // ISO-8601 starts with P, after an optional sign (a negative one is the library's to refuse)
      if (v.matches("[-+]?[Pp].+")) {
        return Duration.parse(v);
      }
    } catch (NumberFormatException | ArithmeticException e) {
      throw tooLong(text);
    } catch (DateTimeParseException e) {
      // A number that overflows comes wrapped: too many digits, or too many seconds for a Duration
      if (e.getCause() instanceof ArithmeticException || e.getCause() instanceof NumberFormatException) {
        throw tooLong(text);
      }
    }
    throw new TypeConversionException("invalid window '" + text + "': use " + FORMS);
  }

  private static TypeConversionException tooLong(String text) {
    return new TypeConversionException("window '" + text + "' is too long for a duration");
  }

  /**
   * A length as a person reads it: days, hours, minutes and seconds that are not zero, with the
   * milliseconds as a fraction of the second, e.g. "1d", "3h 25m 42.858s". Durations here are whole
   * milliseconds (the library's unit), so nothing finer is shown.
   */
  static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    StringBuilder out = new StringBuilder();
    append(out, d.toDaysPart(), "d");
    append(out, d.toHoursPart(), "h");
    append(out, d.toMinutesPart(), "m");
    int seconds = d.toSecondsPart();
    int millis = d.toMillisPart();
    if (millis != 0) {
      out.append(out.length() == 0 ? "" : " ").append(seconds).append('.')
          .append(millis < 100 ? (millis < 10 ? "00" : "0") : "").append(millis).append('s');
    } else {
      append(out, seconds, "s");
    }
    return out.toString();
  }

  private static void append(StringBuilder out, long amount, String unit) {
    if (amount != 0) {
      out.append(out.length() == 0 ? "" : " ").append(amount).append(unit);
    }
  }
}
