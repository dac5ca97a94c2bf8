package org.concurrentbloom.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * One redis-server process for tests, on a free loopback port, with its files in its own directory.
 * It can be killed (SIGKILL) and started again on the same port and directory. Not thread-safe: the
 * test thread drives it.
 */
final class RedisNode implements AutoCloseable {
  private static final Duration READY_DEADLINE = Duration.ofSeconds(20);

  private final Path dir;
  private final int port;
  private final List<String> options;
  private Process process;

  private RedisNode(Path dir, int port, List<String> options) {
    this.dir = dir;
    this.port = port;
    this.options = options;
  }

  /**
   * The redis-server binary. Missing: a failure when the environment variable CI is set (CI installs it,
   * so its absence is a broken build), otherwise the calling test class is skipped with the reason.
   */
  static String requireServerBinary() {
    return requireBinary("redis-server", "the Redis tests need a real server");
  }

  /**
   * The binary {@code name} from the PATH, a Debian package of the same name. Missing: a failure when CI
   * is set, otherwise the calling test is skipped, saying {@code why} it is needed.
   */
  static String requireBinary(String name, String why) {
    for (String dirName : System.getenv().getOrDefault("PATH", "/usr/bin").split(java.io.File.pathSeparator, -1)) {
      Path candidate = Path.of(dirName, name);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    String missing = name + " is not installed (apt-get install " + name + "); " + why;
    if (System.getenv("CI") != null) {
      Assertions.fail("CI is set and " + missing);
    }
    Assumptions.abort(missing);
    throw new AssertionError("unreachable");
  }

  /** The redis-cli binary, next to redis-server. */
  static String cliBinary() {
    return Path.of(requireServerBinary()).resolveSibling("redis-cli").toString();
  }

  /**
   * Starts a server in a new directory under {@code parent} with these extra options (each a
   * "--name value..." string list), and waits until it answers PING.
   */
  static RedisNode start(Path parent, List<String> extraOptions) throws IOException {
    int port = freePort();
    Path dir = Files.createDirectories(parent.resolve("node-" + port));
    RedisNode node = new RedisNode(dir, port, List.copyOf(extraOptions));
    node.startProcess();
    return node;
  }

  /** A loopback port that is free, whose cluster bus port (+10000) is free too. */
  private static int freePort() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port;
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        port = socket.getLocalPort();
      }
      if (port + 10000 <= 65535 && isFree(port + 10000)) {
        return port;
      }
    }
    throw new IOException("no free loopback port pair (p, p + 10000) found");
  }

  private static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private void startProcess() throws IOException {
    List<String> command = new ArrayList<>(List.of(requireServerBinary(),
        "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString(),
        "--save", "", "--daemonize", "no", "--logfile", dir.resolve("redis.log").toString()));
    command.addAll(options);
    process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("stdout.log").toFile()).start();
    awaitPing();
  }

  /** Polls PING until +PONG, failing after {@link #READY_DEADLINE} or if the process exits. */
  private void awaitPing() throws IOException {
    long deadline = System.nanoTime() + READY_DEADLINE.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IOException("redis-server on port " + port + " exited with " + process.exitValue() + "; log: "
            + readLog());
      }
      if (answersPing()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("redis-server on port " + port + " did not answer PING within " + READY_DEADLINE);
      }
      Thread.onSpinWait();
      try {
        process.waitFor(20, TimeUnit.MILLISECONDS); // returns early if it dies; else a short poll interval
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
  }

  private boolean answersPing() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = new byte[7];
      int n = in.readNBytes(reply, 0, 7);
      return n == 7 && new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }

  String readLog() {
    try {
      return Files.readString(dir.resolve("redis.log")) + Files.readString(dir.resolve("stdout.log"));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  int port() {
    return port;
  }

  HostAndPort hostAndPort() {
    return new HostAndPort("127.0.0.1", port);
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** A pooled client for this node with the given socket timeout. The caller closes it. */
  RedisClient client(Duration timeout) {
    return RedisClient.builder().hostAndPort(hostAndPort())
        .clientConfig(DefaultJedisClientConfig.builder().timeoutMillis((int) timeout.toMillis()).build()).build();
  }

  /**
   * A pooled client for this node that logs in as the ACL user {@code user} with {@code password}, with the
   * given socket timeout. The caller closes it.
   */
  RedisClient client(Duration timeout, String user, String password) {
    return RedisClient.builder().hostAndPort(hostAndPort()).clientConfig(DefaultJedisClientConfig.builder()
        .timeoutMillis((int) timeout.toMillis()).user(user).password(password).build()).build();
  }

  /** A single connection for administrative commands. The caller closes it. */
  Jedis admin() {
    return new Jedis(hostAndPort(), DefaultJedisClientConfig.builder().timeoutMillis(5_000).build());
  }

  /** Kills the process with SIGKILL, as a crash would, and waits until it is gone. */
  void kill() {
    if (process != null) {
      process.destroyForcibly();
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for redis-server on port " + port + " to die", e);
      }
    }
  }

  /** Sends a signal to the process: "STOP" freezes it (connections stay open, nothing answers), "CONT" resumes it. */
  void signal(String name) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -" + name + " " + pid() + " exited with " + kill.exitValue());
    }
  }

  /** Starts the server again on the same port and directory (after {@link #kill()}). */
  void restart() throws IOException {
    if (isAlive()) {
      throw new IllegalStateException("node on port " + port + " is still running");
    }
    startProcess();
  }

  @Override
  public void close() {
    kill();
  }
}
