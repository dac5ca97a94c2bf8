package org.concurrentbloom.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void readsEveryKindOfValue() {
    Object v = Json.parse(
        " { \"a\" : [1, -2.5e3, true, false, null, \"x\\\"y\\\\z\\u00e9\\n\"], \"b\" : {} , \"c\": [] } ");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("a", Arrays.asList(1.0, -2500.0, true, false, null, "x\"y\\zé\n"));
    expected.put("b", Map.of());
    expected.put("c", List.of());
    assertThat(v).isEqualTo(expected);
  }

  @Test
  void keepsMemberOrder() {
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) Json.parse("{\"z\": 1, \"a\": 2, \"m\": 3}");
    assertThat(m.keySet()).containsExactly("z", "a", "m");
  }

  @Test
  void rejectsMalformedInputWithItsOffset() {
    assertThatThrownBy(() -> Json.parse("[1, 2")).hasMessageContaining("offset 5");
    assertThatThrownBy(() -> Json.parse("{\"a\" 1}")).hasMessageContaining("expected ':'");
    assertThatThrownBy(() -> Json.parse("[1] x")).hasMessageContaining("trailing");
    assertThatThrownBy(() -> Json.parse("\"abc")).hasMessageContaining("unterminated");
    assertThatThrownBy(() -> Json.parse("")).hasMessageContaining("end of input");
  }
}
