package org.concurrentbloom.benchmarks.profile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The profile's replica of strategy 4's hash gives docs/HASHING.md's test vectors (section 7). */
final class ProfileReplicaTest {
  @Test
  void replicaOfStrategyFoursHashGivesTheDocumentedVectors() {
    assertThat(ProfileBenchmark.xxh3H1("Grüße aus Zürich")).isEqualTo(0xb64776c76258effbL);
    assertThat(ProfileBenchmark.xxh3H2(0xb64776c76258effbL)).isEqualTo(0x4de23463ef897d6bL);
    assertThat(ProfileBenchmark.xxh3H1(42L)).isEqualTo(0xd5a6f8c838df27c8L);
    assertThat(ProfileBenchmark.xxh3H2(0xd5a6f8c838df27c8L)).isEqualTo(0xf0279f3d3a3490bcL);
  }
}
