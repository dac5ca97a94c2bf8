package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Blobs round-trip byte for byte (a core-format filter file among them); failures are exceptions. */
class RedisBlobStoreTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  @Test
  void putGetReplaceDelete() throws Exception {
    RedisBlobStore store = new RedisBlobStore(SERVER.client(), "snapshots:");
    assertThat(store.get("users")).isEmpty();
    BloomFilter<CharSequence> f = BloomFilter.create(Funnels.stringFunnel(), 1_000, 0.01);
    f.add("alice");
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    f.writeTo(file);
    store.put("users", file.toByteArray());
    byte[] back = store.get("users").orElseThrow();
    assertThat(back).isEqualTo(file.toByteArray());
    assertThat(BloomFilter.readFrom(new ByteArrayInputStream(back), Funnels.stringFunnel()).mightContain("alice")).isTrue();
    store.put("users", new byte[] {0, (byte) 0xFF, 0});
    assertThat(store.get("users")).hasValueSatisfying(v -> assertThat(v).containsExactly(0, 0xFF, 0));
    assertThat(store.delete("users")).isTrue();
    assertThat(store.delete("users")).isFalse();
    assertThat(store.get("users")).isEmpty();
  }

  @Test
  void aStoppedServerIsAnError() throws Exception {
    RedisServerExtension own = new RedisServerExtension();
    own.beforeAll(null);
    try {
      RedisBlobStore store = new RedisBlobStore(own.client(), "s:");
      store.put("x", new byte[] {1});
      own.node().kill();
      assertThatThrownBy(() -> store.get("x")).isInstanceOf(RedisFilterException.class);
      assertThatThrownBy(() -> store.put("x", new byte[] {2})).isInstanceOf(RedisFilterException.class);
    } finally {
      own.afterAll(null);
    }
  }
}
