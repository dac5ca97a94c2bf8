package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;

/**
 * Application instances whose clocks are 300 s apart (window 60 s) share one expiring filter: each is
 * its own JVM, run under faketime, and each finds every key the others added. The filter has no
 * caller's clock any more; the server's TIME, read inside each script, decides the slot. (With the
 * caller's clock that the filter had before, the instance behind wrote to slots the one ahead had
 * already forgotten: 200 of 200 keys answered absent.)
 */
class RedisClockSkewTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  static RedisExpiringBloomFilter.Builder<CharSequence> builder(UnifiedJedis redis, String name) {
    return RedisExpiringBloomFilter.<CharSequence>builder(redis, name, Funnels.stringFunnel())
        .window(ClockSkewChild.window()).expectedInsertionsPerWindow(10_000);
  }

  private static String faketime() {
    return RedisNode.requireBinary("faketime", "this test runs application instances on skewed clocks");
  }

  /** Runs a child instance with its clock moved by {@code offset} ("+300s"); returns its output lines. */
  private static List<String> child(String offset, String name, String prefix, String... check)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(faketime(), "-f", offset,
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), ClockSkewChild.class.getName(),
        Integer.toString(SERVER.node().port()), name, prefix, "200"));
    command.addAll(List.of(check));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the child ended").isTrue();
    assertThat(p.exitValue()).as("child exit; output:%n%s", out).isZero();
    return out.lines().toList();
  }

  private static long line(List<String> lines, String start) {
    for (String l : lines) {
      if (l.startsWith(start)) {
        String[] words = l.substring(start.length()).trim().split(" ", -1);
        return Long.parseLong(words[0]);
      }
    }
    throw new AssertionError("no line starting with \"" + start + "\" in " + lines);
  }

  @Test
  void instancesWhoseClocksAreMinutesApartFindEachOthersAdds() throws Exception {
    String name = "skew:expiring";
    UnifiedJedis redis = SERVER.client();
    RedisExpiringBloomFilter<CharSequence> here = builder(redis, name).build();
    for (int i = 0; i < 200; i++) {
      here.add("here-" + i);
    }
    long before = System.currentTimeMillis();
    List<String> ahead = child("+300s", name, "ahead", "here");
    List<String> behind = child("-300s", name, "behind", "here", "ahead");
    assertThat(line(ahead, "clock")).as("the first child's clock runs 5 minutes ahead").isGreaterThan(before + 290_000);
    assertThat(line(behind, "clock")).as("the second child's clock runs 5 minutes behind").isLessThan(before - 290_000);
    assertThat(line(ahead, "found here")).as("keys added here, found by the instance ahead").isEqualTo(200);
    assertThat(line(behind, "found here")).as("keys added here, found by the instance behind").isEqualTo(200);
    assertThat(line(behind, "found ahead")).as("keys added ahead, found behind").isEqualTo(200);
    int found = 0;
    for (int i = 0; i < 200; i++) {
      found += here.mightContain("ahead-" + i) ? 1 : 0;
      found += here.mightContain("behind-" + i) ? 1 : 0;
    }
    assertThat(found).as("keys added by both skewed instances, found here").isEqualTo(400);
  }
}
