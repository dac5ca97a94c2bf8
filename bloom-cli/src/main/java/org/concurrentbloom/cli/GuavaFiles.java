package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;

/**
 * Files written by Guava's {@code BloomFilter.writeTo}, which {@code bloom import --guava} converts.
 * Guava's bytes record neither a magic nor the funnel, so the user says what the funnel was
 * ({@code --key-type}).
 */
final class GuavaFiles {
  private GuavaFiles() {}

  /**
   * {@code stream}, unread, unless it starts like a concurrent-bloom filter file (magic "CBLM"), which
   * Guava's reader would call one of an unknown strategy ordinal (67, the 'C').
   *
   * @param instead what to do with such a file, the end of the message
   * @throws IOException if it is one, saying so, or if reading fails
   */
  static InputStream notOurs(InputStream stream, String instead) throws IOException {
    PushbackInputStream in = new PushbackInputStream(stream, 4);
    byte[] head = in.readNBytes(4);
    if (head.length == 4 && ByteBuffer.wrap(head).getInt() == FileHeader.MAGIC) {
      throw new IOException("it is already a concurrent-bloom filter file (it starts with CBLM), not one written "
          + "by Guava: " + instead);
    }
    in.unread(head);
    return in;
  }
}
