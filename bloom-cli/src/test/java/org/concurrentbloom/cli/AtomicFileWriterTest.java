package org.concurrentbloom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileWriterTest {
  @TempDir
  Path dir;

  @Test
  void writesANewFile() throws IOException {
    Path target = dir.resolve("new.bin");
    AtomicFileWriter.write(target, out -> out.write("hello".getBytes(StandardCharsets.US_ASCII)));
    assertThat(target).hasContent("hello");
    AddTest.assertNoTemporaryFilesIn(dir);
  }

  @Test
  void replacesAnExistingFileKeepingItsPermissions() throws IOException {
    Path target = dir.resolve("old.bin");
    Files.writeString(target, "old content");
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r-----"));

    AtomicFileWriter.write(target, out -> out.write("new".getBytes(StandardCharsets.US_ASCII)));

    assertThat(target).hasContent("new");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-r-----");
    AddTest.assertNoTemporaryFilesIn(dir);
  }

  @Test
  void aFailureLeavesTheTargetUnchangedAndRemovesTheTemporaryFile() throws IOException {
    Path target = dir.resolve("keep.bin");
    Files.writeString(target, "precious");

    assertThatThrownBy(() -> AtomicFileWriter.write(target, out -> {
      out.write(new byte[100_000]);
      throw new IOException("disk on fire");
    })).hasMessage("disk on fire");

    assertThat(target).hasContent("precious");
    AddTest.assertNoTemporaryFilesIn(dir);
  }

  @Test
  void writesThroughASymbolicLink() throws IOException {
    Path real = dir.resolve("real.bin");
    Files.writeString(real, "before");
    Path link = dir.resolve("link.bin");
    Files.createSymbolicLink(link, real);

    Destination dest = Destination.of(link);
    assertThat(dest.path()).isEqualTo(real.toRealPath());
    AtomicFileWriter.write(dest.path(), out -> out.write("after".getBytes(StandardCharsets.US_ASCII)));

    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(real).hasContent("after");
  }

  @Test
  void refusesToReplaceADirectory() throws IOException {
    Path sub = Files.createDirectory(dir.resolve("sub"));
    assertThatThrownBy(() -> Destination.of(sub))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is a directory");
    assertThat(sub).isDirectory();
  }
}
