package org.concurrentbloom.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read through it: how far into a key file the progress bar is, how long a filter read
 * from a stream was. Only the thread that reads uses it.
 */
final class CountingInputStream extends FilterInputStream {
  private long count;

  CountingInputStream(InputStream in) {
    super(in);
  }

  /** The bytes read (or skipped) so far. */
  long count() {
    return count;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count++;
    }
    return b;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    int n = super.read(buf, off, len);
    if (n > 0) {
      count += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = super.skip(n);
    count += skipped;
    return skipped;
  }
}
