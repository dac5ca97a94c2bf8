package org.concurrentbloom.guard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Where a {@link MembershipGuard} keeps the snapshot it restarts from: one slot holding the bytes of the
 * latest snapshot. The guard encodes and checks the bytes itself (docs/GUARD.md, "Snapshot format"); a
 * store only has to keep them and replace them atomically. {@link FileSnapshotStore} keeps them in a
 * file; a store over a blob service or a database row works the same way.
 *
 * <p>The guard calls {@link #write} from its rebuild thread and from {@code close()}, and {@link #read}
 * once at start, never two calls at once; a store shared between processes must arrange its own safety.
 */
public interface SnapshotStore {

  /** Writes a snapshot's bytes to a stream. Need not close it. */
  @FunctionalInterface
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * Replaces the stored snapshot with the bytes {@code content} writes. Atomic: a later {@link #read},
   * even after a crash at any point of this call, sees the previous snapshot or the new one in full,
   * never a mix or a prefix.
   *
   * @throws IOException if the snapshot could not be written; the previous one is then still stored
   */
  void write(Content content) throws IOException;

  /**
   * Opens the stored snapshot, or returns empty if there is none. The caller closes the stream.
   *
   * @throws IOException if a snapshot exists but cannot be opened
   */
  Optional<InputStream> read() throws IOException;
}
