package org.concurrentbloom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The counting adapters measure working filters: added keys are found, removed ones are gone (but for
 * false positives), removes of added keys succeed, and reset empties; the benchmark's remove pass counts
 * on all of that.
 */
class CountingImplTest {
  private static final int N = 20_000;

  @ParameterizedTest
  @EnumSource(CountingImpl.class)
  void addRemoveAndResetWork(CountingImpl impl) {
    CountingUnderTest filter = impl.create(N, BenchmarkDefaults.FPP);
    for (long i = 0; i < N; i++) {
      filter.add(KeyType.STRING.key(i));
    }
    Object twice = KeyType.STRING.key(0);
    filter.add(twice);
    for (long i = 0; i < N; i++) {
      assertThat(filter.mightContain(KeyType.STRING.key(i))).as("%s key %d", impl, i).isTrue();
    }
    for (long i = 0; i < N; i += 2) {
      assertThat(filter.remove(KeyType.STRING.key(i))).as("%s remove of key %d", impl, i).isTrue();
    }
    assertThat(filter.mightContain(twice)).as("%s: one of two copies removed", impl).isTrue();
    int stillFound = 0;
    for (long i = 2; i < N; i += 2) {
      stillFound += filter.mightContain(KeyType.STRING.key(i)) ? 1 : 0;
    }
    // Removed keys come back only as false positives of the half-full filter (about 0.05%).
    assertThat(stillFound).as("%s removed keys still reported", impl).isLessThan(N / 2 / 100);
    for (long i = 1; i < N; i += 2) {
      assertThat(filter.mightContain(KeyType.STRING.key(i))).as("%s kept key %d", impl, i).isTrue();
    }
    filter.reset();
    assertThat(filter.mightContain(KeyType.STRING.key(1))).isFalse();
  }
}
