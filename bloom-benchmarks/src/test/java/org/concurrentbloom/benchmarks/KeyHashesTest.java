package org.concurrentbloom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.benchmarks.strategies.ConcurrentBits;
import org.concurrentbloom.benchmarks.strategies.Strategy;
import org.junit.jupiter.api.Test;

class KeyHashesTest {
  @Test
  void emptyStringHashesToZeroAsDocumented() {
    long[] out = new long[2];
    KeyHashes.hashInto("", out, 0);
    assertThat(out).containsExactly(0L, 0L); // docs/HASHING.md: the empty input hashes to h1 = h2 = 0
  }

  @Test
  void hashesAreTheHalvesOfMurmur3LittleEndian() {
    long[] out = KeyHashes.ofEmails(5, 1);
    byte[] bytes = Hashing.murmur3_128().hashString(Keys.email(5), StandardCharsets.UTF_8).asBytes();
    long h1 = 0;
    long h2 = 0;
    for (int i = 7; i >= 0; i--) {
      h1 = (h1 << 8) | (bytes[i] & 0xFF);
      h2 = (h2 << 8) | (bytes[8 + i] & 0xFF);
    }
    assertThat(out).containsExactly(h1, h2);
  }

  @Test
  void strategiesFedTheseHashesAgreeWithOurFilterOnWhichKeysAreFalsePositives() {
    // Same hash, same probe math: the strategies' bit positions are those of bloom-core's standard layout
    // with hash strategy 1, whose hash KeyHashes computes.
    BloomFilter<CharSequence> ours = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(5_000).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    ConcurrentBits bits = Strategy.ATOMIC_CAS.create(5_000, 0.01);
    long[] added = KeyHashes.ofEmails(0, 5_000);
    for (int i = 0; i < 5_000; i++) {
      ours.add(Keys.email(i));
      bits.add(added[2 * i], added[2 * i + 1]);
    }
    long[] probes = KeyHashes.ofEmails(5_000, 50_000);
    for (int i = 0; i < 50_000; i++) {
      assertThat(bits.mightContain(probes[2 * i], probes[2 * i + 1]))
          .as("key %d", 5_000 + i).isEqualTo(ours.mightContain(Keys.email(5_000 + i)));
    }
  }
}
