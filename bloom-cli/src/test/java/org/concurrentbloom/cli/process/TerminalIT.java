package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress bar on a real terminal: util-linux's {@code script} runs {@code bloom} on a
 * pseudo-terminal, whose width {@code stty cols} sets. Before the fix the bar was drawn only when stdin
 * and stdout were terminals (so never when results went to a file), was drawn into results printed to
 * the terminal, and was always 80 columns wide because the launcher's width probe read /dev/null.
 */
class TerminalIT {
  private static final int COLUMNS = 50;

  @TempDir
  Path dir;

  @BeforeEach
  void needsScript() throws Exception {
    assumeTrue(new ProcessBuilder("script", "--version").start().waitFor() == 0, "util-linux script");
    // 2M keys, about 40 MB: long enough to read that the bar is drawn (it starts at 1 MiB).
    Bloom.keysFile(dir.resolve("keys.txt"), Bloom.keys("k", 2_000_000));
  }

  /** Runs {@code command} (a shell command line) on a terminal of {@link #COLUMNS} columns. */
  private Bloom.Result onTerminal(String command) {
    return Bloom.shell(dir, "script -qefc \"stty cols " + COLUMNS + " rows 24; " + command.replace("\"", "\\\"")
        + "\" typescript.txt");
  }

  /** The lines the bar drew: the pieces of the terminal output that hold its block characters. */
  private static List<String> barFrames(String terminal) {
    return Arrays.stream(terminal.split("[\r\n]")).filter(s -> s.contains("%") && s.contains("MiB")).toList();
  }

  @Test
  void theBarIsDrawnOnStderrWhenResultsGoToAFileAndFitsTheTerminal() throws IOException {
    Bloom.Result r = onTerminal("\"$BLOOM\" create -n 2000000 -p 0.01 -o f.bloom --input keys.txt > summary.txt");
    List<String> frames = barFrames(r.out());
    assertThat(frames).as("bar frames in %s", r.out()).isNotEmpty();
    assertThat(frames).allSatisfy(frame -> assertThat(frame.strip().length()).isLessThan(COLUMNS));
    assertThat(Files.readString(dir.resolve("summary.txt"))).startsWith("created f.bloom: 2,000,000 keys read")
        .doesNotContain("█");
  }

  @Test
  void noBarIsDrawnIntoResultsPrintedToTheTerminal() throws IOException {
    // 80,000 keys, 1.7 MB: above the bar's threshold, few enough lines for the terminal to print.
    Bloom.keysFile(dir.resolve("some.txt"), Bloom.keys("s", 80_000));
    Bloom.run("create", "-n", "100000", "-p", "0.01", "-o", dir.resolve("f.bloom").toString()).ok();
    Bloom.Result r = onTerminal("\"$BLOOM\" query f.bloom --input some.txt");
    assertThat(r.out()).contains("s0@example.com\tno").contains("s79999@example.com\tno");
    assertThat(barFrames(r.out())).isEmpty();
  }

  @Test
  void noBarWhenStderrIsNotATerminal() {
    Bloom.Result r = onTerminal("\"$BLOOM\" create -n 2000000 -p 0.01 -o f.bloom --input keys.txt 2> err.txt");
    assertThat(barFrames(r.out())).isEmpty();
  }
}
