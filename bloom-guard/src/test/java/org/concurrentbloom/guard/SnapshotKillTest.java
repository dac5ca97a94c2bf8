package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kills a process (SIGKILL, {@link Process#destroyForcibly()}) while it writes snapshots, at chosen
 * points of a write (found by a handshake over its standard output, not by timing), and checks what a
 * restart would load: nothing, or a complete snapshot, byte for byte one that was written, and the
 * newest one that was complete (renamed) when the process died. Never a torn or mixed one.
 */
class SnapshotKillTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "kill at \"{0}\": expect snapshot {1}")
  @CsvSource({
      "mid 1,      0",   // the first write is half done: no snapshot at all
      "rename 1,   0",   // complete and forced, not renamed: still none
      "done 1,     1",
      "mid 3,      2",   // a torn temporary file beside a complete snapshot 2
      "rename 3,   2",
      "done 3,     3",
      "after mid 2, 1-2", // killed while finishing the write, racing the rename: 1 or 2, whole
  })
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aKilledWriterNeverLeavesASnapshotThatLoadsWrong(String killAt, String expected) throws Exception {
    Path file = dir.resolve("kill.snapshot");
    boolean race = killAt.startsWith("after ");
    String point = race ? killAt.substring("after ".length()) : killAt;
    Process child = new ProcessBuilder(javaCommand(), "-cp", System.getProperty("java.class.path"),
        SnapshotWriterChild.class.getName(), file.toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
      for (String line = out.readLine(); ; line = out.readLine()) {
        assertThat(line).as("the child died early").isNotNull();
        if (line.equals(point)) {
          if (race) {
            in.write("go\n");
            in.flush();
          }
          break;
        }
        in.write("go\n");
        in.flush();
      }
      child.destroyForcibly();
      child.waitFor();
    } finally {
      child.destroyForcibly();
    }

    Optional<InputStream> stored = new FileSnapshotStore(file).read();
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString()).toList())
          .as("the torn temporary file was cleaned up").allMatch(name -> name.equals("kill.snapshot"));
    }
    List<Integer> allowed = Stream.of(expected.split("-")).map(Integer::valueOf).toList();
    if (allowed.equals(List.of(0))) {
      assertThat(stored).isEmpty();
      return;
    }
    byte[] bytes;
    try (InputStream s = stored.orElseThrow()) {
      bytes = s.readAllBytes();
    }
    SnapshotCodec.Snapshot<CharSequence> loaded =
        SnapshotCodec.read(new java.io.ByteArrayInputStream(bytes), Funnels.stringFunnel());
    int version = (int) loaded.watermark().orElseThrow();
    assertThat(allowed).contains(version);
    assertThat(bytes).as("exactly the bytes of snapshot %d", version).isEqualTo(SnapshotWriterChild.snapshot(version));
    for (int k = 0; k < version * SnapshotWriterChild.KEYS_PER_SNAPSHOT; k++) {
      assertThat(loaded.filter().mightContain("k-" + k)).isTrue();
    }
  }

  private static String javaCommand() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
