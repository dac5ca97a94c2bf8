package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filter larger than the heap is refused before anything is allocated, in one line that names the
 * size and BLOOM_JAVA_OPTS. Before the fix {@code create --expected 10000000000 --fpp 0.01} (11.2 GiB)
 * ended in an OutOfMemoryError stack trace.
 */
class MemoryIT {
  @TempDir
  Path dir;

  @Test
  void aFilterLargerThanTheHeapIsRefusedInOneLine() {
    for (String type : new String[] {"--blocked", "--counting", "--guava"}) {
      Path out = dir.resolve("huge.bloom");
      ProcessBuilder pb = Bloom.command("create", "--expected", "10000000000", "--fpp", "0.01", type, "-o",
          out.toString());
      pb.environment().put("BLOOM_JAVA_OPTS", "-Xmx256m");
      Bloom.Result r = Bloom.run(pb, new byte[0]);
      assertThat(r.exitCode()).as(type).isEqualTo(1);
      assertThat(r.stderr().lines()).as(type).singleElement().asString()
          .startsWith("bloom: error: a ")
          .contains("filter for 10,000,000,000 keys at fpp 0.01 needs ")
          .contains("GiB of memory, but this JVM may use at most 256.00 MiB")
          .contains("BLOOM_JAVA_OPTS=-Xmx");
      assertThat(out).doesNotExist();
    }
  }

  /** The standard layout's size, exactly: m = 95,850,584,640 bits = 11.16 GiB. */
  @Test
  void theMessageNamesTheSizeNeeded() {
    ProcessBuilder pb = Bloom.command("create", "--expected", "10000000000", "--fpp", "0.01", "-o",
        dir.resolve("huge.bloom").toString());
    pb.environment().put("BLOOM_JAVA_OPTS", "-Xmx256m");
    Bloom.Result r = Bloom.run(pb, new byte[0]);
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr()).contains("needs 11.16 GiB of memory").containsPattern("BLOOM_JAVA_OPTS=-Xmx1[4-6]g ");
  }
}
