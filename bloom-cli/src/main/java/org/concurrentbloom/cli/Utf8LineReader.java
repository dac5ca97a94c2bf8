package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads lines of strict UTF-8 from a byte stream, splitting on LF and dropping a CR before it. A UTF-8
 * byte-order mark (EF BB BF) at the very start of the stream is dropped: editors on Windows write one,
 * and kept it would silently become part of the first key, which then never matches. Each line
 * is decoded on its own, so invalid bytes are reported with the number of the line that holds them
 * (a buffered {@code Reader} decodes ahead and would blame an earlier line). Memory use is one read
 * buffer plus the longest line.
 */
final class Utf8LineReader {
  private static final int BUFFER_BYTES = 1 << 16;

  private final InputStream in;
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT)
      .onUnmappableCharacter(CodingErrorAction.REPORT);
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private int position;
  private int limit;
  private byte[] line = new byte[256];
  private long lineNumber;

  Utf8LineReader(InputStream in) {
    this.in = in;
  }

  /** The number of the line last returned by {@link #readLine()}, counting from 1. */
  long lineNumber() {
    return lineNumber;
  }

  /**
   * The next line without its terminator, or null at the end of the input. A last line without a
   * terminator is returned too.
   *
   * @throws CharacterCodingException if the line is not valid UTF-8; {@link #lineNumber()} is its number
   */
  String readLine() throws IOException {
    int length = 0;
    boolean sawAny = false;
    while (true) {
      if (position == limit) {
        limit = in.read(buffer, 0, buffer.length);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          if (!sawAny) {
            return null;
          }
          break;
        }
      }
      sawAny = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      length = append(length, start, position - start);
      if (position < limit) {
        position++; // skip the LF
        break;
      }
    }
    lineNumber++;
    if (length > 0 && line[length - 1] == '\r') {
      length--;
    }
    int from = 0;
    if (lineNumber == 1 && length >= 3 && line[0] == (byte) 0xEF && line[1] == (byte) 0xBB && line[2] == (byte) 0xBF) {
      from = 3;
    }
    return decoder.decode(ByteBuffer.wrap(line, from, length - from)).toString();
  }

  private int append(int length, int from, int count) {
    if (length + count > line.length) {
      line = Arrays.copyOf(line, Math.max(length + count, 2 * line.length));
    }
    System.arraycopy(buffer, from, line, length, count);
    return length + count;
  }
}
