package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Mutation fuzzing of the reader: every mutant of a valid file must either load into a filter that keeps
 * the invariants, or fail with an IOException. Anything else (another exception, an OutOfMemoryError,
 * a filter that forgets the items of the unmutated file although its bytes are unchanged) fails the test.
 * Half the mutants get their CRC recomputed so that the header and payload checks behind it are reached.
 * The valid files are standard and blocked filters of every hash strategy they take: 1 and 4, 2 and 5.
 */
class FilterFormatFuzzTest {
  private static final int CASES = 20_000;
  private static final String[] ITEMS = {"alpha", "beta", "gamma", "delta", "epsilon"};

  /** The fuzzed files: a standard and a blocked filter of the five items in each of their strategies. */
  static byte[][] seeds() throws IOException {
    HashStrategy[] strategies = {HashStrategy.MURMUR3_128_ENHANCED_DOUBLE, HashStrategy.XXH3_64_ENHANCED_DOUBLE,
        HashStrategy.MURMUR3_128_BLOCKED, HashStrategy.XXH3_64_BLOCKED, HashStrategy.XXH3_64_WORD_PAIR};
    byte[][] seeds = new byte[strategies.length][];
    for (int s = 0; s < strategies.length; s++) {
      BloomFilter.Builder<CharSequence> b = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(100)
          .fpp(0.01).hashStrategy(strategies[s]);
      BloomFilter<CharSequence> original = (s < 2 ? b : b.blocked()).build();
      for (String item : ITEMS) {
        original.add(item);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      original.writeTo(out);
      seeds[s] = out.toByteArray();
      assertThat(seeds[s][6]).isEqualTo((byte) strategies[s].id());
    }
    return seeds;
  }

  @Test
  void everyMutantLoadsSoundlyOrThrowsIOException() throws IOException {
    byte[][] seeds = seeds();
    SplittableRandom random = new SplittableRandom(42);
    int loaded = 0;
    int rejected = 0;
    for (int i = 0; i < CASES; i++) {
      byte[] valid = seeds[i % seeds.length];
      byte[] mutant = mutate(valid, random);
      if (random.nextBoolean() && mutant.length >= FilterFormat.HEADER_BYTES + 4) {
        FilterFormatRejectionTest.withFixedCrc(mutant);
      }
      BloomFilter<CharSequence> f;
      try {
        f = BloomFilter.readFrom(new ByteArrayInputStream(mutant), Funnels.stringFunnel());
      } catch (IOException expected) {
        rejected++;
        continue;
      } catch (RuntimeException | Error e) {
        fail("case " + i + " threw " + e + " for " + java.util.HexFormat.of().formatHex(mutant));
        return;
      }
      loaded++;
      checkInvariants(f, mutant, valid);
    }
    assertThat(loaded + rejected).isEqualTo(CASES);
    assertThat(rejected).isGreaterThan(CASES / 2);
  }

  private static void checkInvariants(BloomFilter<CharSequence> f, byte[] mutant, byte[] valid) throws IOException {
    assertThat(f.bitSize()).isBetween(1L, Sizing.MAX_BITS);
    assertThat(f.hashFunctions()).isBetween(1, Sizing.MAX_HASH_FUNCTIONS);
    assertThat(f.fillRatio()).isBetween(0.0, 1.0);
    assertThat(f.count()).isNotNegative();
    f.mightContain("anything"); // must not throw for any accepted shape
    f.add("new item");
    assertThat(f.mightContain("new item")).isTrue();
    // A file that loads is exactly what its bytes say: writing it back reproduces them (bytes after
    // the filter's CRC belong to whatever follows it in the stream).
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    BloomFilter.readFrom(new ByteArrayInputStream(mutant), Funnels.stringFunnel()).writeTo(again);
    byte[] rewritten = again.toByteArray();
    assertThat(rewritten.length).isLessThanOrEqualTo(mutant.length);
    assertThat(Arrays.copyOf(mutant, rewritten.length)).isEqualTo(rewritten);
    // If the mutation left the payload, the type, the hash strategy and the shape intact, the original
    // items are still there. (A type 1 file whose strategy byte went from 1 to 4 or back loads too, but
    // its bits then answer for the other hash.)
    if (Arrays.equals(mutant, 5, 20, valid, 5, 20)
        && Arrays.equals(mutant, 52, mutant.length - 4, valid, 52, valid.length - 4)) {
      for (String item : ITEMS) {
        assertThat(f.mightContain(item)).isTrue();
      }
    }
  }

  /**
   * A random mutant: flipped bits, a random byte, a truncation, appended garbage, a boundary value in
   * one of the long fields at offsets 8 to 44 or in the int at 16, a deleted byte, or another hash
   * strategy (0 to 6, so that the other admitted strategy of the type is tried as well as refused ones).
   */
  static byte[] mutate(byte[] valid, SplittableRandom random) {
    byte[] b = valid.clone();
    switch (random.nextInt(8)) {
      case 0: // flip 1..4 random bits
        for (int j = 1 + random.nextInt(4); j > 0; j--) {
          int bit = random.nextInt(b.length * 8);
          b[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        return b;
      case 1: // random byte
        b[random.nextInt(b.length)] = (byte) random.nextInt(256);
        return b;
      case 2: // truncate
        return Arrays.copyOf(b, random.nextInt(b.length));
      case 3: // append garbage (the reader must ignore what follows the filter)
        byte[] longer = Arrays.copyOf(b, b.length + 1 + random.nextInt(16));
        return longer;
      case 4: // a boundary value in a header field
        long[] values = {0, 1, -1, 63, 64, 65, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE,
            Sizing.MAX_BITS, Sizing.MAX_BITS + 1, 1L << 32, 1L << 40};
        long v = values[random.nextInt(values.length)];
        int[] longFields = {8, 20, 28, 36, 44};
        ByteBuffer.wrap(b).putLong(longFields[random.nextInt(longFields.length)], v);
        return b;
      case 5: // k field
        ByteBuffer.wrap(b).putInt(16, random.nextInt(-5, 5000));
        return b;
      case 6: // the hash strategy byte
        b[6] = (byte) random.nextInt(7);
        return b;
      default: // delete a byte
        int at = random.nextInt(b.length);
        byte[] shorter = new byte[b.length - 1];
        System.arraycopy(b, 0, shorter, 0, at);
        System.arraycopy(b, at + 1, shorter, at, b.length - at - 1);
        return shorter;
    }
  }
}
