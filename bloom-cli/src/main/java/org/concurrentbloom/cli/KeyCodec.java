package org.concurrentbloom.cli;

import java.util.HexFormat;
import java.util.Locale;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.KeyType;

/**
 * How the command line turns a key, given as text, into the item a filter's funnel hashes: the
 * {@code --key-type} values. Each encodes exactly as the library's funnel of the same key type, so a
 * file written by a program with {@code Funnels.longFunnel()} answers {@code bloom query F 42} as the
 * program's {@code mightContain(42L)} does.
 */
enum KeyCodec {
  STRING("string", KeyType.UTF8_STRING, "any text") {
    @Override
    Object parse(String key) {
      return key;
    }
  },
  LONG("long", KeyType.LONG, "a decimal 64-bit integer, e.g. -42") {
    @Override
    Object parse(String key) {
      return number(key, Long::parseLong, "64-bit integer");
    }
  },
  INT("int", KeyType.INTEGER, "a decimal 32-bit integer, e.g. -42") {
    @Override
    Object parse(String key) {
      return number(key, Integer::parseInt, "32-bit integer");
    }
  },
  BYTES("bytes", KeyType.BYTES, "hexadecimal, two digits a byte, e.g. 00ff10") {
    @Override
    Object parse(String key) {
      try {
        return HexFormat.of().parseHex(key);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("'" + key + "' is not a byte string in hexadecimal (" + description
            + ")");
      }
    }
  };

  /** The {@code --key-type} spellings, for help texts. */
  static final String NAMES = "string, long, int, bytes";

  final String cliName;
  final KeyType keyType;
  final String description;

  KeyCodec(String cliName, KeyType keyType, String description) {
    this.cliName = cliName;
    this.keyType = keyType;
    this.description = description;
  }

  /**
   * The item {@code key} stands for.
   *
   * @throws IllegalArgumentException naming the key if it is not of this type
   */
  abstract Object parse(String key);

  /** {@code key} parsed by {@code parser}, or an error that names the key and what it should be. */
  Object number(String key, java.util.function.Function<String, Object> parser, String what) {
    try {
      return parser.apply(key);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + key + "' is not a " + what + " (" + description + ")");
    }
  }

  /** The library funnel that hashes the items {@link #parse} returns. */
  @SuppressWarnings("unchecked")
  Funnel<Object> funnel() {
    Funnel<?> f = switch (this) {
      case STRING -> Funnels.stringFunnel();
      case LONG -> Funnels.longFunnel();
      case INT -> Funnels.integerFunnel();
      case BYTES -> Funnels.byteArrayFunnel();
    };
    return (Funnel<Object>) f;
  }

  /** The codec for a key type the file records, or null for one the command line cannot encode. */
  static KeyCodec of(KeyType type) {
    for (KeyCodec c : values()) {
      if (c.keyType == type) {
        return c;
      }
    }
    return null;
  }

  /** picocli's converter for {@code --key-type}. */
  static KeyCodec fromName(String name) {
    for (KeyCodec c : values()) {
      if (c.cliName.equals(name.toLowerCase(Locale.ROOT))) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown key type '" + name + "'; use one of " + NAMES);
  }

  @Override
  public String toString() {
    return cliName;
  }
}
