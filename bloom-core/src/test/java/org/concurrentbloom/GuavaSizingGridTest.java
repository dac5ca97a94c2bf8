package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code guavaCompatible()} against the real Guava jar of the test scope (33.5.0-jre, the version
 * docs/GUAVA.md names): for every (n, p) of Guava's own sizing grid both libraries either refuse or
 * write the same bytes after the same inserts; then large n, and Guava's golden false-positive counts.
 */
@Tag("jdk-independent") // sizing arithmetic and fixed-key counts: the same on every JDK (.ci/run)
class GuavaSizingGridTest {
  /** Keys inserted at every grid point: enough to put bits in several words, few enough to be fast. */
  private static final int GRID_INSERTS = 3;

  private static final com.google.common.hash.Funnel<CharSequence> GUAVA_UTF8 =
      com.google.common.hash.Funnels.stringFunnel(StandardCharsets.UTF_8);

  /** The outcome of building one (n, p) in one library: the bytes after the inserts, or a refusal. */
  private static byte[] guava(long n, double p, int inserts) throws IOException {
    com.google.common.hash.BloomFilter<CharSequence> g;
    try {
      g = com.google.common.hash.BloomFilter.create(GUAVA_UTF8, n, p);
    } catch (IllegalArgumentException refused) {
      return null;
    }
    for (int i = 0; i < inserts; i++) {
      g.put(FalsePositiveRateTest.insertedKey(i));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.writeTo(out);
    return out.toByteArray();
  }

  private static byte[] ours(long n, double p, int inserts) throws IOException {
    BloomFilter<CharSequence> f;
    try {
      f = BloomFilter.<CharSequence>builder(Funnels.stringFunnel()).expectedInsertions(n).fpp(p)
          .guavaCompatible().build();
    } catch (IllegalArgumentException refused) {
      return null;
    }
    for (int i = 0; i < inserts; i++) {
      f.add(FalsePositiveRateTest.insertedKey(i));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    GuavaInterop.writeTo(f, out);
    return out.toByteArray();
  }

  /** Tallies one grid. */
  private static final class Tally {
    int points;
    int refusedByBoth;
    int guavaUpTo33_3KDiffers; // where Guava up to 33.3.x (and this library before) picks another k
    int disagreements;
    final List<String> examples = new ArrayList<>();

    void compare(long n, double p, int inserts) throws IOException {
      points++;
      byte[] g = guava(n, p, inserts);
      byte[] o = ours(n, p, inserts);
      if (g == null && o == null) {
        refusedByBoth++;
        return;
      }
      if (g != null) {
        long floorBits = (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2)));
        long oldK = Math.max(1, Math.round((double) floorBits / n * Math.log(2)));
        if (oldK != (g[1] & 0xFF)) {
          guavaUpTo33_3KDiffers++;
        }
      }
      if (g == null || o == null || !java.util.Arrays.equals(g, o)) {
        disagreements++;
        if (examples.size() < 20) {
          examples.add("n=" + n + " p=" + p + ": guava " + describe(g) + ", ours " + describe(o));
        }
      }
    }

    private static String describe(byte[] b) {
      if (b == null) {
        return "refused";
      }
      int words = java.nio.ByteBuffer.wrap(b, 2, 4).getInt();
      return "k=" + (b[1] & 0xFF) + " words=" + words;
    }
  }

  @Test
  void everyPointOfGuavasSizingGridGivesGuavasBytesOrGuavasRefusal() throws IOException {
    Tally grid = new Tally();
    for (long n = 1; n < 1000; n++) {
      // p = i/1000 exactly, and p as Guava's own test reaches it (0.001 added up), whose last bits
      // differ: both are grids a Guava user's code may hit.
      double summed = 0.001;
      for (int i = 1; i < 1000; i++) {
        grid.compare(n, i / 1000.0, GRID_INSERTS);
        if (summed != i / 1000.0 && summed < 1.0) {
          grid.compare(n, summed, GRID_INSERTS);
        }
        summed += 0.001;
      }
    }
    System.out.printf("Guava sizing grid: %d points compared, %d refused by both, %d where the k formula of"
        + " Guava up to 33.3 (and ours before) differs, %d disagreements%n",
        grid.points, grid.refusedByBoth, grid.guavaUpTo33_3KDiffers, grid.disagreements);
    assertThat(grid.disagreements).as("grid points where ours and Guava's differ, e.g. %s", grid.examples).isZero();
    assertThat(grid.points).isGreaterThan(999 * 999); // both spellings of p were visited
    assertThat(grid.refusedByBoth).isPositive(); // the degenerate corner (n = 1, p > 0.618; p = 0.999) is in it
    assertThat(grid.guavaUpTo33_3KDiffers).isPositive(); // the grid does tell the two k formulas apart
  }

  @Test
  void largeFiltersAndTheEdgesOfKAreGuavasBytesAfterFullInsertion() throws IOException {
    Tally large = new Tally();
    double[] rates = {Math.pow(2, -3.5), 0.03, 0.01, 0.001, 1e-6};
    for (double p : rates) {
      large.compare(1_000_000, p, 1_000_000);
    }
    large.compare(10_000_000, 0.01, 1_000_000);
    large.compare(30_000_000, Math.pow(2, -3.5), 500_000);
    // k around Guava's limit of 255: 2^-255.5 is the boundary of round(-log2 p) = 256.
    large.compare(1000, Math.pow(2, -254.4), 1000);
    large.compare(1000, Math.pow(2, -255.4), 1000);
    large.compare(1000, Math.pow(2, -255.6), 0);
    large.compare(1000, 1e-80, 0);
    large.compare(Long.MAX_VALUE / 1024, 0.5, 0); // past the largest long[]: both refuse
    System.out.printf("Guava large points: %d compared, %d refused by both, %d disagreements%n", large.points,
        large.refusedByBoth, large.disagreements);
    assertThat(large.disagreements).as("points where ours and Guava's differ, e.g. %s", large.examples).isZero();
    assertThat(large.refusedByBoth).isEqualTo(3);
  }

  @Test
  void atOneMillionAndTwoToTheMinusThreePointFiveKIsFourAsInGuava() {
    BloomFilter<CharSequence> f = BloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .expectedInsertions(1_000_000).fpp(Math.pow(2, -3.5)).guavaCompatible().build();
    assertThat(f.hashFunctions()).isEqualTo(4);
  }

  /** Guava's {@code Funnels.unencodedCharsFunnel()}: each char as two little-endian bytes. */
  private static final Funnel<CharSequence> UNENCODED_CHARS = (s, into) -> {
    for (int i = 0; i < s.length(); i++) {
      into.putChar(s.charAt(i));
    }
  };

  private static int guavaFalsePositives(com.google.common.hash.Funnel<CharSequence> funnel) {
    var g = com.google.common.hash.BloomFilter.create(funnel, 1_000_000, 0.03);
    for (int i = 0; i < 2_000_000; i += 2) {
      g.put(Integer.toString(i));
    }
    int fp = 0;
    for (int i = 1; i < 2_000_000; i += 2) {
      if (g.mightContain(Integer.toString(i))) {
        fp++;
      }
    }
    return fp;
  }

  private static int ourFalsePositives(Funnel<CharSequence> funnel) {
    BloomFilter<CharSequence> f = BloomFilter.<CharSequence>builder(funnel).expectedInsertions(1_000_000)
        .fpp(0.03).guavaCompatible().build();
    for (int i = 0; i < 2_000_000; i += 2) {
      f.add(Integer.toString(i));
    }
    int fp = 0;
    for (int i = 1; i < 2_000_000; i += 2) {
      if (f.mightContain(Integer.toString(i))) {
        fp++;
      }
    }
    return fp;
  }

  /**
   * Guava's golden counts for MURMUR128_MITZ_64 (its BloomFilterTest): 10^6 even numbers inserted as
   * strings, the 10^6 odd ones probed, n = 10^6, p = 3%.
   */
  @Test
  void guavasGoldenFalsePositiveCountsHold() {
    int unencoded = ourFalsePositives(UNENCODED_CHARS);
    int utf8 = ourFalsePositives(Funnels.stringFunnel());
    System.out.printf("golden false positives: %d (unencoded chars), %d (UTF-8) of 1,000,000%n", unencoded, utf8);
    assertThat(unencoded).isEqualTo(30_104).isEqualTo(guavaFalsePositives(
        com.google.common.hash.Funnels.unencodedCharsFunnel()));
    assertThat(utf8).isEqualTo(29_763).isEqualTo(guavaFalsePositives(GUAVA_UTF8));
  }
}
