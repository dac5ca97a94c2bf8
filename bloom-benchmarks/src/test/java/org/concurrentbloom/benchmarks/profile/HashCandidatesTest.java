package org.concurrentbloom.benchmarks.profile;

import static org.assertj.core.api.Assertions.assertThat;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.concurrentbloom.benchmarks.Keys;
import org.junit.jupiter.api.Test;

/** What the hash candidates hash, so that docs/PROFILE.md can say which values differ from which. */
class HashCandidatesTest {
  private static final Hasher64 XXH3 = Hashing.xxh3_64();

  @Test
  void hashCharsIsTheHashOfTheUtf16LittleEndianUnitsNotOfUtf8() {
    for (long i = 0; i < 1_000; i++) {
      String key = Keys.email(i);
      long chars = XXH3.hashCharsToLong(key);
      assertThat(chars).isEqualTo(XXH3.hashBytesToLong(key.getBytes(StandardCharsets.UTF_16LE)));
      assertThat(chars).isNotEqualTo(XXH3.hashBytesToLong(key.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Test
  @SuppressWarnings("deprecation") // the copy the latin1BulkCopy benchmark measures
  void theBulkCopyIsUtf8ForAsciiKeysOnly() {
    String ascii = Keys.email(42);
    byte[] out = new byte[256];
    ascii.getBytes(0, ascii.length(), out, 0);
    assertThat(Arrays.copyOf(out, ascii.length())).isEqualTo(ascii.getBytes(StandardCharsets.UTF_8));

    String polish = "\u0141ukasz"; // U+0141 keeps only its low byte 0x41, 'A': the copy cannot tell
    polish.getBytes(0, polish.length(), out, 0);
    assertThat(out[0]).isEqualTo((byte) 'A');
  }

  @Test
  void theReplicaEncodingThenXxh3IsXxh3OfTheUtf8Bytes() {
    FunnelEncoding encoding = new FunnelEncoding();
    String key = Keys.email(7) + "\u00e9";
    int len = encoding.encode(key);
    assertThat(XXH3.hashBytesToLong(encoding.buffer(), 0, len))
        .isEqualTo(XXH3.hashBytesToLong(key.getBytes(StandardCharsets.UTF_8)));
  }
}
