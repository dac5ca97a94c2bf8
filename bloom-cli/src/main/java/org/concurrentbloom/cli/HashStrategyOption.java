package org.concurrentbloom.cli;

import java.util.Locale;
import java.util.StringJoiner;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.HashStrategy;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A {@code --hash-strategy} value: a hash family ({@code xxh3}, the default, or {@code murmur3}, which
 * releases before strategy 4 read), or one strategy by its file id (1, 2, 4, 5, 6) or enum name. A family
 * becomes the strategy of the filter type's layout ({@link Choice#resolve}): xxh3 the library's default
 * for the type (4 for standard and scalable filters; 6 for blocked ones, 5 below p = 0.001 and for
 * blocked layers), murmur3 1 or 2. An unknown value is a usage error that names it.
 */
final class HashStrategyOption implements ITypeConverter<HashStrategyOption.Choice> {
  /** The values {@code --hash-strategy} takes, for its description and messages. */
  static final String VALUES = "xxh3 or murmur3, or a strategy id (4, 1; 6, 5, 2 with --blocked) or name";

  /** What the user asked for: a family (strategy null), or one strategy; {@code text} as given. */
  record Choice(String text, boolean xxh3, HashStrategy strategy) {
    /**
     * The strategy a new filter of {@code kind} gets for this choice, or null for the library's default
     * (the xxh3 family: the library picks by p and by filter kind); {@code SCALABLE} stands for standard
     * layers (a caller whose scalable filter has blocked layers passes {@code BLOCKED}).
     *
     * @throws IllegalArgumentException if {@code kind} does not take it; the message names the value and
     *     the strategies the type takes
     */
    HashStrategy resolve(FilterType kind) {
      FilterType layout = kind == FilterType.SCALABLE ? FilterType.STANDARD : kind;
      if (strategy != null) {
        if (layout.admits(strategy)) {
          return strategy;
        }
      } else if (xxh3 && layout.strategy().isXxh3()) {
        return null;
      } else {
        for (HashStrategy s : layout.strategies()) {
          if (isXxh3(s) == xxh3 && (xxh3 || isMurmur3(s))) {
            return s;
          }
        }
      }
      StringJoiner takes = new StringJoiner(" or ");
      takes.add(describe(layout.strategy())); // the default first
      for (HashStrategy s : layout.strategies()) {
        if (s != layout.strategy()) {
          takes.add(describe(s));
        }
      }
      throw new IllegalArgumentException("--hash-strategy " + text + (strategy == null ? "" : " (" + strategy + ")")
          + " is not for " + FileHeader.noun(kind) + " filters: they take " + takes);
    }
  }

  @Override
  public Choice convert(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    if (v.equals("xxh3")) {
      return new Choice(value, true, null);
    }
    if (v.equals("murmur3")) {
      return new Choice(value, false, null);
    }
    for (HashStrategy s : HashStrategy.values()) {
      if (s.isStorable() && (v.equals(Integer.toString(s.id())) || v.equals(s.name().toLowerCase(Locale.ROOT)))) {
        return new Choice(value, isXxh3(s), s);
      }
    }
    throw new TypeConversionException("unknown hash strategy '" + value + "': use " + VALUES);
  }

  private static boolean isXxh3(HashStrategy s) {
    return s.isXxh3();
  }

  private static boolean isMurmur3(HashStrategy s) {
    return s == HashStrategy.MURMUR3_128_ENHANCED_DOUBLE || s == HashStrategy.MURMUR3_128_BLOCKED;
  }

  /** "4 (XXH3_64_ENHANCED_DOUBLE)": a strategy's file id and name, as bloom info prints them. */
  static String describe(HashStrategy s) {
    return s.isStorable() ? s.id() + " (" + s + ")" : s + " (no id in the file format)";
  }
}
