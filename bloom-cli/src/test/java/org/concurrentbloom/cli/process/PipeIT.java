package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader that closes the pipe stops {@code bloom} at once. Before the fix, writes into the closed pipe
 * failed silently inside PrintWriter and {@code bloom query F --input 10M.txt | head -2} ran for ten
 * minutes; here the input is endless, so without the fix the pipeline never ends and the shell's
 * timeout fails the test.
 */
class PipeIT {
  @TempDir
  Path dir;

  @Test
  void aClosedPipeStopsAQueryPromptly() {
    Bloom.run("create", "-n", "1000", "-p", "0.01", "-o", dir.resolve("f.bloom").toString()).ok();
    // yes(1) writes forever; only a bloom that stops on EPIPE lets the pipeline end within the timeout.
    Bloom.Result r = Bloom.shell(dir, "timeout 60 bash -o pipefail -c 'yes key | \"$BLOOM\" query f.bloom "
        + "--input - | head -n 2'; echo \"status=$?\"");
    assertThat(r.outLines()).containsExactly("key\tno", "key\tno", "status=141");
    assertThat(r.stderr()).isEmpty();
  }

  @Test
  void aClosedPipeStopsAbsentOnlyOutputToo() {
    Bloom.run("create", "-n", "1000", "-p", "0.01", "-o", dir.resolve("f.bloom").toString()).ok();
    Bloom.Result r = Bloom.shell(dir, "timeout 60 bash -c 'seq 1 1000000000 | \"$BLOOM\" query f.bloom --absent "
        + "--input - | head -n 1'; echo \"status=$?\"");
    assertThat(r.outLines()).containsExactly("1", "status=0");
  }
}
