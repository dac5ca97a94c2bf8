package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class WindowOptionTest {
  @ParameterizedTest
  @CsvSource({
      "500ms, PT0.5S", "90s, PT1M30S", "15m, PT15M", "24h, PT24H", "7d, PT168H", "0h, PT0S",
      "PT24H, PT24H", "pt1h30m, PT1H30M", "P7D, PT168H", "PT0.5S, PT0.5S", "-PT5S, PT-5S"})
  void bothFormsParse(String text, String iso) {
    // Zero, sub-second and negative lengths parse: refusing them is the library's (its message names the rule).
    assertThat(WindowOption.parse(text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "", "24", "h", "1.5h", "-5s", "24H", "15M", "1w", "24 h", "P", "PTXH", "1h30m"})
  void otherTextIsRefusedNamingIt(String text) {
    assertThatThrownBy(() -> WindowOption.parse(text)).isInstanceOf(TypeConversionException.class)
        .hasMessage("invalid window '" + text + "': use " + WindowOption.FORMS);
  }

  @ParameterizedTest
  @CsvSource({
      "99999999999999999999d, 416999965d (36028797018963967 ms)",
      "9999999999999999d, 416999965d (36028797018963967 ms)",
      "106751991167300d, 416999965d (36028797018963967 ms)",
      "416999966d, 416999965d (36028797018963967 ms)",
      "10007999172h, 10007999171h (36028797018963967 ms)",
      "600479950317m, 600479950316m (36028797018963967 ms)",
      "36028797018964s, 36028797018963s (36028797018963967 ms)",
      "36028797018963968ms, 36028797018963967ms",
      "PT99999999999999999999H, PT10007999171H56M3.967S (36028797018963967 ms)",
      "PT10007999171H56M3.968S, PT10007999171H56M3.967S (36028797018963967 ms)"})
  void aLengthPastTheLibrarysLimitIsTooLongNamingTheLimitInTheUnitGiven(String text, String limit) {
    // Whether a Duration can hold it or not: the limit is the expiring filter's (2^63 / 256 ms).
    assertThatThrownBy(() -> WindowOption.parse(text)).isInstanceOf(TypeConversionException.class)
        .hasMessage("window '" + text + "' is too long: an expiring filter's window is at most " + limit);
  }

  @ParameterizedTest
  @ValueSource(strings = {"416999965d", "36028797018963967ms", "PT10007999171H56M3.967S"})
  void theLongestWindowParses(String text) {
    assertThat(WindowOption.parse(text)).isLessThanOrEqualTo(ExpiringBloomFilter.MAX_WINDOW);
  }

  @ParameterizedTest
  @ValueSource(strings = {"416999965d", "36028797018963967ms"})
  void theLibraryTakesTheLongestWindow(String text) {
    // The limit the CLI names is the library's own: a window at it builds.
    assertThat(ExpiringBloomFilter.builder(Funnels.stringFunnel()).window(WindowOption.parse(text))
        .expectedInsertionsPerWindow(10).bitSize()).isPositive();
  }

  @ParameterizedTest
  @CsvSource({"PT24H, 1d", "PT1M30S, 1m 30s", "PT3H25M42.858S, 3h 25m 42.858s", "PT27H0.05S, 1d 3h 0.050s",
      "PT0.007S, 0.007s", "PT0S, 0s", "PT169H, 7d 1h"})
  void formatShowsTheUnitsThatAreNotZero(String iso, String text) {
    assertThat(WindowOption.format(Duration.parse(iso))).isEqualTo(text);
  }
}
