package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DemoKeysTest {
  @Test
  void keysAreDeterministicDistinctAndLookLikeAddresses() {
    DemoKeys keys = new DemoKeys(42);
    Set<String> seen = new HashSet<>();
    Set<String> localStyles = new HashSet<>();
    for (long i = 0; i < 200_000; i++) {
      String key = keys.key(i);
      assertThat(seen.add(key)).as("duplicate %s", key).isTrue();
      assertThat(key).matches("[a-z._]+[a-z]" + i + "@[a-z.]+\\.[a-z]+");
      localStyles.add(key.replaceAll("[0-9]+@.*", "").replaceAll("[a-z]", "x").replaceAll("x+", "x"));
    }
    assertThat(localStyles).hasSizeGreaterThanOrEqualTo(3); // "x.x", "x_x", "x": some variety
    assertThat(new DemoKeys(42).key(12345)).isEqualTo(keys.key(12345));
    assertThat(new DemoKeys(7).key(12345)).isNotEqualTo(keys.key(12345));
  }
}
