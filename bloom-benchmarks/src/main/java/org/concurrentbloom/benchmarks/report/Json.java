package org.concurrentbloom.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader, enough for JMH's result files: objects become {@code Map<String, Object>} (in
 * file order), arrays {@code List<Object>}, numbers {@code Double}, plus String, Boolean and null.
 * Written here because none of the suite's dependencies has a JSON parser and JMH's output is plain.
 * Malformed input raises {@link IllegalArgumentException} naming the offset.
 */
final class Json {
  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.pos != text.length()) {
      throw json.error("trailing characters");
    }
    return value;
  }

  private Object value() {
    skipSpace();
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++; // '{'
    skipSpace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    for (;;) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String name = string();
      skipSpace();
      expect(':');
      map.put(name, value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        expect('}');
        return map;
      }
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    pos++; // '['
    skipSpace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    for (;;) {
      list.add(value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        expect(']');
        return list;
      }
    }
  }

  private String string() {
    pos++; // opening quote
    StringBuilder sb = new StringBuilder();
    for (;;) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated escape");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("short \\u escape");
          }
          sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Double number() {
    int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    if (start == pos) {
      throw error("unexpected character '" + text.charAt(pos) + "'");
    }
    try {
      return Double.valueOf(text.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("bad number " + text.substring(start, pos));
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return value;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("malformed JSON at offset " + pos + ": " + what);
  }
}
