package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link MembershipFilter} must share: each filter type, layout and backend
 * subclasses this with its factory and reader, and passes the same suite before it ships.
 */
public abstract class MembershipFilterContractTest {

  /** Creates an empty filter of the implementation under test, sized for n items at rate p. */
  protected abstract <T> MembershipFilter<T> create(Funnel<? super T> funnel, long expectedInsertions,
      double fpp);

  /** Reads back what {@link MembershipFilter#writeTo} wrote, with the reader of the implementation. */
  protected abstract <T> MembershipFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException;

  private MembershipFilter<CharSequence> strings(long n, double p) {
    return create(Funnels.stringFunnel(), n, p);
  }

  @Test
  void addedItemsAreFoundAndAddReportsWhetherTheAnswerChanged() {
    MembershipFilter<CharSequence> f = strings(1_000, 0.01);
    assertThat(f.mightContain("alice@example.com")).isFalse();
    assertThat(f.add("alice@example.com")).isTrue();
    assertThat(f.add("alice@example.com")).isFalse();
    assertThat(f.mightContain("alice@example.com")).isTrue();
    assertThat(f.count()).isEqualTo(1);
  }

  @Test
  void noFalseNegativesAtFullLoad() {
    MembershipFilter<Long> f = create(Funnels.longFunnel(), 50_000, 0.01);
    for (long i = 0; i < 50_000; i++) {
      f.add(i * 7919);
    }
    for (long i = 0; i < 50_000; i++) {
      assertThat(f.mightContain(i * 7919)).as("key %d", i * 7919).isTrue();
    }
  }

  @Test
  void statisticsAgreeWithTheLoad() {
    MembershipFilter<Integer> f = create(Funnels.integerFunnel(), 20_000, 0.01);
    assertThat(f.fillRatio()).isZero();
    assertThat(f.approximateElementCount()).isZero();
    assertThat(f.expectedInsertions()).isEqualTo(20_000);
    assertThat(f.fpp()).isEqualTo(0.01);
    assertThat(f.bitSize()).isPositive();
    int added = (int) IntStream.range(0, 20_000).filter(i -> f.add(i)).count();
    assertThat(f.count()).isEqualTo(added);
    // A few adds may return false (a false positive at the time), never many.
    assertThat(added).isGreaterThan(20_000 - 20_000 / 50);
    assertThat(f.fillRatio()).isBetween(0.0, 1.0).isPositive();
    // At its expected load the filter estimates at most its target rate (a little over, for rounding).
    assertThat(f.estimatedFpp()).isPositive().isLessThanOrEqualTo(1.05 * f.fpp());
    assertThat((double) f.approximateElementCount()).isCloseTo(20_000, within(20_000 * 0.05));
  }

  @Test
  void clearRemovesEverythingAndResetsCount() {
    MembershipFilter<CharSequence> f = strings(100, 0.01);
    f.add("x");
    f.clear();
    assertThat(f.mightContain("x")).isFalse();
    assertThat(f.count()).isZero();
    assertThat(f.fillRatio()).isZero();
    assertThat(f.add("x")).isTrue();
  }

  @Test
  void writeThenReadAnswersIdentically() throws IOException {
    MembershipFilter<CharSequence> f = strings(5_000, 0.02);
    for (int i = 0; i < 5_000; i++) {
      f.add("user" + i + "@example.com");
    }
    MembershipFilter<CharSequence> loaded = read(new ByteArrayInputStream(bytes(f)), Funnels.stringFunnel());
    assertThat(loaded.bitSize()).isEqualTo(f.bitSize());
    assertThat(loaded.count()).isEqualTo(f.count());
    assertThat(loaded.expectedInsertions()).isEqualTo(5_000);
    assertThat(loaded.fpp()).isEqualTo(0.02);
    assertThat(loaded.fillRatio()).isEqualTo(f.fillRatio());
    for (int i = 0; i < 20_000; i++) {
      String key = "user" + i + "@example.com";
      assertThat(loaded.mightContain(key)).isEqualTo(f.mightContain(key));
    }
  }

  /**
   * Random byte flips and truncations of a valid file: each mutant either fails with an IOException or,
   * if it loads, answers exactly as the original does (a loaded file is never silently wrong).
   */
  @Test
  void corruptFilesAreRejectedOrLoadSoundly() throws IOException {
    MembershipFilter<CharSequence> f = strings(300, 0.05);
    for (int i = 0; i < 300; i++) {
      f.add("k" + i);
    }
    byte[] valid = bytes(f);
    SplittableRandom random = new SplittableRandom(20261129L);
    for (int trial = 0; trial < 2_000; trial++) {
      byte[] mutant;
      if (trial % 4 == 0) {
        mutant = java.util.Arrays.copyOf(valid, random.nextInt(valid.length));
      } else {
        mutant = valid.clone();
        int flips = 1 + random.nextInt(4);
        for (int j = 0; j < flips; j++) {
          mutant[random.nextInt(mutant.length)] ^= (byte) (1 + random.nextInt(255));
        }
      }
      MembershipFilter<CharSequence> loaded;
      try {
        loaded = read(new ByteArrayInputStream(mutant), Funnels.stringFunnel());
      } catch (IOException expected) {
        continue;
      }
      for (int i = 0; i < 600; i++) {
        assertThat(loaded.mightContain("k" + i)).as("mutant %d, key k%d", trial, i)
            .isEqualTo(f.mightContain("k" + i));
      }
    }
  }

  @Test
  void rejectsBadSizingArgumentsNamingTheValue() {
    assertThatThrownBy(() -> strings(0, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> strings(-5, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was -5");
    for (double p : new double[] {0.0, 1.0, -0.1, 1.5, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> strings(100, p)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("fpp").hasMessageContaining("was " + p);
    }
  }

  @Test
  void nullItemsAreRejected() {
    MembershipFilter<CharSequence> f = strings(10, 0.01);
    assertThatThrownBy(() -> f.add(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> f.mightContain(null)).isInstanceOf(NullPointerException.class);
  }

  /** The bytes {@link MembershipFilter#writeTo} writes. */
  protected static byte[] bytes(MembershipFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }
}
