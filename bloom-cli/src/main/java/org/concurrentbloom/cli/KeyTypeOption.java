package org.concurrentbloom.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Converts a {@code --key-type} value; an unknown one is a usage error that lists the known ones. */
final class KeyTypeOption implements ITypeConverter<KeyCodec> {
  @Override
  public KeyCodec convert(String value) {
    try {
      return KeyCodec.fromName(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
