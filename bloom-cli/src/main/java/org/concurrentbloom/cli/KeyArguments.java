package org.concurrentbloom.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The KEY arguments of a command, checked and converted before the command changes anything. */
final class KeyArguments {
  private KeyArguments() {}

  /**
   * Refuses KEY arguments the JVM could not decode ({@link KeyInput#checkArguments}).
   *
   * @throws ParameterException (a usage error) naming the argument and how to pass it instead
   */
  static void checkDecoded(CommandSpec spec, List<String> keys) {
    try {
      KeyInput.checkArguments(keys);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  /**
   * {@code keys} as items of {@code codec}'s type, all of them checked first, so that a bad one fails the
   * command before any key was added or removed.
   *
   * @throws ParameterException (a usage error) naming the first bad argument
   */
  static List<Object> parse(CommandSpec spec, List<String> keys, KeyCodec codec) {
    try {
      KeyInput.checkArguments(keys);
      List<Object> items = new ArrayList<>(keys.size());
      for (String key : keys) {
        items.add(codec.parse(key));
      }
      return items;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }
}
