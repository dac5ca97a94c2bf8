package org.concurrentbloom.guard;

/**
 * Where a {@link MembershipGuard} keeps its filters (see {@link GuardFilters} for the protocol an
 * implementation must keep). Without one the guard keeps them in this JVM; with bloom-redis's
 * {@code RedisGuardBackend} they live in Redis, so an insert recorded by one application instance is
 * seen by all:
 *
 * <pre>{@code
 * MembershipGuard<String> taken = MembershipGuard.builder(Funnels.stringFunnel(), keySource)
 *     .name("users.email").expectedInsertions(10_000_000)
 *     .backend(RedisGuardBackend.of(redis))
 *     .build();
 * }</pre>
 *
 * <p>A service-provider interface: applications pass an instance to {@link MembershipGuard.Builder#backend}
 * and never call it.
 *
 * @param <K> the type of key
 */
@FunctionalInterface
public interface GuardBackend<K> {

  /**
   * Opens the filters of the guard that {@code spec} describes. Called once, from
   * {@link MembershipGuard.Builder#build()}.
   *
   * @throws IllegalArgumentException if the backend cannot serve this configuration (the message says why)
   */
  GuardFilters<K> open(GuardSpec<K> spec);
}
