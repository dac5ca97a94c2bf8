package org.concurrentbloom.guard;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;

/**
 * The child process of {@link SnapshotKillTest}: writes snapshot 1, 2, 3, ... to a {@link FileSnapshotStore}
 * and stops at three points of each write to report on standard output and wait for "go" on standard
 * input: {@code mid i} (half the bytes are in the temporary file), {@code rename i} (the temporary file
 * is complete and forced, the rename is next), {@code done i} (the write returned). The parent kills it
 * at one of those points.
 */
public final class SnapshotWriterChild {
  static final int KEYS_PER_SNAPSHOT = 5_000;

  private SnapshotWriterChild() {}

  /** Snapshot {@code i}: keys k-0 .. k-(i * 5000 - 1) in a filter for 100,000 at 1%, watermark i. */
  static byte[] snapshot(int i) throws IOException {
    BloomFilter<CharSequence> filter = BloomFilter.create(Funnels.stringFunnel(), 100_000, 0.01);
    for (int k = 0; k < i * KEYS_PER_SNAPSHOT; k++) {
      filter.add("k-" + k);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SnapshotCodec.write(bytes, "kill-test", 100_000, 0.01, OptionalLong.of(i), 0, filter);
    return bytes.toByteArray();
  }

  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    FileSnapshotStore store = new FileSnapshotStore(Path.of(args[0]));
    for (int i = 1; ; i++) {
      int iteration = i;
      byte[] bytes = snapshot(i);
      store.beforeRename = () -> handshake(in, "rename " + iteration);
      store.write(out -> {
        out.write(bytes, 0, bytes.length / 2);
        out.flush(); // into the file, so a kill leaves a torn temporary file
        handshake(in, "mid " + iteration);
        out.write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
      });
      handshake(in, "done " + iteration);
    }
  }

  private static void handshake(BufferedReader in, String point) {
    System.out.println(point);
    System.out.flush();
    try {
      if (!"go".equals(in.readLine())) {
        System.exit(3);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
