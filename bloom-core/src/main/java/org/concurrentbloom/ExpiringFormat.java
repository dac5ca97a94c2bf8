package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.InstantSource;
import java.util.zip.CRC32C;

/**
 * Reads and writes filter type 6, an {@link ExpiringBloomFilter}, in format version 2 (the only version
 * that has it). docs/FORMAT.md documents it byte by byte and ExpiringFormatTest freezes it.
 *
 * <pre>
 * offset  size  field (big-endian)
 *  0      4     magic "CBLM"
 *  4      1     format version, 2
 *  5      1     filter type, 6
 *  6      1     hash strategy, 4 (XXH3_64_ENHANCED_DOUBLE)
 *  7      1     key type
 *  8      8     n, expected insertions per window
 * 16      8     p, target false-positive probability (IEEE 754 binary64)
 * 24      8     W, the window in milliseconds
 * 32      4     G, generations: a power of two in [2, 64]
 * 36      4     k, probes per item
 * 40      8     m, bits per generation
 * 48      8     s, slot length in milliseconds: ⌈W / (G − 1)⌉
 * 56      8     origin: clock time (ms since 1970-01-01T00:00Z) at which slot 0 began
 * 64      8     current slot c, ≥ 0: the slot adds go to
 * 72      8     L, payload length in bytes: G·m/8
 * 80      24·G  generation g = 0..G−1: start of the slot it holds (origin + i·s, i the largest slot ≤ c with
 *               i mod G = g), count of adds into it that returned true, kept-until time in ms
 *               (Long.MIN_VALUE: none, the only value written since 2026-12-02; see {@link #foldInto})
 * 80+24G  L     payload: G·m/64 words; bit (c mod 64/G)·G + g of word ⌊c / (64/G)⌋ is cell c of generation g
 * end     4     CRC32C of every byte before it
 * </pre>
 *
 * <p>The reader recomputes the shape from (n, p, W, G) as the builder does and refuses a file whose k, m
 * or s differ, so no file can make a filter the library would not build. Generations past their time at
 * the moment of writing are written empty, with count 0. A kept-until time from an older file is honoured
 * by {@link #foldInto}.
 */
final class ExpiringFormat {
  static final int FIXED_HEADER_BYTES = 80;
  static final int GENERATION_BYTES = 24;
  /** A generation's kept-until field when it has none: the only value written now (see {@link #foldInto}). */
  private static final long NOT_KEPT = Long.MIN_VALUE;

  private ExpiringFormat() {}

  static void write(OutputStream out, KeyType keyType, ExpiringGenerations gens) throws IOException {
    ExpiringPlan plan = gens.plan;
    int g = plan.generations;
    long t = gens.now();
    gens.stepIfIdle(gens.slotOf(t));
    long st;
    long cur;
    long[] words;
    long[] counts = new long[g];
    do { // a copy that a step began or ended during would mix two states: copy again
      st = gens.stateVolatile();
      cur = ExpiringGenerations.slotIn(st);
      long valid = gens.validAt(st, t);
      words = gens.bits.wordsOf(valid);
      for (int p = 0; p < g; p++) {
        counts[p] = (valid & (1L << p)) != 0 ? gens.countOf(p, SlotClock.heldSlot(cur, p, g)) : 0;
      }
    } while (gens.stateVolatile() != st);
    ByteBuffer header = ByteBuffer.allocate(FIXED_HEADER_BYTES + GENERATION_BYTES * g)
        .putInt(FilterFormat.MAGIC)
        .put((byte) FilterFormat.VERSION)
        .put((byte) FilterType.EXPIRING.id())
        .put((byte) HashStrategy.XXH3_64_ENHANCED_DOUBLE.id())
        .put((byte) FilterFormat.writtenKeyType(keyType))
        .putLong(plan.expectedInsertions)
        .putDouble(plan.fpp)
        .putLong(plan.windowMillis)
        .putInt(g)
        .putInt(plan.hashFunctions)
        .putLong(plan.cells)
        .putLong(plan.slotMillis)
        .putLong(gens.slots.origin)
        .putLong(cur)
        .putLong(8L * words.length);
    for (int p = 0; p < g; p++) {
      header.putLong(gens.slotStart(SlotClock.heldSlot(cur, p, g))).putLong(counts[p])
          .putLong(NOT_KEPT);
    }
    CRC32C crc = new CRC32C();
    crc.update(header.array());
    out.write(header.array());
    FilterFormat.writeWords(out, words, crc);
    out.write(ByteBuffer.allocate(FilterFormat.TRAILER_BYTES).putInt((int) crc.getValue()).array());
  }

  static ExpiringGenerations read(InputStream in, Funnel<?> funnel, InstantSource clock) throws IOException {
    CRC32C crc = new CRC32C();
    // The type first, from the 6 bytes every record starts with: a shorter record of another type must be
    // sent to its reader, not called truncated.
    byte[] fixed = FilterFormat.readHeaderBytes(in, 6, "expiring filter header");
    ByteBuffer b = ByteBuffer.wrap(fixed);
    int version = FilterFormat.readVersion(b);
    FilterType type = FilterFormat.readType(b);
    if (type != FilterType.EXPIRING) {
      throw new IOException("filter type " + type.id() + " is not an expiring filter (type "
          + FilterType.EXPIRING.id() + "); read it with " + type.reader());
    }
    if (version != FilterFormat.VERSION) {
      throw new IOException("an expiring filter (type 6) exists only in format version " + FilterFormat.VERSION
          + ", but the file says version " + version);
    }
    fixed = java.util.Arrays.copyOf(fixed, FIXED_HEADER_BYTES);
    FilterFormat.readFully(in, fixed, 6, FIXED_HEADER_BYTES - 6, "expiring filter header");
    crc.update(fixed);
    b = ByteBuffer.wrap(fixed);
    b.position(6);
    int strategy = b.get() & 0xFF;
    if (strategy != HashStrategy.XXH3_64_ENHANCED_DOUBLE.id()) {
      throw new IOException("an expiring filter takes hash strategy " + HashStrategy.XXH3_64_ENHANCED_DOUBLE.id()
          + " (" + HashStrategy.XXH3_64_ENHANCED_DOUBLE + "), but the file says " + strategy);
    }
    KeyType keyType = FilterFormat.readKeyType(b, version);
    long n = b.getLong();
    double p = b.getDouble();
    long window = b.getLong();
    int g = b.getInt();
    int k = b.getInt();
    long cells = b.getLong();
    long slot = b.getLong();
    long origin = b.getLong();
    long cur = b.getLong();
    long payloadBytes = b.getLong();
    ExpiringPlan plan;
    try {
      ExpiringPlan.checkGenerations(g);
      plan = ExpiringPlan.of(n, p, window, g);
    } catch (IllegalArgumentException e) {
      throw new IOException("invalid expiring filter header: " + e.getMessage(), e);
    }
    if (k != plan.hashFunctions || cells != plan.cells || slot != plan.slotMillis) {
      throw new IOException("invalid expiring filter header: n=" + n + ", p=" + p + ", W=" + window + " ms, G=" + g
          + " make k=" + plan.hashFunctions + ", m=" + plan.cells + ", s=" + plan.slotMillis + " ms, but the file says k="
          + k + ", m=" + cells + ", s=" + slot + " ms");
    }
    if (cur < 0 || cur > ExpiringPlan.MAX_SLOT) {
      throw new IOException("invalid expiring filter header: current slot must be in [0, " + ExpiringPlan.MAX_SLOT
          + "], was " + cur);
    }
    if (payloadBytes != 8L * plan.words()) {
      throw new IOException("invalid expiring filter header: payload length must be " + 8L * plan.words()
          + " bytes (G·m/8), was " + payloadBytes);
    }
    byte[] table = new byte[GENERATION_BYTES * g];
    FilterFormat.readFully(in, table, 0, table.length, "generation table");
    crc.update(table);
    ByteBuffer tb = ByteBuffer.wrap(table);
    long[] counts = new long[g];
    long currentEnd = SlotClock.slotStart(origin, plan.slotMillis, cur + g);
    long folded = 0;
    for (int q = 0; q < g; q++) {
      long start = tb.getLong();
      long count = tb.getLong();
      long keptUntil = tb.getLong();
      long held = SlotClock.heldSlot(cur, q, g);
      long expected = SlotClock.slotStart(origin, plan.slotMillis, held);
      if (start != expected) {
        throw new IOException("generation " + q + " starts at " + start + ", but it holds slot " + held
            + ", which starts at origin + slot·s = " + expected);
      }
      if (count < 0) {
        throw new IOException("generation " + q + " has count " + count + ", which must be >= 0");
      }
      if (keptUntil != NOT_KEPT && keptUntil < start) {
        throw new IOException("generation " + q + " is kept until " + keptUntil + ", before its slot starts at " + start);
      }
      if (keptUntil > currentEnd) {
        throw new IOException("generation " + q + " is kept until " + keptUntil + ", after the current generation"
            + " (slot " + cur + ") is forgotten at " + currentEnd + ": no generation of this file lasts that long");
      }
      if (keptUntil > SlotClock.slotStart(origin, plan.slotMillis, held + g)) {
        folded |= 1L << q;
      }
      counts[q] = count;
    }
    long[] words = FilterFormat.readWords(in, plan.words(), crc);
    FilterFormat.checkTrailer(in, (int) crc.getValue());
    FilterFormat.checkKeyType(keyType, funnel);
    foldInto(words, folded, (int) (cur & (g - 1)), g);
    return new ExpiringGenerations(plan, clock, origin, cur, words, counts);
  }

  /**
   * ORs the cells of the generations in {@code folded} into generation {@code into}. A kept-until time
   * later than its generation's own end was written by development builds before 2026-12-02, for an add
   * that raced a step; that add's item must be found until then. This library keeps no generation past
   * its end, so the reader moves such a generation's cells into the current one, which lasts at least as
   * long (a later kept-until time is refused): the items are kept, some of them longer than they were.
   */
  private static void foldInto(long[] words, long folded, int into, int g) {
    if (folded == 0) {
      return;
    }
    long ones = GenerationWords.cellOnes(g);
    for (int w = 0; w < words.length; w++) {
      long cells = 0;
      for (int q = 0; q < g; q++) {
        if ((folded & (1L << q)) != 0) {
          cells |= (words[w] >>> q) & ones;
        }
      }
      words[w] |= cells << into;
    }
  }
}
