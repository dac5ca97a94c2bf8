package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/FORMAT.md, type 6, "Sizing, which the reader recomputes": the document's lines transcribed one by
 * one ({@link #documented}), written from the document and not from ExpiringPlan, against the builder,
 * on the shapes of the document's table (n = 10^8 and 10^9 among them, where the two natural readings of
 * n_slot are off by one) and on shapes the builder refuses. The table in the document must list exactly
 * {@link #ROWS}.
 */
final class ExpiringSizingFormulaTest {
  /** A cell of a Markdown table row: the text between two bars. */
  private static final Pattern CELL = Pattern.compile("[^|]+");

  /** A row of the document's table: the shape, then s, n_slot, m and k. */
  record Row(long n, double p, long w, int g, long s, long nSlot, long m, long k) {}

  /** The document's table, in its order. */
  static final List<Row> ROWS = List.of(
      new Row(6, 0.1, 3000, 4, 1000, 2, 64, 5),
      new Row(1_000_000, 0.01, 86_400_000, 8, 12_342_858, 142_858, 1_986_304, 10),
      new Row(100_000_000, 0.001, 1000, 4, 334, 33_400_000, 576_557_376, 12),
      new Row(100_000_000, 0.005, 30_000_000_003L, 2, 30_000_000_003L, 100_000_001, 1_246_784_256, 9),
      new Row(1_000_000_000, 0.01, 4000, 16, 267, 66_750_000, 1_024_348_288, 11),
      new Row(1_000_000_000, 0.02, 5_000_000_003L, 2, 5_000_000_003L, 1_000_000_001, 9_574_572_672L, 7),
      new Row(1_000_000_000, 0.01, 604_800_000, 64, 9_600_000, 15_873_016, 289_380_032, 13));

  /**
   * The document's block, line by line, in its order and grouping: {s, n_slot, m, k}, or null where it
   * says to refuse the file.
   */
  static long[] documented(long n, double p, long w, int g) {
    long s = (w + (g - 1) - 1) / (g - 1); // ⌈W / (G − 1)⌉, W and G positive
    double q = ((double) n * (double) s) / (double) w;
    long nSlot = Math.max(1, (long) Math.ceil(q));
    double pg = -Math.expm1(Math.log1p(-p) / (double) g);
    double ln2 = Math.log(2);
    double ln2sq = ln2 * ln2;
    double mOpt = (-(double) nSlot * Math.log(pg)) / ln2sq;
    if (!(1 <= mOpt && mOpt <= 137_438_952_833.0)) {
      return null;
    }
    long bits = (long) Math.ceil(mOpt);
    long m = Math.max(64, 64 * ((bits + 63) / 64));
    long k = Math.max(1, Math.min(2048, Math.round((mOpt / (double) nSlot) * ln2)));
    if (BigInteger.valueOf(g).multiply(BigInteger.valueOf(m)).compareTo(BigInteger.valueOf(137_438_952_896L)) > 0) {
      return null;
    }
    return new long[] {s, nSlot, m, k};
  }

  /** The builder's shape: {s, n_slot, m, k}, or null if it refuses. */
  private static long[] library(long n, double p, long w, int g) {
    ExpiringBloomFilter.Builder<Long> b = ExpiringBloomFilter.builder(Funnels.longFunnel())
        .window(Duration.ofMillis(w)).expectedInsertionsPerWindow(n).fpp(p).generations(g);
    try {
      return new long[] {b.generationSpan().toMillis(), new ExpiringPlan(n, p, w, g).perSlot, b.bitsPerGeneration(),
          b.hashFunctions()};
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** m as the document computes it from a given n_slot: for the values the natural readings would give. */
  private static long mFor(long nSlot, double p, int g) {
    double pg = -Math.expm1(Math.log1p(-p) / (double) g);
    double ln2 = Math.log(2);
    double mOpt = (-(double) nSlot * Math.log(pg)) / (ln2 * ln2);
    long bits = (long) Math.ceil(mOpt);
    return Math.max(64, 64 * ((bits + 63) / 64));
  }

  @Test
  void theDocumentsLinesGiveTheBuildersShapeForEveryRow() {
    for (Row r : ROWS) {
      long[] expected = {r.s(), r.nSlot(), r.m(), r.k()};
      assertThat(documented(r.n(), r.p(), r.w(), r.g())).as("the document's lines for %s", r).containsExactly(expected);
      assertThat(library(r.n(), r.p(), r.w(), r.g())).as("the builder for %s", r).containsExactly(expected);
    }
    assertThat(ROWS).extracting(Row::n).contains(100_000_000L, 1_000_000_000L);
  }

  /** The shapes the document's prose uses to show that both natural readings of n_slot give another m. */
  @Test
  void theNaturalReadingsOfNSlotGiveAnotherMWhereTheDocumentSays() {
    // The exact integer ⌈n·s/W⌉: 10^8, where q rounds up to 100000001.
    long n = 100_000_000;
    long w = 30_000_000_003L;
    long exact = BigInteger.valueOf(n).multiply(BigInteger.valueOf(w)).add(BigInteger.valueOf(w - 1))
        .divide(BigInteger.valueOf(w)).longValueExact();
    assertThat(exact).isEqualTo(100_000_000);
    assertThat(documented(n, 0.005, w, 2)).containsExactly(w, 100_000_001, 1_246_784_256, 9);
    assertThat(mFor(exact, 0.005, 2)).isEqualTo(1_246_784_192);
    // The exact reading is off at n = 10^9 too.
    long w9 = 5_000_000_003L;
    assertThat(BigInteger.valueOf(1_000_000_000).multiply(BigInteger.valueOf(w9)).add(BigInteger.valueOf(w9 - 1))
        .divide(BigInteger.valueOf(w9)).longValueExact()).isEqualTo(1_000_000_000);
    assertThat(mFor(1_000_000_000, 0.02, 2)).isNotEqualTo(9_574_572_672L);
    // n × (s ÷ W): 33400001 instead of the library's 33400000.
    double productOfQuotient = n * (334.0 / 1000.0);
    assertThat(productOfQuotient).isEqualTo(33_400_000.000000004);
    assertThat((long) Math.ceil(productOfQuotient)).isEqualTo(33_400_001);
    assertThat(mFor(33_400_001, 0.001, 4)).isEqualTo(576_557_440);
    assertThat(documented(n, 0.001, 1000, 4)).containsExactly(334, 33_400_000, 576_557_376, 12);
    // ... and at n = 10^9.
    assertThat((long) Math.ceil(1_000_000_000 * (267.0 / 4000.0))).isEqualTo(66_750_001);
    assertThat(mFor(66_750_001, 0.01, 16)).isNotEqualTo(1_024_348_288);
  }

  /** LN2SQ is the binary64 product of log(2) with itself, one ulp below the correctly rounded (ln 2)². */
  @Test
  void theConstantsAreTheDocumentsBits() {
    double ln2 = Math.log(2);
    assertThat(Double.doubleToRawLongBits(ln2)).isEqualTo(0x3FE62E42FEFA39EFL);
    assertThat(Double.doubleToRawLongBits(ln2 * ln2)).isEqualTo(0x3FDEBFBDFF82C58EL);
    // (ln 2)² = 0.480453013918201424667102526327..., nearer to the next binary64 up.
    assertThat(new BigDecimal("0.480453013918201424667102526327").doubleValue())
        .isEqualTo(Double.longBitsToDouble(0x3FDEBFBDFF82C58FL));
  }

  /** Where the document says to refuse, the builder refuses: m_opt below 1 bit or +∞, and G·m past the limit. */
  @Test
  void theDocumentRefusesWhatTheBuilderRefuses() {
    record Shape(long n, double p, long w, int g) {}
    List<Shape> refused = List.of(
        new Shape(1, 0.99, 1000, 2), // p_g = 0.9: m_opt = 0.22 bits
        new Shape(10_000_000_000L, 1e-6, 1000, 64), // 64 generations of 6.0e9 bits
        new Shape(1, Double.MIN_VALUE, 1000, 2)); // p ÷ G rounds to 0, so p_g = 0 and m_opt = +∞
    for (Shape r : refused) {
      assertThat(documented(r.n(), r.p(), r.w(), r.g())).as("%s", r).isNull();
      assertThat(library(r.n(), r.p(), r.w(), r.g())).as("%s", r).isNull();
    }
  }

  /** The document's table lists exactly {@link #ROWS}. */
  @Test
  void theDocumentsTableIsTheseRows() throws Exception {
    List<String> lines = FormatDocTest.doc("FORMAT.md").lines().toList();
    int header = lines.indexOf("| n | p | W (ms) | G | s (ms) | n_slot | m | k |");
    assertThat(header).as("the table's header line in FORMAT.md").isNotNegative();
    List<Row> table = new ArrayList<>();
    for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      List<String> c = new ArrayList<>();
      for (Matcher cell = CELL.matcher(lines.get(i)); cell.find(); ) {
        c.add(cell.group().trim());
      }
      assertThat(c).as("cells of '%s'", lines.get(i)).hasSize(8);
      table.add(new Row(Long.parseLong(c.get(0)), Double.parseDouble(c.get(1)), Long.parseLong(c.get(2)),
          Integer.parseInt(c.get(3)), Long.parseLong(c.get(4)), Long.parseLong(c.get(5)), Long.parseLong(c.get(6)),
          Long.parseLong(c.get(7))));
    }
    assertThat(table).isEqualTo(ROWS);
  }
}
