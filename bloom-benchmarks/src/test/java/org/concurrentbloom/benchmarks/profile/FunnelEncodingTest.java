package org.concurrentbloom.benchmarks.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.concurrentbloom.benchmarks.Keys;
import org.junit.jupiter.api.Test;

class FunnelEncodingTest {
  private final FunnelEncoding encoding = new FunnelEncoding();

  private byte[] encoded(String s) {
    int len = encoding.encode(s);
    return Arrays.copyOf(encoding.buffer(), len);
  }

  @Test
  void asciiKeysAreTheirChars() {
    for (long i = 0; i < 1_000; i++) {
      String key = Keys.email(i);
      assertThat(encoded(key)).isEqualTo(key.getBytes(StandardCharsets.US_ASCII));
    }
  }

  @Test
  void theWorkedExamplesOfHashingMd() {
    assertThat(encoded("a\u00e9\u20ac\ud83d\ude00\ud83dz\ude00"))
        .isEqualTo(new byte[] {0x61, (byte) 0xc3, (byte) 0xa9, (byte) 0xe2, (byte) 0x82, (byte) 0xac,
            (byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80, 0x3f, 0x7a, 0x3f});
    assertThat(encoded("Gr\u00fc\u00dfe aus Z\u00fcrich")).hasSize(19);
  }

  @Test
  void randomStringsEncodeAsStringGetBytesUtf8() {
    SplittableRandom random = new SplittableRandom(14);
    char[] alphabet = {'a', 'Z', '0', '\u007f', '\u0080', '\u00e9', '\u07ff', '\u0800', '\u20ac', '\uffff',
        '\ud800', '\udbff', '\udc00', '\udfff'};
    for (int round = 0; round < 20_000; round++) {
      char[] chars = new char[random.nextInt(0, 200)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] = random.nextBoolean() ? alphabet[random.nextInt(alphabet.length)] : (char) random.nextInt(0x10000);
      }
      String s = new String(chars);
      assertThat(encoded(s)).as("round %d", round).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
    }
  }
}
