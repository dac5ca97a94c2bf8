package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command on every filter type, through the launcher: what each type supports works, and what it
 * cannot support is refused with the reason. Before the fix only {@code info} read counting and scalable
 * files, and add and query told a command-line user to call {@code CountingBloomFilter.readFrom}.
 */
class EveryTypeIT {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"standard", "blocked", "guava", "counting", "scalable"})
  void createAddQueryInfoMergeRemoveExport(String type) throws IOException {
    List<String> first = Bloom.keys("a", 3_000);
    List<String> second = Bloom.keys("b", 3_000);
    List<String> never = Bloom.keys("never", 3_000);
    Path firstKeys = Bloom.keysFile(dir.resolve("first.txt"), first);
    Path secondKeys = Bloom.keysFile(dir.resolve("second.txt"), second);
    Path neverKeys = Bloom.keysFile(dir.resolve("never.txt"), never);
    String[] typeOption = type.equals("standard") ? new String[0] : new String[] {"--" + type};
    Path f = dir.resolve(type + ".bloom");

    Bloom.run(concat(new String[] {"create", "-n", type.equals("scalable") ? "1000" : "10000", "-p", "0.01",
        "-o", f.toString(), "--input", firstKeys.toString()}, typeOption)).ok();
    Bloom.run("add", f.toString(), "--input", secondKeys.toString()).ok();
    assertThat(Bloom.absent(f, firstKeys)).isEmpty();
    assertThat(Bloom.absent(f, secondKeys)).isEmpty();
    int falsePositives = never.size() - Bloom.absent(f, neverKeys).size();
    assertThat(falsePositives).as("false positives of 3,000 at p = 1%%: mean 30").isLessThan(75);
    assertThat(Bloom.run("query", "--quiet", f.toString(), first.get(0)).exitCode()).isZero();
    assertThat(Bloom.run("query", "-q", f.toString(), "--input", neverKeys.toString()).exitCode()).isEqualTo(1);

    String info = Bloom.run("info", f.toString()).ok().out();
    assertThat(info).contains("type:").contains(type.equals("guava") ? "Guava-compatible" : type)
        .contains("key type:               UTF-8 strings").contains("format:                 version 2");

    Path merged = dir.resolve(type + "-merged.bloom");
    Bloom.Result merge = Bloom.run("merge", "-o", merged.toString(), f.toString(), f.toString());
    if (type.equals("scalable")) {
      assertThat(merge.exitCode()).isEqualTo(1);
      assertThat(merge.stderr()).contains("scalable filters cannot be merged");
    } else {
      merge.ok();
      assertThat(Bloom.absent(merged, firstKeys)).isEmpty();
    }

    Bloom.Result remove = Bloom.run("remove", f.toString(), first.get(0), "never-removed@example.com");
    if (type.equals("counting")) {
      assertThat(remove.ok().outLines()).first().isEqualTo("never-removed@example.com\tabsent");
      assertThat(Bloom.run("query", f.toString(), first.get(0)).ok().out()).endsWith("\tno\n");
      assertThat(Bloom.absent(f, secondKeys)).isEmpty();
    } else {
      assertThat(remove.exitCode()).isEqualTo(1);
      assertThat(remove.stderr()).contains("only counting filters");
    }

    Path exported = dir.resolve(type + ".guava");
    Bloom.Result export = Bloom.run("export", "--guava", f.toString(), "-o", exported.toString());
    if (type.equals("guava")) {
      export.ok();
      Path imported = dir.resolve("imported.bloom");
      Bloom.run("import", "--guava", exported.toString(), "-o", imported.toString()).ok();
      assertThat(Bloom.absent(imported, secondKeys)).isEmpty();
      assertThat(Bloom.absent(imported, neverKeys)).isEqualTo(Bloom.absent(f, neverKeys));
    } else {
      assertThat(export.exitCode()).isEqualTo(1);
      assertThat(export.stderr()).contains("only a Guava-compatible filter");
    }
  }

  /** Filters of different types or shapes are not merged, and the message names what differs. */
  @Test
  void mergeNamesTheLayoutsThatDiffer() {
    Path standard = dir.resolve("s.bloom");
    Path blocked = dir.resolve("b.bloom");
    Bloom.run("create", "-n", "1000", "-p", "0.01", "-o", standard.toString()).ok();
    Bloom.run("create", "-n", "1000", "-p", "0.01", "--blocked", "-o", blocked.toString()).ok();
    Bloom.Result r = Bloom.run("merge", "-o", dir.resolve("m.bloom").toString(), standard.toString(),
        blocked.toString());
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr()).contains(blocked + " is a blocked filter and " + standard + " is a standard filter");
  }

  /** The filter Guava reads is byte for byte a Guava file: it imports back to the same answers. */
  @Test
  void aNonGuavaFileGetsAPointerToImport() throws IOException {
    Path f = dir.resolve("g.bloom");
    Bloom.run("create", "-n", "1000", "-p", "0.01", "--guava", "-o", f.toString()).ok();
    Path guava = dir.resolve("g.guava");
    Bloom.run("export", "--guava", f.toString(), "-o", guava.toString()).ok();
    Bloom.Result r = Bloom.run("query", guava.toString(), "x");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr()).contains("written by Guava's BloomFilter.writeTo").contains("bloom import --guava");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
