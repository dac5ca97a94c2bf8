package org.concurrentbloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;

/**
 * Issue 22, numbers and permissions that fail halfway: a script that writes the bits and only then
 * fails (an INCR or HINCRBY on a value that is no integer to Redis, a command the ACL user may not run)
 * leaves bits set for an add that threw, which Redis never rolls back. A refused add must have written
 * nothing: every key under the filter's name is compared before and after (its bit strings' BITCOUNT
 * among them), and the item must not then be found. Junk in a count must be refused as foreign data,
 * naming the key, the field and the value.
 */
class RedisLossForeignFieldsTest {
  @RegisterExtension
  static final RedisServerExtension SERVER = new RedisServerExtension();

  /** Numbers to Lua's tonumber, which today's check uses, but not integers to INCR (or past its range). */
  private static final List<String> COUNTER_JUNK = List.of("1e3", " 7", "5.0", "0x10", "9223372036854775807");
  /** Not integers to HINCRBY. */
  private static final List<String> COUNT_JUNK = List.of("abc", "1.5");
  private static final String PASSWORD = "secret";

  /**
   * Where a count is stored: a string key of its own ({@code field} null), or a field of a hash.
   *
   * @param key the Redis key
   * @param field the hash field, or null for a plain string key
   */
  private record Stored(String key, String field) {
    void write(Jedis redis, String value) {
      if (field == null) {
        redis.set(key, value);
      } else {
        redis.hset(key, field, value);
      }
    }

    @Override
    public String toString() {
      return field == null ? key : key + " field " + field;
    }
  }

  /**
   * Where the expiring filter {@code f} keeps the number of new adds into the slot that adds go to now:
   * the metadata's directory, field {@code c<p>} of ring position p = slot mod G (before issue 22's fix,
   * a string key of its own per slot, {@code NAME:{NAME:exp}:c<slot>}). The filters here are a few
   * milliseconds old with one-hour slots, so "now" is slot 0 and no add has gone further.
   */
  private static Stored currentSlotCounter(Jedis redis, RedisExpiringBloomFilter<?> f) {
    List<String> time = redis.time();
    long now = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    long slot = (now - f.originMillis()) / f.generationSpan().toMillis();
    return new Stored(ExpiringKeys.meta(f.name()), "c" + (slot % f.generationCount()));
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void numericJunkInAnExpiringFiltersCounterIsRefusedWithNothingWritten(Client client) {
    RedisClientAdapter redis = SERVER.adapter(client);
    Checks soft = new Checks();
    List<String> report = new ArrayList<>();
    try (Jedis admin = SERVER.node().admin()) {
      for (int i = 0; i < COUNTER_JUNK.size(); i++) {
        String junk = COUNTER_JUNK.get(i);
        String name = "loss:counter:" + client + ":" + i;
        // A 7-hour window over 8 generations: one-hour slots, so the whole case runs in one slot.
        RedisExpiringBloomFilter<CharSequence> f = RedisExpiringBloomFilter.<CharSequence>builder(redis, name,
            Funnels.stringFunnel()).window(Duration.ofHours(7)).expectedInsertionsPerWindow(1_000).build();
        f.add("seed"); // the slot's generation and count exist, as in a filter in use
        Stored counter = currentSlotCounter(admin, f);
        counter.write(admin, junk);
        report.add(expectRefusal(admin, soft, name, counter, junk, () -> f.add("new-item"),
            () -> f.mightContain("new-item")));
      }
    }
    System.out.println("RedisLossForeignFieldsTest expiring counter " + client + ":\n  " + String.join("\n  ", report));
    soft.assertAll();
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void junkInAStandardFiltersCountIsRefusedWithNothingWritten(Client client) {
    RedisClientAdapter redis = SERVER.adapter(client);
    Checks soft = new Checks();
    List<String> report = new ArrayList<>();
    try (Jedis admin = SERVER.node().admin()) {
      for (int i = 0; i < COUNT_JUNK.size(); i++) {
        String junk = COUNT_JUNK.get(i);
        String name = "loss:count:" + client + ":" + i;
        RedisBloomFilter<CharSequence> f = RedisBloomFilter.create(redis, name, Funnels.stringFunnel(), 1_000, 0.01);
        f.add("seed");
        Stored count = new Stored(FilterKeys.metaKey(name, 0), "count");
        count.write(admin, junk);
        report.add(expectRefusal(admin, soft, name, count, junk, () -> f.add("new-item"),
            () -> f.mightContain("new-item")));
      }
    }
    System.out.println("RedisLossForeignFieldsTest standard count " + client + ":\n  " + String.join("\n  ", report));
    soft.assertAll();
  }

  /**
   * An ACL user that may run everything but PEXPIREAT, which the expiring filter's add sets on the
   * generation it writes: each add either returns and its item is found, or throws having written nothing.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  void anAclUserWithoutPexpireatEitherAddsOrWritesNothing(Client client) {
    Checks soft = new Checks();
    List<String> report = new ArrayList<>();
    try (Jedis admin = SERVER.node().admin()) {
      admin.aclSetUser("app", "on", ">" + PASSWORD, "~*", "&*", "+@all", "-pexpireat");
      RedisClientAdapter app = SERVER.adapter(client, "app", PASSWORD);
      String name = "loss:acl:expiring:" + client;
      RedisExpiringBloomFilter<CharSequence> f = RedisExpiringBloomFilter.<CharSequence>builder(app, name,
          Funnels.stringFunnel()).window(Duration.ofMinutes(2)).expectedInsertionsPerWindow(1_000).build();
      for (String item : List.of("item-0", "item-1", "item-2")) {
        KeyContents before = KeyContents.of(admin, name + ":");
        RuntimeException thrown = null;
        try {
          f.add(item);
        } catch (RuntimeException e) {
          thrown = e;
        }
        KeyContents after = KeyContents.of(admin, name + ":");
        String row = item + ": add " + outcome(thrown) + "; BITCOUNT " + before.setBits() + " -> " + after.setBits()
            + "; changed: " + after.changedSince(before);
        report.add(row);
        RuntimeException refused = thrown;
        if (refused == null) {
          soft.check(() -> assertThat(f.mightContain(item)).as("an add that returned is found: " + row).isTrue());
        } else {
          soft.check(() -> assertThat(refused).as(row).isInstanceOf(RedisFilterException.class));
          soft.check(() -> assertThat(after.changedSince(before)).as("a refused add wrote nothing: " + row).isEmpty());
        }
      }
    }
    System.out.println("RedisLossForeignFieldsTest ACL -pexpireat " + client + ":\n  " + String.join("\n  ", report));
    soft.assertAll();
  }

  /** An ACL user that may not run SETBIT adds to a standard filter: the add throws, nothing written. */
  @ParameterizedTest
  @EnumSource(Client.class)
  void anAclUserWithoutSetbitIsRefusedWithNothingWritten(Client client) {
    Checks soft = new Checks();
    try (Jedis admin = SERVER.node().admin()) {
      admin.aclSetUser("app-nosetbit", "on", ">" + PASSWORD, "~*", "&*", "+@all", "-setbit");
      String name = "loss:acl:standard:" + client;
      RedisBloomFilter<CharSequence> owner = RedisBloomFilter.create(SERVER.adapter(client), name,
          Funnels.stringFunnel(), 1_000, 0.01);
      owner.add("seed");
      RedisBloomFilter<CharSequence> f = RedisBloomFilter.attach(SERVER.adapter(client, "app-nosetbit", PASSWORD),
          name, Funnels.stringFunnel());
      KeyContents before = KeyContents.of(admin, name + ":");
      RuntimeException thrown = null;
      try {
        f.add("new-item");
      } catch (RuntimeException e) {
        thrown = e;
      }
      KeyContents after = KeyContents.of(admin, name + ":");
      String row = "add " + outcome(thrown) + "; BITCOUNT " + before.setBits() + " -> " + after.setBits()
          + "; changed: " + after.changedSince(before);
      System.out.println("RedisLossForeignFieldsTest ACL -setbit " + client + ": " + row);
      RuntimeException refused = thrown;
      soft.check(() -> assertThat(refused).as(row).isInstanceOf(RedisFilterException.class));
      soft.check(() -> assertThat(after.changedSince(before)).as("a refused add wrote nothing: " + row).isEmpty());
      soft.check(() -> assertThat(owner.mightContain("new-item")).as("the refused item is not found: " + row).isFalse());
    }
    soft.assertAll();
  }

  /**
   * Runs {@code add} over junk {@code value} stored at {@code where}, and checks softly that it was refused
   * as foreign data naming the key, the field and the value, that nothing under the filter's name changed,
   * and that the item then answers false or throws. Returns the case's line for the report.
   */
  private static String expectRefusal(Jedis admin, Checks soft, String name, Stored where, String value,
      Runnable add, BooleanSupplier query) {
    KeyContents before = KeyContents.of(admin, name + ":");
    RuntimeException thrown = null;
    try {
      add.run();
    } catch (RuntimeException e) {
      thrown = e;
    }
    KeyContents after = KeyContents.of(admin, name + ":");
    String found;
    try {
      found = Boolean.toString(query.getAsBoolean());
    } catch (RedisFilterException e) {
      found = "threw";
    }
    String answered = found;
    RuntimeException refused = thrown;
    String row = where + " = \"" + value + "\": add " + outcome(refused) + "; BITCOUNT " + before.setBits() + " -> "
        + after.setBits() + "; changed: " + after.changedSince(before) + "; the item then answered " + answered;
    soft.check(() -> assertThat(refused).as(row).isInstanceOf(RedisFilterMismatchException.class));
    if (refused != null) {
      soft.check(() -> assertThat(refused.getMessage()).as("the refusal names the key: " + row).contains(where.key()));
      if (where.field() != null) {
        soft.check(() -> assertThat(refused.getMessage()).as("the refusal names the field: " + row)
            .contains(where.field()));
      }
      soft.check(() -> assertThat(refused.getMessage()).as("the refusal names the value: " + row).contains(value));
    }
    soft.check(() -> assertThat(after.changedSince(before)).as("a refused add wrote nothing: " + row).isEmpty());
    soft.check(() -> assertThat(answered).as("the refused item is not found: " + row).isNotEqualTo("true"));
    return row;
  }

  private static String outcome(RuntimeException thrown) {
    return thrown == null ? "returned" : "threw " + thrown.getClass().getSimpleName() + ": " + thrown.getMessage();
  }
}
