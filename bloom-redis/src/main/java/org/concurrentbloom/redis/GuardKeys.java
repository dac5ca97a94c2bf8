package org.concurrentbloom.redis;

import static org.concurrentbloom.redis.RedisCodec.utf8;

/**
 * Key names of a shared guard (docs/REDIS.md, "Shared guard"). Every key of the guard G starts with G
 * (for ACL key patterns and SCAN MATCH) and carries the hash tag {G}, so all of them sit in one Redis
 * Cluster slot and one script may read the state and write the generations atomically. Immutable.
 *
 * <pre>
 * G:{G}:state      hash: live, pending (generation numbers), next (the last number issued)
 * G:{G}:lock       string: the token of the rebuild that holds the lock, with a lease (PX)
 * G:{G}:gN:bits    string: generation N's bits
 * G:{G}:gN:meta    hash: generation N's shape (as a filter partition's) and the guard's counters
 * </pre>
 */
final class GuardKeys {
  final String name;
  final byte[] state;
  final byte[] lock;
  private final String tag;

  /** @throws IllegalArgumentException if the name is empty or contains '{' or '}' */
  GuardKeys(String name) {
    FilterKeys.checkName(name);
    this.name = name;
    this.tag = name + ":{" + name + "}";
    this.state = utf8(tag + ":state");
    this.lock = utf8(tag + ":lock");
  }

  byte[] bits(long generation) {
    return utf8(tag + ":g" + generation + ":bits");
  }

  byte[] meta(long generation) {
    return utf8(tag + ":g" + generation + ":meta");
  }
}
