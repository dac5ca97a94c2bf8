package org.concurrentbloom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryKeysTest {
  @Test
  void halfOfTheQueriesArePresentAndTheyAreShuffled() {
    long n = 1_000;
    long[] indices = QueryKeys.halfPresentIndices(n, 4096);
    long present = 0;
    int presentInFirstHalf = 0;
    for (int i = 0; i < indices.length; i++) {
      assertThat(indices[i]).isBetween(0L, 2 * n - 1);
      if (indices[i] < n) {
        present++;
        if (i < indices.length / 2) {
          presentInFirstHalf++;
        }
      }
    }
    assertThat(present).isEqualTo(2048);
    assertThat(presentInFirstHalf).as("shuffled, not present-then-absent").isBetween(900, 1150);
  }

  @Test
  void keysAreDistinctAndLookLikeAddresses() {
    Set<String> emails = new HashSet<>();
    Set<Long> longs = new HashSet<>();
    for (long i = 0; i < 200_000; i++) {
      emails.add(Keys.email(i));
      longs.add(Keys.longKey(i));
    }
    assertThat(emails).hasSize(200_000);
    assertThat(longs).hasSize(200_000);
    assertThat(Keys.email(123)).matches("[a-z]+\\.[a-z]+123@[a-z.]+");
  }

  @Test
  void freshKeysAreTheFirstIndices() {
    assertThat(QueryKeys.fresh(KeyType.LONG, 3)).containsExactly(Keys.longKey(0), Keys.longKey(1), Keys.longKey(2));
  }
}
