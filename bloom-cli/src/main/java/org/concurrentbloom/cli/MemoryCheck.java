package org.concurrentbloom.cli;

/**
 * Refuses, before anything is allocated, a command whose filter cannot fit in the JVM's heap, with one
 * line that names the size and how to raise the limit; the alternative is an OutOfMemoryError part way
 * through, after minutes of reading keys.
 */
final class MemoryCheck {
  /** Room left for everything that is not the filter: the JVM's own use, buffers, picocli. */
  private static final long HEADROOM_BYTES = 64L << 20;

  private MemoryCheck() {}

  /**
   * Throws unless {@code bytes} more can be allocated in this JVM's heap.
   *
   * @param what what needs the memory, for the message: "a standard filter for 10,000,000,000 keys"
   * @throws CliException naming the size, the limit, and {@code BLOOM_JAVA_OPTS}
   */
  static void require(long bytes, String what) throws CliException {
    Runtime rt = Runtime.getRuntime();
    long used = rt.totalMemory() - rt.freeMemory();
    long available = rt.maxMemory() - used - HEADROOM_BYTES;
    if (bytes > available) {
      throw new CliException(what + " needs " + Fmt.humanBytes(bytes) + " of memory, but this JVM may use at "
          + "most " + Fmt.humanBytes(rt.maxMemory()) + " in all; give it more with BLOOM_JAVA_OPTS, e.g. "
          + "BLOOM_JAVA_OPTS=-Xmx" + suggestedHeapGiB(bytes + used + HEADROOM_BYTES) + "g (the machine must "
          + "have that much memory)");
    }
  }

  /** A heap size in whole GiB comfortably above {@code bytes}: a quarter more, rounded up. */
  static long suggestedHeapGiB(long bytes) {
    double gib = bytes * 1.25 / (1L << 30);
    return Math.max(1, (long) Math.ceil(gib));
  }
}
