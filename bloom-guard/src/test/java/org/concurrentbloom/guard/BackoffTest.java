package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void doublesFromTheInitialDelayUpToTheCap() {
    Backoff b = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(5));
    assertThat(b.delayAfter(1)).isEqualTo(Duration.ofMillis(500));
    assertThat(b.delayAfter(2)).isEqualTo(Duration.ofSeconds(1));
    assertThat(b.delayAfter(4)).isEqualTo(Duration.ofSeconds(4));
    assertThat(b.delayAfter(5)).isEqualTo(Duration.ofSeconds(5));
    assertThat(b.delayAfter(Long.MAX_VALUE)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void rejectsBadValuesNamingThem() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1))).hasMessageContaining("was PT0S");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1))).hasMessageContaining("was PT1S");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1)).delayAfter(0))
        .hasMessageContaining("was 0");
  }
}
