package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several {@code bloom} processes updating one file at once lose no key they reported added. Before
 * the update lock, each run loaded the file, added its keys and renamed its own copy over it, so the
 * last rename won: two runs of 500k keys lost almost all of one run's keys, and of 8 single-key adds 7.
 */
class ConcurrentUpdateIT {
  private static final int PROCESSES = 4;
  private static final int KEYS_PER_PROCESS = 30_000;
  private static final int SINGLE_KEY_ADDS = 8;

  @TempDir
  Path dir;

  @Test
  void concurrentAddsAndMergesLoseNoKey() throws Exception {
    Path filter = dir.resolve("shared.bloom");
    Bloom.run("create", "-n", "300000", "-p", "0.01", "-o", filter.toString()).ok();
    // A second filter of the same shape, merged in while the adds run.
    Path other = dir.resolve("other.bloom");
    Path otherKeys = Bloom.keysFile(dir.resolve("other.txt"), Bloom.keys("merged-", 5_000));
    Bloom.run("create", "-n", "300000", "-p", "0.01", "-o", other.toString(), "--input", otherKeys.toString()).ok();

    List<CompletableFuture<Bloom.Result>> runs = new ArrayList<>();
    List<Path> inputs = new ArrayList<>();
    for (int p = 0; p < PROCESSES; p++) {
      Path keys = Bloom.keysFile(dir.resolve("keys-" + p + ".txt"), Bloom.keys("p" + p + "-", KEYS_PER_PROCESS));
      inputs.add(keys);
      runs.add(async("add", filter.toString(), "--input", keys.toString()));
    }
    List<String> single = new ArrayList<>();
    for (int i = 0; i < SINGLE_KEY_ADDS; i++) {
      single.add("single-" + i + "@example.com");
      runs.add(async("add", filter.toString(), single.get(i)));
    }
    runs.add(async("merge", "-o", filter.toString(), filter.toString(), other.toString()));

    for (CompletableFuture<Bloom.Result> run : runs) {
      Bloom.Result r = run.join();
      assertThat(r.exitCode()).as("stderr: %s", r.stderr()).isZero();
    }

    for (Path keys : inputs) {
      assertThat(Bloom.absent(filter, keys)).as("keys of %s answered no", keys.getFileName()).isEmpty();
    }
    assertThat(Bloom.absent(filter, Bloom.keysFile(dir.resolve("single.txt"), single))).isEmpty();
    assertThat(Bloom.absent(filter, otherKeys)).isEmpty();
    // No temporary copy is left behind; the lock file stays (it is never removed, by design).
    try (var files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(name -> name.endsWith(".bloom.tmp"));
    }
  }

  private static CompletableFuture<Bloom.Result> async(String... args) {
    ProcessBuilder pb = Bloom.command(args);
    return CompletableFuture.supplyAsync(() -> Bloom.run(pb, new byte[0]),
        runnable -> new Thread(runnable, "bloom " + args[0]).start());
  }
}
