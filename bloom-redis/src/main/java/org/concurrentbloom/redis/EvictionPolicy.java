package org.concurrentbloom.redis;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * What a filter learns, when it is opened, of the {@code maxmemory-policy} of the node that holds it,
 * and the warning it logs for a policy that may evict its keys. Generation keys and filter keys never
 * carry an expiry, so no {@code volatile-*} policy evicts them, and {@code noeviction} refuses writes
 * (a refused add writes nothing and throws). An {@code allkeys-*} policy may evict any of them: a filter
 * then throws {@link RedisFilterLostException} on every call until it is rebuilt, so it is never wrong,
 * but it stops working; that is worth a warning when it is opened, not only when it happens. Stateless;
 * any thread.
 */
final class EvictionPolicy {
  private static final Logger LOG = System.getLogger(EvictionPolicy.class.getName());

  private EvictionPolicy() {}

  /**
   * The node's policy ({@code ""} if the user may not run INFO, or Redis fails to say), logging a
   * warning if it is an {@code allkeys-*} policy. One round trip.
   */
  static String check(RedisClientAdapter redis, byte[] routingKey, String filter) {
    String policy;
    try {
      policy = RedisCodec.text(new ScriptCalls(redis).eval(Script.POLICY, List.of(routingKey), List.of(),
          "read the maxmemory policy for " + filter));
    } catch (RedisFilterException e) {
      return ""; // a filter works without knowing it; the calls report any loss themselves
    }
    if (policy.startsWith("allkeys-")) {
      LOG.log(Level.WARNING, () -> "bloom-redis: " + filter + ": the Redis node that holds it runs maxmemory-policy " + policy
          + ", which may evict its keys; every call then throws RedisFilterLostException until the filter is"
          + " rebuilt. Use noeviction, or a volatile-* policy (the filter's keys have no expiry, so those never"
          + " evict them)");
    }
    return policy;
  }
}
