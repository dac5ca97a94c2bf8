package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The builders' setters inherited from package-private bases must still be compiled into each public
 * builder with the builder as return type: code compiled against a builder that declared them links to
 * exactly that signature, and a signature returning the base would fail with NoSuchMethodError.
 */
class BuilderSignatureTest {

  private static void assertSettersReturn(Class<?> builder, List<String> setters) {
    for (String name : setters) {
      boolean declared = Arrays.stream(builder.getDeclaredMethods())
          .anyMatch(m -> m.getName().equals(name) && m.getReturnType() == builder && !m.isBridge()
              && Modifier.isPublic(m.getModifiers()));
      assertThat(declared).as("%s.%s() returning %s", builder.getSimpleName(), name, builder.getSimpleName())
          .isTrue();
    }
  }

  @Test
  void bloomFilterBuilderSettersReturnTheBuilder() {
    assertSettersReturn(BloomFilter.Builder.class, List.of("expectedInsertions", "fpp", "blocked", "guavaCompatible", "hashStrategy"));
  }

  @Test
  void countingBuilderSettersReturnTheBuilder() {
    assertSettersReturn(CountingBloomFilter.Builder.class, List.of("expectedInsertions", "fpp", "hashStrategy"));
  }

  @Test
  void inheritedQueriesArePublicMethodsOfTheFilterItself() throws NoSuchMethodException {
    for (String name : List.of("bitSize", "hashFunctions", "expectedInsertions", "fpp", "fillRatio", "estimatedFpp",
        "approximateElementCount", "filterType", "hashStrategy")) {
      Method m = BloomFilter.class.getMethod(name);
      assertThat(Modifier.isPublic(m.getModifiers())).isTrue();
      assertThat(BloomFilter.class.getDeclaredMethod(name).getDeclaringClass()).as(name).isEqualTo(BloomFilter.class);
    }
    assertThat(BloomFilter.class.getDeclaredMethod("isCompatible", BloomFilter.class)).isNotNull();
    assertThat(BloomFilter.Builder.class.getDeclaredMethod("bitSize").getReturnType()).isEqualTo(long.class);
  }
}
