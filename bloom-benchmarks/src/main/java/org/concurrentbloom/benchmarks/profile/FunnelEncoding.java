package org.concurrentbloom.benchmarks.profile;

/**
 * <b>A measuring replica, not the library's code.</b> The bytes {@code Funnels.stringFunnel()} hashes
 * (docs/HASHING.md, key type 1: UTF-8, an unpaired surrogate becoming {@code ?}), produced the way
 * bloom-core's package-private per-thread sink produces them, so that {@link ProfileBenchmark#encode}
 * can time the encoding step on its own: first one pass that copies every char to a byte and ORs the
 * chars together, with no branch per char; only if some char was not ASCII is the string encoded again
 * by a general UTF-8 loop. The buffer is reused and grows when a string does not fit, as the sink's does.
 *
 * <p>{@code FunnelEncodingTest} checks the output against {@code String.getBytes(UTF_8)}. One thread per
 * instance.
 */
final class FunnelEncoding {
  private byte[] buffer = new byte[64];

  /** The bytes of the last {@link #encode}: {@code buffer()[0 .. returned length)}. */
  byte[] buffer() {
    return buffer;
  }

  /** Encodes {@code s} into the buffer; returns the number of bytes written. */
  int encode(String s) {
    int n = s.length();
    if (n > buffer.length) {
      buffer = new byte[Math.max(n, 2 * buffer.length)];
    }
    byte[] out = buffer;
    int seen = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      seen |= c;
      out[i] = (byte) c;
    }
    return seen < 0x80 ? n : encodeUtf8(s);
  }

  /** The general path: code point by code point, at most 3 bytes per UTF-16 unit. */
  private int encodeUtf8(String s) {
    int n = s.length();
    if (3L * n > buffer.length) {
      buffer = new byte[Math.multiplyExact(3, n)];
    }
    byte[] out = buffer;
    int pos = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out[pos++] = (byte) c;
      } else if (c < 0x800) {
        out[pos++] = (byte) (0xC0 | (c >> 6));
        out[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (c < 0xD800 || c > 0xDFFF) {
        out[pos++] = (byte) (0xE0 | (c >> 12));
        out[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (c <= 0xDBFF && i + 1 < n && s.charAt(i + 1) >= 0xDC00 && s.charAt(i + 1) <= 0xDFFF) {
        int codePoint = 0x10000 + ((c - 0xD800) << 10) + (s.charAt(++i) - 0xDC00);
        out[pos++] = (byte) (0xF0 | (codePoint >> 18));
        out[pos++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
        out[pos++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
        out[pos++] = (byte) (0x80 | (codePoint & 0x3F));
      } else {
        out[pos++] = (byte) '?'; // unpaired surrogate
      }
    }
    return pos;
  }
}
