package org.concurrentbloom.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * Runs the built {@code bloom} as a user does: the {@code ./bloom} launcher script in a child process,
 * on the jar Maven just packaged ({@code BLOOM_JAR}, so the launcher builds nothing). Failsafe passes the
 * paths as the system properties {@code bloom.launcher} and {@code bloom.jar}.
 */
final class Bloom {
  static final Path LAUNCHER = Path.of(System.getProperty("bloom.launcher", "../bloom")).toAbsolutePath();
  static final Path JAR = Path.of(System.getProperty("bloom.jar", "target/bloom-cli.jar")).toAbsolutePath();
  /** The longest any single command of these tests may take; far above what each needs. */
  static final long TIMEOUT_SECONDS = 120;

  private Bloom() {}

  /** What a finished process left: exit status and both output streams. */
  record Result(int exitCode, byte[] stdout, String stderr) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }

    List<String> outLines() {
      return out().lines().toList();
    }

    /** Asserts exit status 0 and nothing on standard error, and returns this. */
    Result ok() {
      assertThat(exitCode).as("exit status; stderr: %s", stderr).isZero();
      return this;
    }
  }

  /** A command line for the launcher: {@code bloom} and {@code args}. */
  static ProcessBuilder command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(LAUNCHER.toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    Map<String, String> env = pb.environment();
    env.put("BLOOM_JAR", JAR.toString());
    env.remove("BLOOM_JAVA_OPTS");
    env.remove("COLUMNS");
    return pb;
  }

  /** Runs {@code bloom args} with empty standard input and waits for it. */
  static Result run(String... args) {
    return run(command(args), new byte[0]);
  }

  /** Runs {@code bloom args} with {@code stdin} as its standard input. */
  static Result runWithInput(byte[] stdin, String... args) {
    return run(command(args), stdin);
  }

  /** Runs a prepared command, feeding it {@code stdin}, collecting both outputs, within the timeout. */
  static Result run(ProcessBuilder pb, byte[] stdin) {
    try {
      Process p = pb.start();
      CompletableFuture<byte[]> out = drain(p.getInputStream());
      CompletableFuture<byte[]> err = drain(p.getErrorStream());
      try (var in = p.getOutputStream()) {
        in.write(stdin);
      } catch (IOException e) {
        // the command exited without reading all of it: its result says why
      }
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("bloom did not finish within " + TIMEOUT_SECONDS + " s: " + pb.command());
      }
      return new Result(p.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Reads a stream to its end on another thread, so that a full pipe never blocks the child. */
  static CompletableFuture<byte[]> drain(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try (in) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        in.transferTo(buffer);
        return buffer.toByteArray();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, runnable -> new Thread(runnable, "drain").start());
  }

  /** Runs a shell command line (for pipes and redirections), with {@code bloom} on the PATH as the launcher. */
  static Result shell(Path dir, String script) {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile());
    pb.environment().put("BLOOM_JAR", JAR.toString());
    pb.environment().put("BLOOM", LAUNCHER.toString());
    pb.environment().remove("BLOOM_JAVA_OPTS");
    return run(pb, new byte[0]);
  }

  /**
   * Rewrites a version 2 filter file of types 1 to 4 as the version 1 file an earlier release wrote: the
   * version byte 1, the key type byte (reserved in version 1) 0, and the checksum over both; returns
   * its new bytes.
   */
  static byte[] toVersion1(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[4] = 1; // version 1
    bytes[7] = 0; // its reserved byte
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
    Files.write(file, bytes);
    return bytes;
  }

  /** Writes the keys one per line, UTF-8, LF-terminated. */
  static Path keysFile(Path file, List<String> keys) throws IOException {
    Files.write(file, keys, StandardCharsets.UTF_8);
    return file;
  }

  /** {@code count} distinct e-mail-like keys starting with {@code prefix}. */
  static List<String> keys(String prefix, int count) {
    List<String> keys = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      keys.add(prefix + i + "@example.com");
    }
    return keys;
  }

  /** The keys of {@code keys} that {@code filter} answers "no" for: must be empty if they were added. */
  static List<String> absent(Path filter, Path keys) {
    Result r = run("query", filter.toString(), "--absent", "--input", keys.toString()).ok();
    return r.outLines();
  }
}
