package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;

class GuardMetricsTest {
  @Test
  void metersFollowTheGuardsStats() throws Exception {
    TableSource table = new TableSource(false);
    for (int i = 0; i < 100; i++) {
      table.insert("key-" + i);
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (MembershipGuard<String> guard = MembershipGuard.builder(Funnels.stringFunnel(), table)
        .name("users").expectedInsertions(1_000).fpp(1e-6).build()) {
      new GuardMetrics(guard, Tag.of("app", "signup")).bindTo(registry);
      assertThat(guard.awaitReady(Duration.ofSeconds(30))).isTrue();
      guard.check("key-1", table::contains);
      guard.check("absent", table::contains);
      guard.mightExist("key-2");

      assertThat(registry.get("bloom.guard.checks").tag("guard", "users").tag("app", "signup")
          .functionCounter().count()).isEqualTo(3);
      assertThat(registry.get("bloom.guard.definite.negatives").functionCounter().count()).isEqualTo(1);
      assertThat(registry.get("bloom.guard.positives").functionCounter().count()).isEqualTo(2);
      assertThat(registry.get("bloom.guard.lookups").functionCounter().count()).isEqualTo(1);
      assertThat(registry.get("bloom.guard.false.positives").functionCounter().count()).isZero();
      assertThat(registry.get("bloom.guard.rebuilds").functionCounter().count()).isEqualTo(1);
      assertThat(registry.get("bloom.guard.fpr.observed").gauge().value()).isZero();
      assertThat(registry.get("bloom.guard.fpr.target").gauge().value()).isEqualTo(1e-6);
      assertThat(registry.get("bloom.guard.ready").gauge().value()).isEqualTo(1);
      assertThat(registry.get("bloom.guard.keys").gauge().value()).isEqualTo(100);
      assertThat(registry.get("bloom.guard.capacity").gauge().value()).isEqualTo(1_000);
      assertThat(registry.get("bloom.guard.rebuild.last.seconds").gauge().value()).isPositive();
      assertThat(registry.get("bloom.guard.backend.errors").functionCounter().count()).isZero();
      assertThat(registry.get("bloom.guard.failed.inserts").functionCounter().count()).isZero();
      assertThat(registry.get("bloom.guard.snapshot.failures").functionCounter().count()).isZero();
      assertThat(registry.get("bloom.guard.degraded").gauge().value()).isZero();
      assertThat(registry.getMeters()).hasSize(19);
    }
  }
}
