package org.concurrentbloom.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One of the Lua scripts in this package's resources, with the shared prelude prepended (shape.lua, and
 * after it gen.lua for the shared guard's scripts, exp.lua for the expiring filter's), and its SHA-1,
 * which is the name EVALSHA calls it by. Immutable; docs/REDIS.md states each script's contract.
 */
final class Script {
  static final Script ADD = load("add");
  static final Script QUERY = load("query");
  static final Script CREATE = load("create");
  static final Script UPLOAD = load("upload");
  static final Script SNAPSHOT = load("snapshot");
  static final Script STATS = load("stats");
  static final Script CLEAR = load("clear");
  static final Script POLICY = load("policy");
  // The shared guard's scripts (docs/REDIS.md, "Shared guard"), with the generation prelude gen.lua too.
  static final Script GUARD_QUERY = guard("guard-query");
  static final Script GUARD_ADD = guard("guard-add");
  static final Script GUARD_DELETE = guard("guard-delete");
  static final Script GUARD_REGISTER = guard("guard-register");
  static final Script GUARD_PUBLISH = guard("guard-publish");
  static final Script GUARD_ABANDON = guard("guard-abandon");
  static final Script LOCK_RENEW = guard("lock-renew");
  static final Script LOCK_RELEASE = guard("lock-release");
  // The expiring filter's scripts (docs/REDIS.md, "Expiring filters on Redis"), with the prelude exp.lua too.
  static final Script EXP_OPEN = expiring("exp-open");
  static final Script EXP_ADD = expiring("exp-add");
  static final Script EXP_QUERY = expiring("exp-query");
  static final Script EXP_STATS = expiring("exp-stats");
  static final Script EXP_CLEAR = expiring("exp-clear");
  static final Script EXP_DELETE = expiring("exp-delete");

  final String name;
  final byte[] source;
  /** Lowercase hex SHA-1 of {@link #source}: what SCRIPT LOAD returns and EVALSHA takes. */
  final byte[] sha;

  private Script(String name, byte[] source) {
    this.name = name;
    this.source = source;
    try {
      byte[] digest = MessageDigest.getInstance("SHA-1").digest(source);
      this.sha = HexFormat.of().formatHex(digest).getBytes(StandardCharsets.US_ASCII);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-1", e);
    }
  }

  private static Script load(String name) {
    return new Script(name, (resource("shape") + "\n" + resource(name)).getBytes(StandardCharsets.UTF_8));
  }

  private static Script guard(String name) {
    String source = resource("shape") + "\n" + resource("gen") + "\n" + resource(name);
    return new Script(name, source.getBytes(StandardCharsets.UTF_8));
  }

  private static Script expiring(String name) {
    String source = resource("shape") + "\n" + resource("exp") + "\n" + resource(name);
    return new Script(name, source.getBytes(StandardCharsets.UTF_8));
  }

  private static String resource(String name) {
    try (InputStream in = Script.class.getResourceAsStream(name + ".lua")) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name + ".lua next to " + Script.class.getName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return name + ".lua";
  }
}
