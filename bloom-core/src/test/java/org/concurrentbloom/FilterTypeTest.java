package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Freezes the registry's ids: they are bytes 5 and 6 of every file, so they never change. */
final class FilterTypeTest {
  @Test
  void typeIdsStrategiesAndNamesAreFrozen() {
    Map<FilterType, String> expected = new LinkedHashMap<>();
    expected.put(FilterType.STANDARD, "1 standard 4 [1, 4]");
    expected.put(FilterType.BLOCKED, "2 blocked 6 [2, 5, 6]");
    expected.put(FilterType.GUAVA, "3 guava 3 [3]");
    expected.put(FilterType.COUNTING, "4 counting 4 [1, 4]");
    expected.put(FilterType.SCALABLE, "5 scalable - []");
    expected.put(FilterType.EXPIRING, "6 expiring 4 [4]");
    Map<FilterType, String> actual = new LinkedHashMap<>();
    for (FilterType t : FilterType.values()) {
      List<Integer> admitted = t.strategies().stream().map(HashStrategy::id).sorted().toList();
      actual.put(t, t.id() + " " + t.shortName() + " " + (t.strategy() == null ? "-" : t.strategy().id()) + " "
          + admitted);
      for (HashStrategy s : HashStrategy.values()) {
        assertThat(t.admits(s)).isEqualTo(t.strategies().contains(s));
      }
      assertThat(FilterType.ofId(t.id())).isSameAs(t);
    }
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void strategyIdsAreFrozen() {
    assertThat(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE.id()).isEqualTo(1);
    assertThat(HashStrategy.MURMUR3_128_BLOCKED.id()).isEqualTo(2);
    assertThat(HashStrategy.GUAVA_MURMUR128_MITZ_64.id()).isEqualTo(3);
    assertThat(HashStrategy.GUAVA_MURMUR128_MITZ_32.isStorable()).isFalse();
    assertThat(HashStrategy.XXH3_64_ENHANCED_DOUBLE.id()).isEqualTo(4);
    assertThat(HashStrategy.XXH3_64_BLOCKED.id()).isEqualTo(5);
    assertThat(HashStrategy.XXH3_64_WORD_PAIR.id()).isEqualTo(6);
    assertThat(HashStrategy.values()).hasSize(7);
    for (HashStrategy s : HashStrategy.values()) {
      if (s.isStorable()) {
        assertThat(HashStrategy.ofId(s.id())).isSameAs(s);
      }
    }
  }

  @Test
  void unknownIdsAreRefusedByName() {
    assertThatThrownBy(() -> FilterType.ofId(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown filter type 0; known types: 1 (standard), 2 (blocked), 3 (guava), 4 (counting),"
            + " 5 (scalable), 6 (expiring)");
    assertThatThrownBy(() -> HashStrategy.ofId(-32)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown hash strategy -32");
  }

  @Test
  void eachBitArrayTypeBuildsItsOwnLayout() {
    for (FilterType t : FilterType.values()) {
      if (t.isBitArray()) {
        for (HashStrategy s : t.strategies()) {
          Layout sized = t.sizedLayout(1_000, 0.01, s);
          assertThat(sized.type()).isSameAs(t);
          assertThat(sized.strategy()).isSameAs(s);
          assertThat(t.layout(sized.bits, sized.hashFunctions, s).sameShape(sized)).isTrue();
        }
        assertThat(t.sizedLayout(1_000, 0.01).strategy()).isSameAs(t.strategy());
        for (HashStrategy s : HashStrategy.values()) {
          if (!t.admits(s)) {
            assertThatThrownBy(() -> t.sizedLayout(1_000, 0.01, s)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot use hash strategy " + s.id());
          }
        }
      } else {
        assertThatThrownBy(() -> t.layout(64, 3, HashStrategy.MURMUR3_128_ENHANCED_DOUBLE))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(t.shortName());
      }
    }
  }
}
