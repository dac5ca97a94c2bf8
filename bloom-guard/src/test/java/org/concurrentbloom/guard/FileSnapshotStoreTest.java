package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSnapshotStoreTest {
  @TempDir
  Path dir;

  private static String read(SnapshotStore store) throws IOException {
    try (InputStream in = store.read().orElseThrow()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static void write(SnapshotStore store, String text) throws IOException {
    store.write(out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
  }

  private long files() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.count();
    }
  }

  @Test
  void emptyUntilWrittenThenHoldsTheLatestWrite() throws IOException {
    FileSnapshotStore store = new FileSnapshotStore(dir.resolve("s.snapshot"));
    assertThat(store.read()).isEmpty();
    write(store, "one");
    write(store, "two");
    assertThat(read(store)).isEqualTo("two");
    assertThat(files()).as("no temporary file left").isEqualTo(1);
  }

  @Test
  void aFailingWriteLeavesThePreviousSnapshotAndNoTemporaryFile() throws IOException {
    FileSnapshotStore store = new FileSnapshotStore(dir.resolve("s.snapshot"));
    write(store, "good");
    assertThatThrownBy(() -> store.write(out -> {
      out.write("half of a new snap".getBytes(StandardCharsets.UTF_8));
      throw new IOException("disk full");
    })).hasMessage("disk full");
    store.beforeRename = () -> {
      throw new IllegalStateException("crash just before the rename");
    };
    assertThatThrownBy(() -> write(store, "complete but never renamed")).hasMessageContaining("crash");
    assertThat(read(store)).isEqualTo("good");
    assertThat(files()).isEqualTo(1);
  }

  @Test
  void aTornTemporaryFileIsNeverReadAndIsCleanedUpByTheNextStore() throws IOException {
    Path file = dir.resolve("s.snapshot");
    write(new FileSnapshotStore(file), "good");
    // What a process killed in the middle of a write leaves: a partial temporary file beside the target.
    Path torn = dir.resolve(".s.snapshot.0b2c7a6e-dead-beef-0000-000000000000.tmp");
    Files.write(torn, "torn hal".getBytes(StandardCharsets.UTF_8));
    Path unrelated = dir.resolve(".other.snapshot.1234.tmp");
    Files.write(unrelated, new byte[] {1});
    assertThat(read(new FileSnapshotStore(file))).isEqualTo("good");
    assertThat(torn).doesNotExist();
    assertThat(unrelated).as("another store's temporary file is not ours to delete").exists();
  }

  @Test
  void aTornTemporaryFileWithNoSnapshotYetReadsAsNone() throws IOException {
    Files.write(dir.resolve(".s.snapshot.abc.tmp"), "torn".getBytes(StandardCharsets.UTF_8));
    assertThat(new FileSnapshotStore(dir.resolve("s.snapshot")).read()).isEmpty();
  }

  @Test
  void rejectsADirectory() {
    assertThatThrownBy(() -> new FileSnapshotStore(dir)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(dir.toString());
  }

  @Test
  void aFileInADirectoryThatDoesNotExistIsRefusedNamingTheDirectory() throws IOException {
    Path missing = dir.resolve("no-such-dir");
    assertThatThrownBy(() -> new FileSnapshotStore(missing.resolve("s.snapshot")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(missing.toString())
        .hasMessageContaining("does not exist");
    Path file = Files.createFile(dir.resolve("plain-file"));
    assertThatThrownBy(() -> new FileSnapshotStore(file.resolve("s.snapshot")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(file.toString());
  }
}
