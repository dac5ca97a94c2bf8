package org.concurrentbloom.cli;

/** The filter types of docs/FORMAT.md that the command line handles, by their type byte. */
enum FilterKind {
  STANDARD(1, "standard", "standard Bloom filter"),
  BLOCKED(2, "blocked", "blocked Bloom filter (512-bit blocks)"),
  GUAVA(3, "Guava-compatible", "Guava-compatible Bloom filter"),
  COUNTING(4, "counting", "counting Bloom filter (4-bit counters)"),
  SCALABLE(5, "scalable", "scalable Bloom filter");

  final int type;
  /** A short name for messages: "a blocked filter". */
  final String shortName;
  /** The description {@code bloom info} prints. */
  final String description;

  FilterKind(int type, String shortName, String description) {
    this.type = type;
    this.shortName = shortName;
    this.description = description;
  }

  /** The kind with this type byte, or null. */
  static FilterKind ofType(int type) {
    for (FilterKind k : values()) {
      if (k.type == type) {
        return k;
      }
    }
    return null;
  }

  /** "a standard filter": for sentences (every short name starts with a consonant sound). */
  String withArticle() {
    return "a " + shortName + " filter";
  }
}
