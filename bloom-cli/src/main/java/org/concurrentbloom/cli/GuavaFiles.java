package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.GuavaInterop;

/**
 * Files written by Guava's {@code BloomFilter.writeTo}: {@code bloom import --guava} converts them and
 * {@code bloom query --guava} answers from them as they are. Guava's bytes record neither a magic nor
 * the funnel, so the user says what the funnel was ({@code --key-type}).
 */
final class GuavaFiles {
  private GuavaFiles() {}

  /**
   * The filter in the Guava file {@code path} ({@code -} for standard input), of either of Guava's
   * strategies, hashing keys as {@code codec}: it answers exactly as Guava's {@code mightContain} with the
   * matching funnel.
   *
   * @param instead what to do when the file is a concurrent-bloom filter file instead, for the message
   * @throws CliException if the file cannot be read, is not Guava's, or does not fit in the heap
   */
  static FilterFile load(Path path, CliStreams io, KeyCodec codec, String instead) throws CliException {
    try (FilterInput input = FilterInput.open(path, io)) {
      if (input.size > 0) {
        MemoryCheck.require((long) (1.5 * input.size), "loading " + input.name);
      }
      BloomFilter<Object> filter =
          input.readWhole(stream -> GuavaInterop.readFrom(notOurs(stream, instead), codec.funnel()));
      return new FilterFile(FilterType.GUAVA, codec, codec.keyType, filter, input.bytesRead());
    }
  }

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
