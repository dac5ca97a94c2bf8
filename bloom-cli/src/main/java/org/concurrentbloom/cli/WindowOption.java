package org.concurrentbloom.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.concurrentbloom.ExpiringBloomFilter;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A {@code --window} value: a whole number and a unit ({@code 500ms}, {@code 90s}, {@code 15m},
 * {@code 24h}, {@code 7d}) or an ISO-8601 duration ({@code PT24H}, {@code P7D}). The syntax is checked
 * here, and so is the upper limit, {@link ExpiringBloomFilter#MAX_WINDOW}, so that a value too long for a
 * {@link Duration} and one a little past the limit get the same message, naming the limit in the unit
 * the user wrote. Whether a shorter length is one an expiring filter takes (positive, whole
 * milliseconds, at least a second) is the library's to say, so its message and this one never disagree.
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
   * @throws TypeConversionException naming the value if it is in neither form, or longer than an
   *     expiring filter's window can be
   */
  static Duration parse(String text) {
    Duration length = length(text);
    if (length.compareTo(ExpiringBloomFilter.MAX_WINDOW) > 0) {
      throw tooLong(text);
    }
    return length;
  }

  private static Duration length(String text) {
    String v = text.strip();
    Matcher m = SHORT.matcher(v);
    try {
      if (m.matches()) {
        return Duration.ofMillis(unitMillis(m.group(2))).multipliedBy(Long.parseLong(m.group(1)));
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

  private static long unitMillis(String unit) {
    return switch (unit) {
      case "ms" -> 1;
      case "s" -> 1_000;
      case "m" -> 60_000;
      case "h" -> 3_600_000;
      default -> 86_400_000;
    };
  }

  private static TypeConversionException tooLong(String text) {
    return new TypeConversionException("window '" + text + "' is too long: an expiring filter's window is at most "
        + longest(text));
  }

  /**
   * {@link ExpiringBloomFilter#MAX_WINDOW} in the unit of {@code text}, rounded down, then in milliseconds:
   * "416999965d (36028797018963967 ms)"; for ISO-8601 text, in ISO-8601.
   */
  private static String longest(String text) {
    long millis = ExpiringBloomFilter.MAX_WINDOW.toMillis();
    Matcher m = SHORT.matcher(text.strip());
    if (!m.matches()) {
      return ExpiringBloomFilter.MAX_WINDOW + " (" + millis + " ms)";
    }
    String unit = m.group(2);
    return unit.equals("ms") ? millis + "ms" : millis / unitMillis(unit) + unit + " (" + millis + " ms)";
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
