package org.concurrentbloom.redis;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.commands.ProtocolCommand;

/**
 * The server's Bloom commands that {@link RedisNativeBloomFilter} sends, with binary arguments. Jedis has
 * no typed methods for them. Every one takes the filter's key first, which routes it on a cluster.
 * Constants; any thread may send, as the client may.
 */
enum BfCommand implements ProtocolCommand {
  RESERVE, ADD, MADD, EXISTS, MEXISTS, CARD, INFO;

  @SuppressWarnings("ImmutableEnumChecker") // never written after construction; Jedis only reads it
  private final byte[] raw = RedisCodec.ascii("BF." + name());

  @Override
  public byte[] getRaw() {
    return raw;
  }

  /** "BF.ADD" and so on, for messages. */
  String commandName() {
    return "BF." + name();
  }

  /**
   * Sends {@code BF.THIS key args...}, routed by {@code key}.
   *
   * @throws redis.clients.jedis.exceptions.JedisException as the client reports a failure
   */
  Object send(UnifiedJedis redis, byte[] key, byte[]... args) {
    return redis.executeCommand(arguments(key, args));
  }

  /** {@code BF.THIS key args...} as Jedis's command arguments, routed by {@code key}. */
  CommandArguments arguments(byte[] key, byte[]... args) {
    CommandArguments command = new CommandArguments(this).key(key);
    for (byte[] arg : args) {
      command.add(arg);
    }
    return command;
  }
}
