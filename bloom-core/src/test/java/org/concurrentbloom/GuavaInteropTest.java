package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Against the real Guava: identical answers both ways, and byte-identical files for the same inserts. */
class GuavaInteropTest {
  private static final int INSERTED = 100_000;
  private static final int PROBES = 1_000_000;

  private static com.google.common.hash.BloomFilter<CharSequence> guavaStrings(long n, double p) {
    return com.google.common.hash.BloomFilter.create(
        com.google.common.hash.Funnels.stringFunnel(StandardCharsets.UTF_8), n, p);
  }

  private static byte[] guavaBytes(com.google.common.hash.BloomFilter<?> g) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.writeTo(out);
    return out.toByteArray();
  }

  @Test
  void aFilterReadFromGuavaBytesAnswersExactlyAsGuava() throws IOException {
    var guava = guavaStrings(INSERTED, 0.01);
    for (int i = 0; i < INSERTED; i++) {
      guava.put(FalsePositiveRateTest.insertedKey(i));
    }
    BloomFilter<CharSequence> ours = GuavaInterop.readFrom(new ByteArrayInputStream(guavaBytes(guava)),
        Funnels.stringFunnel());
    assertThat(ours.filterType()).isEqualTo(FilterType.GUAVA);
    for (int i = 0; i < INSERTED; i++) {
      assertThat(ours.mightContain(FalsePositiveRateTest.insertedKey(i))).isTrue();
    }
    int disagreements = 0;
    int falsePositives = 0;
    for (int i = 0; i < PROBES; i++) {
      String probe = FalsePositiveRateTest.absentKey(i);
      boolean answer = ours.mightContain(probe);
      if (answer != guava.mightContain(probe)) {
        disagreements++;
      }
      if (answer) {
        falsePositives++;
      }
    }
    assertThat(disagreements).isZero();
    assertThat(falsePositives).isPositive(); // the probes do reach set bits, so agreement means something
    assertThat((double) ours.approximateElementCount()).isCloseTo(guava.approximateElementCount(),
        org.assertj.core.api.Assertions.within(1.0));
  }

  @ParameterizedTest
  @CsvSource({"100000, 0.01", "1000, 0.1", "5000, 0.0001", "1, 0.5"})
  void guavaCompatibleFiltersAreByteIdenticalToGuavasAndGuavaReadsThem(long n, double p) throws IOException {
    var guava = guavaStrings(n, p);
    BloomFilter<CharSequence> ours = BloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .expectedInsertions(n).fpp(p).guavaCompatible().build();
    for (int i = 0; i < n; i++) {
      guava.put(FalsePositiveRateTest.insertedKey(i));
      ours.add(FalsePositiveRateTest.insertedKey(i));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    GuavaInterop.writeTo(ours, out);
    assertThat(out.toByteArray()).isEqualTo(guavaBytes(guava));
    var reloaded = com.google.common.hash.BloomFilter.readFrom(new ByteArrayInputStream(out.toByteArray()),
        com.google.common.hash.Funnels.stringFunnel(StandardCharsets.UTF_8));
    for (int i = 0; i < 10_000; i++) {
      String probe = FalsePositiveRateTest.absentKey(i);
      assertThat(reloaded.mightContain(probe)).isEqualTo(ours.mightContain(probe));
    }
  }

  @Test
  void longKeysAgreeWithGuavasLongFunnel() throws IOException {
    var guava = com.google.common.hash.BloomFilter.create(com.google.common.hash.Funnels.longFunnel(), 10_000, 0.02);
    for (long i = 0; i < 10_000; i++) {
      guava.put(i * 31);
    }
    BloomFilter<Long> ours = GuavaInterop.readFrom(new ByteArrayInputStream(guavaBytes(guava)), Funnels.longFunnel());
    for (long i = 0; i < 200_000; i++) {
      assertThat(ours.mightContain(i)).isEqualTo(guava.mightContain(i));
    }
  }

  @Test
  void otherLayoutsCannotBeWrittenForGuava() {
    BloomFilter<CharSequence> standard = BloomFilter.create(Funnels.stringFunnel(), 100, 0.01);
    assertThatThrownBy(() -> GuavaInterop.writeTo(standard, new ByteArrayOutputStream()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("layout=standard");
  }

  @Test
  void corruptGuavaHeadersAreRejected() throws IOException {
    var guava = guavaStrings(1000, 0.01);
    byte[] valid = guavaBytes(guava);
    byte[] ordinal = valid.clone();
    ordinal[0] = 2; // 0 is MURMUR128_MITZ_32, which loads (GuavaContractTest)
    assertThatThrownBy(() -> GuavaInterop.readFrom(new ByteArrayInputStream(ordinal), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("strategy ordinal 2");
    byte[] hostile = valid.clone();
    ByteBuffer.wrap(hostile).putInt(2, Integer.MAX_VALUE - 8); // claims 16 GiB, holds ~1 KiB
    assertThatThrownBy(() -> GuavaInterop.readFrom(new ByteArrayInputStream(hostile), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("truncated");
    byte[] negative = valid.clone();
    ByteBuffer.wrap(negative).putInt(2, -1);
    assertThatThrownBy(() -> GuavaInterop.readFrom(new ByteArrayInputStream(negative), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("was -1");
    byte[] zeroK = valid.clone();
    zeroK[1] = 0;
    assertThatThrownBy(() -> GuavaInterop.readFrom(new ByteArrayInputStream(zeroK), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("was 0");
    byte[] cut = Arrays.copyOf(valid, valid.length - 3);
    assertThatThrownBy(() -> GuavaInterop.readFrom(new ByteArrayInputStream(cut), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("truncated");
  }

  @Test
  void guavaLayoutRoundTripsThroughOurOwnFormat() throws IOException {
    BloomFilter<CharSequence> ours = BloomFilter.<CharSequence>builder(Funnels.stringFunnel())
        .expectedInsertions(1000).fpp(0.01).guavaCompatible().build();
    ours.add("kept");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ours.writeTo(out);
    BloomFilter<CharSequence> back = BloomFilter.readFrom(new ByteArrayInputStream(out.toByteArray()),
        Funnels.stringFunnel());
    assertThat(back.filterType()).isEqualTo(FilterType.GUAVA);
    assertThat(back.mightContain("kept")).isTrue();
    assertThat(back.isCompatible(ours)).isTrue();
  }
}
