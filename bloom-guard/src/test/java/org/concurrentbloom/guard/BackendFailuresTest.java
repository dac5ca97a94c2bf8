package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bookkeeping behind a degraded guard: which failed inserts a build covers, which keys a replay must
 * add, and what happens when more inserts fail than keys are kept.
 */
class BackendFailuresTest {
  private final BackendFailures<String> failures = new BackendFailures<>();

  @Test
  void aReplayListsTheFailedKeysAndCoversThemOnceAdded() {
    assertThat(failures.degraded()).isFalse();
    assertThat(failures.replay()).contains(new BackendFailures.Replay<>(0, List.of()));

    failures.insertFailed("a");
    failures.insertFailed("b");
    assertThat(failures.degraded()).isTrue();
    BackendFailures.Replay<String> replay = failures.replay().orElseThrow();
    assertThat(replay.through()).isEqualTo(2);
    assertThat(replay.keys()).containsExactly("a", "b");

    failures.insertFailed("c"); // after the replay was read: not covered by it
    failures.covered(replay.through());
    assertThat(failures.degraded()).as("c is not covered").isTrue();
    assertThat(failures.keptKeys()).isEqualTo(1);
    replay = failures.replay().orElseThrow();
    assertThat(replay.through()).isEqualTo(3);
    assertThat(replay.keys()).containsExactly("c");

    failures.covered(replay.through());
    assertThat(failures.degraded()).isFalse();
    assertThat(failures.keptKeys()).isZero();
    assertThat(failures.failedInserts()).isEqualTo(3);
  }

  @Test
  void coveringNeverMovesBack() {
    failures.insertFailed("a");
    failures.insertFailed("b");
    failures.covered(2);
    failures.covered(1); // a build that began earlier, published later
    assertThat(failures.degraded()).isFalse();
    assertThat(failures.replay().orElseThrow().keys()).isEmpty();
  }

  @Test
  void pastTheKeptKeysNoReplayCoversUntilABuildCoversTheDroppedOnes() {
    for (int i = 0; i < BackendFailures.KEPT_KEYS; i++) {
      failures.insertFailed("k" + i);
    }
    assertThat(failures.replay()).as("every key kept").isPresent();
    failures.insertFailed("dropped-1"); // number KEPT_KEYS + 1
    failures.insertFailed("dropped-2"); // number KEPT_KEYS + 2
    assertThat(failures.keptKeys()).isEqualTo(BackendFailures.KEPT_KEYS);
    assertThat(failures.replay()).as("a key was not kept").isEmpty();

    // A scan that read the count before the second dropped key covers only the first.
    failures.covered(BackendFailures.KEPT_KEYS + 1);
    assertThat(failures.degraded()).isTrue();
    assertThat(failures.keptKeys()).isZero();
    assertThat(failures.replay()).as("dropped-2 is still neither kept nor covered").isEmpty();

    failures.insertFailed("after"); // kept again: there is room
    assertThat(failures.keptKeys()).isEqualTo(1);
    failures.covered(BackendFailures.KEPT_KEYS + 2);
    Optional<BackendFailures.Replay<String>> replay = failures.replay();
    assertThat(replay).as("every uncovered key is kept again").isPresent();
    assertThat(replay.get().keys()).containsExactly("after");
    failures.covered(replay.get().through());
    assertThat(failures.degraded()).isFalse();
  }
}
