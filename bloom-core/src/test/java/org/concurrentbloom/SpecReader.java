package org.concurrentbloom;

import com.dynatrace.hash4j.hashing.Hashing;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A reader of concurrent-bloom files written from docs/FORMAT.md and docs/HASHING.md alone, as someone
 * porting the format to another language would write it. It uses nothing from the library (only the
 * JDK, and for strategies 4 and 5 hash4j's XXH3-64 as the hash primitive that HASHING.md names), not even
 * its CRC: everything here follows the documents' text (the key bytes, h2 and the probes of strategies 4
 * and 5 included), so that {@link SpecReaderTest} comparing it with the library tests the documents as
 * much as the code.
 *
 * <p>Where the documents give a formula in unbounded integers (the fast-range reduction), this reader
 * computes it with {@link BigInteger}, literally.
 */
final class SpecReader {
  private SpecReader() {}

  /** A file the documents say a reader must refuse. */
  static final class Rejected extends Exception {
    private static final long serialVersionUID = 1L;

    Rejected(String why) {
      super(why);
    }
  }

  // ------------------------------------------------------------------ HASHING.md section 1: bytes

  /** UTF-8 of a string, code point by code point; an unpaired surrogate becomes the byte 0x3F ('?'). */
  static byte[] utf8(CharSequence s) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      int c = s.charAt(i);
      if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.length() && s.charAt(i + 1) >= 0xDC00 && s.charAt(i + 1) <= 0xDFFF) {
        c = 0x10000 + ((c - 0xD800) << 10) + (s.charAt(++i) - 0xDC00);
      } else if (c >= 0xD800 && c <= 0xDFFF) {
        c = '?';
      }
      if (c < 0x80) {
        out.write(c);
      } else if (c < 0x800) {
        out.write(0xC0 | c >> 6);
        out.write(0x80 | (c & 0x3F));
      } else if (c < 0x10000) {
        out.write(0xE0 | c >> 12);
        out.write(0x80 | ((c >> 6) & 0x3F));
        out.write(0x80 | (c & 0x3F));
      } else {
        out.write(0xF0 | c >> 18);
        out.write(0x80 | ((c >> 12) & 0x3F));
        out.write(0x80 | ((c >> 6) & 0x3F));
        out.write(0x80 | (c & 0x3F));
      }
    }
    return out.toByteArray();
  }

  /**
   * Strategies 4 and 5: a string as its UTF-16 code units, 2 bytes each, least significant first. Every
   * char is written as it is: a surrogate pair is two units, an unpaired surrogate one.
   */
  static byte[] utf16le(CharSequence s) {
    byte[] b = new byte[2 * s.length()];
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b[2 * i] = (byte) c;
      b[2 * i + 1] = (byte) (c >>> 8);
    }
    return b;
  }

  /** The bytes a string key hashes as under a strategy: UTF-16LE for 4, 5 and 6, UTF-8 for the others. */
  static byte[] stringBytes(CharSequence s, int strategy) {
    return isXxh3(strategy) ? utf16le(s) : utf8(s);
  }

  /** A 64-bit integer key: 8 bytes, least significant first. */
  static byte[] longBytes(long v) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  /** A 32-bit integer key: 4 bytes, least significant first. */
  static byte[] intBytes(int v) {
    byte[] b = new byte[4];
    for (int i = 0; i < 4; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  // ------------------------------------------------------------------ HASHING.md section 2: hash

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  /** MurmurHash3_x64_128 with seed 0, transcribed from the reference C code: {h1, h2}. */
  static long[] murmur3(byte[] data) {
    int len = data.length;
    int nblocks = len / 16;
    long h1 = 0;
    long h2 = 0;
    for (int i = 0; i < nblocks; i++) {
      long k1 = littleEndian(data, 16 * i, 8);
      long k2 = littleEndian(data, 16 * i + 8, 8);
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
      h1 = Long.rotateLeft(h1, 27);
      h1 += h2;
      h1 = h1 * 5 + 0x52dce729;
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
      h2 = Long.rotateLeft(h2, 31);
      h2 += h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = 16 * nblocks;
    int rest = len & 15;
    long k1 = 0;
    long k2 = 0;
    for (int i = rest - 1; i >= 8; i--) { // the reference's switch, cases 15 down to 9
      k2 ^= (long) (data[tail + i] & 0xFF) << (8 * (i - 8));
    }
    if (rest > 8) {
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
    }
    for (int i = Math.min(rest, 8) - 1; i >= 0; i--) { // cases 8 down to 1
      k1 ^= (long) (data[tail + i] & 0xFF) << (8 * i);
    }
    if (rest > 0) {
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return new long[] {h1, h2};
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  private static long littleEndian(byte[] b, int off, int n) {
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = v << 8 | (b[off + i] & 0xFF);
    }
    return v;
  }

  /** True for the strategies that hash with XXH3-64: 4 and 5. */
  static boolean isXxh3(int strategy) {
    return strategy == 4 || strategy == 5 || strategy == 6;
  }

  /** XXH3-64 with seed 0 (XXH3_64bits); the one primitive taken from a library, hash4j. */
  static long xxh3(byte[] data) {
    return Hashing.xxh3_64().hashBytesToLong(data);
  }

  /** Strategies 4 and 5: h2 is the SplitMix64 finalizer of h1, with the golden-ratio increment first. */
  static long splitMix64(long h1) {
    long z = h1 + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Strategies 4 and 5: {h1, h2} of the key bytes. */
  static long[] xxh3Pair(byte[] data) {
    long h1 = xxh3(data);
    return new long[] {h1, splitMix64(h1)};
  }

  /** {h1, h2} of the key bytes under a strategy: MurmurHash3 for 1 to 3, XXH3-64 + SplitMix64 for 4, 5. */
  static long[] hash(int strategy, byte[] data) {
    return isXxh3(strategy) ? xxh3Pair(data) : murmur3(data);
  }

  // ------------------------------------------------------------------ HASHING.md section 3: probes

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  static BigInteger unsigned(long v) {
    return new BigInteger(Long.toUnsignedString(v));
  }

  /** floor(h * r / 2^64), h read as unsigned. */
  static long fastRange(long h, long r) {
    return unsigned(h).multiply(BigInteger.valueOf(r)).divide(TWO_64).longValueExact();
  }

  /** Strategy 1 (types 1 and 4): the k positions, in probe order. */
  static long[] standardProbes(long h1, long h2, long m, int k) {
    long[] out = new long[k];
    BigInteger bm = BigInteger.valueOf(m);
    BigInteger x = BigInteger.valueOf(fastRange(h1, m));
    BigInteger y = BigInteger.valueOf(fastRange(h2, m));
    for (int i = 1; i <= k; i++) {
      out[i - 1] = x.longValueExact();
      x = x.add(y).mod(bm);
      y = y.add(BigInteger.valueOf(i)).mod(bm);
    }
    return out;
  }

  static final long BLOCK_REMIX = 0x9E3779B97F4A7C15L;

  /** Strategy 2: the block, B = m / 512 blocks. */
  static long blockOf(long h1, long m) {
    return fastRange(h1, m / 512);
  }

  /** Strategy 2: the k positions inside the block, 0..511: the top 9 bits of h2 * C^i mod 2^64. */
  static int[] inBlock(long h2, int k) {
    int[] out = new int[k];
    BigInteger h = unsigned(h2);
    BigInteger c = unsigned(BLOCK_REMIX);
    for (int i = 0; i < k; i++) {
      out[i] = h.shiftRight(55).intValueExact();
      h = h.multiply(c).mod(TWO_64);
    }
    return out;
  }

  /** Strategy 2: the global bit indices, 512 * block + position. */
  static long[] blockedProbes(long h1, long h2, long m, int k) {
    long block = blockOf(h1, m);
    int[] pos = inBlock(h2, k);
    long[] out = new long[k];
    for (int i = 0; i < k; i++) {
      out[i] = 512 * block + pos[i];
    }
    return out;
  }

  /**
   * Strategy 6 (HASHING.md section 8): g = h1 * 0x9E3779B97F4A7C15; the first ceil(k/2) fields of g, 6
   * bits each from the top, in word 8 block + (g & 3), the others in word 8 block + 4 + ((g >> 2) & 3).
   */
  static long[] wordPairProbes(long h1, long m, int k) {
    long block = blockOf(h1, m);
    BigInteger g = unsigned(h1).multiply(unsigned(0x9E3779B97F4A7C15L)).mod(TWO_64);
    long first = 8 * block + g.and(BigInteger.valueOf(3)).longValueExact();
    long second = 8 * block + 4 + g.shiftRight(2).and(BigInteger.valueOf(3)).longValueExact();
    int c = (k + 1) / 2;
    long[] out = new long[k];
    for (int i = 0; i < k; i++) {
      long field = g.shiftRight(58 - 6 * i).and(BigInteger.valueOf(63)).longValueExact();
      out[i] = 64 * (i < c ? first : second) + field;
    }
    return out;
  }

  /** Strategy 3: probe i (0-based) is ((h1 + i * h2) mod 2^64, top bit cleared) mod m. */
  static long[] guavaProbes(long h1, long h2, long m, int k) {
    long[] out = new long[k];
    BigInteger mask = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
    for (int i = 0; i < k; i++) {
      BigInteger combined = unsigned(h1).add(BigInteger.valueOf(i).multiply(unsigned(h2))).mod(TWO_64);
      out[i] = combined.and(mask).mod(BigInteger.valueOf(m)).longValueExact();
    }
    return out;
  }

  /** The positions for a record's type. */
  static long[] probes(int type, long[] h, long m, int k) {
    switch (type) {
      case 1:
      case 4:
        return standardProbes(h[0], h[1], m, k);
      case 2:
        return blockedProbes(h[0], h[1], m, k);
      case 3:
        return guavaProbes(h[0], h[1], m, k);
      default:
        throw new IllegalArgumentException("type " + type);
    }
  }

  /** The positions for a hash strategy: 1 and 4 standard, 2 and 5 blocked, 6 two words of a block, 3 Guava's. */
  static long[] probesOfStrategy(int strategy, long[] h, long m, int k) {
    switch (strategy) {
      case 1:
      case 4:
        return standardProbes(h[0], h[1], m, k);
      case 2:
      case 5:
        return blockedProbes(h[0], h[1], m, k);
      case 6:
        return wordPairProbes(h[0], m, k);
      case 3:
        return guavaProbes(h[0], h[1], m, k);
      default:
        throw new IllegalArgumentException("strategy " + strategy);
    }
  }

  // ------------------------------------------------------------------ FORMAT.md: CRC-32C

  /** CRC-32C (Castagnoli): reflected polynomial 0x82F63B78, initial value and final xor 0xFFFFFFFF. */
  static int crc32c(byte[] b, int off, int len) {
    int crc = 0xFFFFFFFF;
    for (int i = off; i < off + len; i++) {
      crc ^= b[i] & 0xFF;
      for (int j = 0; j < 8; j++) {
        crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0x82F63B78 : crc >>> 1;
      }
    }
    return ~crc;
  }

  // ------------------------------------------------------------------ FORMAT.md: records

  static final long MAX_WORDS = (1L << 31) - 9;

  /** One filter record (types 1 to 4), parsed and checked. */
  @SuppressWarnings("JavaLangClash") // the spec's name for it; never confused with java.lang.Record here
  record Record(int version, int type, int strategy, int keyType, long m, int k, long n, double p, long count,
      long[] payload, int length) {
    /** Bit i (types 1 to 3) or whether counter i is non-zero (type 4). */
    boolean isSet(long i) {
      if (type == 4) {
        return counter(i) != 0;
      }
      return (payload[(int) (i / 64)] >>> (i % 64) & 1) != 0;
    }

    int counter(long i) {
      return (int) (payload[(int) (i / 16)] >>> (4 * (i % 16))) & 15;
    }

    /**
     * "Might contain": every probe position set (non-zero). {@code key} is the key's bytes under this
     * record's strategy (for a string, {@link #stringBytes}).
     */
    boolean mightContain(byte[] key) {
      for (long x : probesOfStrategy(strategy, hash(strategy, key), m, k)) {
        if (!isSet(x)) {
          return false;
        }
      }
      return true;
    }
  }

  /** A scalable file (type 5). */
  record Scalable(int version, int strategy, int keyType, long n0, double p, int s, double r, long cap,
      List<Record> layers, int length) {
    /** A scalable filter answers "maybe" iff some layer does. */
    boolean mightContain(byte[] key) {
      for (Record layer : layers) {
        if (layer.mightContain(key)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * An expiring file (type 6, FORMAT.md "Type 6: expiring"). {@code starts}, {@code counts} and
   * {@code keptUntil} are the generation table, indexed by generation; {@code words} the interleaved payload.
   */
  record Expiring(int version, int strategy, int keyType, long n, double p, long w, int g, int k, long m, long s,
      long origin, long c, long[] starts, long[] counts, long[] keptUntil, long[] words, int length) {
    /** i_g = c − ((c − g) mod G): the slot generation g holds. */
    long slotOf(int gen) {
      return c - Math.floorMod(c - gen, (long) g);
    }

    /** origin + i·s in unbounded integers. */
    BigInteger slotStart(long i) {
      return BigInteger.valueOf(origin).add(BigInteger.valueOf(i).multiply(BigInteger.valueOf(s)));
    }

    /** The slot of clock time t: ⌊(t − origin) / s⌋ in unbounded integers, capped at 2^55 − 1 (the largest c). */
    BigInteger clockSlot(long t) {
      BigInteger[] qr = BigInteger.valueOf(t).subtract(BigInteger.valueOf(origin)).divideAndRemainder(BigInteger.valueOf(s));
      BigInteger floor = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
      return floor.min(BigInteger.valueOf(MAX_SLOT));
    }

    /**
     * Generation gen is valid at t while slot(t) &lt; i_g + G (for a slot below the cap: t &lt; origin + (i_g +
     * G)·s). Kept-until times were applied when the file was read ({@link #words} has their cells).
     */
    boolean isValid(int gen, long t) {
      return clockSlot(t).compareTo(BigInteger.valueOf(slotOf(gen) + g)) < 0;
    }

    /** E_g: origin + (i_g + G)·s, clamped to the signed 64-bit range as the start fields are. */
    long forgottenFrom(int gen) {
      return slotStart(slotOf(gen) + g).max(BigInteger.valueOf(Long.MIN_VALUE)).min(BigInteger.valueOf(Long.MAX_VALUE))
          .longValueExact();
    }

    /** Bit gen of cell x: bit (x mod (64/G))·G + gen of word ⌊x / (64/G)⌋. */
    boolean cell(long x, int gen) {
      int cellsPerWord = 64 / g;
      long word = words[(int) (x / cellsPerWord)];
      return ((word >>> ((x % cellsPerWord) * g + gen)) & 1) != 0;
    }

    /**
     * "Might contain" at clock time t: some generation valid at t has all k cells of the key (strategy 4
     * probes over m) set. {@code key} is the key's bytes under strategy 4 (a string: UTF-16LE).
     */
    boolean mightContain(byte[] key, long t) {
      long[] cells = standardProbes(xxh3(key), splitMix64(xxh3(key)), m, k);
      for (int gen = 0; gen < g; gen++) {
        if (!isValid(gen, t)) {
          continue;
        }
        boolean all = true;
        for (long x : cells) {
          if (!cell(x, gen)) {
            all = false;
            break;
          }
        }
        if (all) {
          return true;
        }
      }
      return false;
    }
  }

  /** The sizing FORMAT.md says a type 6 reader recomputes: {s, m, k}, or null if the pair is invalid. */
  static long[] expiringSizing(long n, double p, long w, int g) {
    long s = (w + (g - 1) - 1) / (g - 1); // ⌈W / (G − 1)⌉, W ≥ 1000 and G ≥ 2
    long nSlot = Math.max(1, (long) Math.ceil((double) n * (double) s / (double) w));
    double pg = -Math.expm1(Math.log1p(-p) / g);
    double mOpt = -(double) nSlot * Math.log(pg) / (Math.log(2) * Math.log(2));
    if (!(mOpt >= 1) || Math.ceil(mOpt) > 64.0 * MAX_WORDS) {
      return null;
    }
    long bits = (long) Math.ceil(mOpt);
    long m = Math.max(64, 64 * ((bits + 63) / 64));
    long k = Math.max(1, Math.min(2048, Math.round(mOpt / nSlot * Math.log(2))));
    if (BigInteger.valueOf(g).multiply(BigInteger.valueOf(m)).compareTo(BigInteger.valueOf(64 * MAX_WORDS)) > 0) {
      return null;
    }
    return new long[] {s, m, k};
  }

  private static final long NO_KEPT_UNTIL = Long.MIN_VALUE;

  /** The largest slot number: the largest c, and the slot of every clock time past its start. */
  static final long MAX_SLOT = (1L << 55) - 1;

  /** Reads an expiring file (type 6) starting at byte 0. */
  static Expiring readExpiring(byte[] f) throws Rejected {
    if (f.length < 80) {
      throw new Rejected("truncated header");
    }
    ByteBuffer b = ByteBuffer.wrap(f);
    int version = f[4] & 0xFF;
    int strategy = f[6] & 0xFF;
    int keyType = f[7] & 0xFF;
    long n = b.getLong(8);
    double p = b.getDouble(16);
    long w = b.getLong(24);
    int g = b.getInt(32);
    int k = b.getInt(36);
    long m = b.getLong(40);
    long s = b.getLong(48);
    long origin = b.getLong(56);
    long c = b.getLong(64);
    long payloadBytes = b.getLong(72);
    if (version != 2) {
      throw new Rejected("expiring version");
    }
    if (strategy != 4) {
      throw new Rejected("expiring strategy");
    }
    if (keyType > 4) {
      throw new Rejected("byte 7");
    }
    if (n < 1) {
      throw new Rejected("n");
    }
    if (!(p > 0 && p < 1)) {
      throw new Rejected("p");
    }
    if (w < 1000 || w > Long.MAX_VALUE / 256) {
      throw new Rejected("window W");
    }
    if (g != 2 && g != 4 && g != 8 && g != 16 && g != 32 && g != 64) {
      throw new Rejected("generations G");
    }
    long[] sizing = expiringSizing(n, p, w, g);
    if (sizing == null) {
      throw new Rejected("sizing invalid");
    }
    if (s != sizing[0]) {
      throw new Rejected("slot length s");
    }
    if (m != sizing[1]) {
      throw new Rejected("bits per generation m");
    }
    if (k != sizing[2]) {
      throw new Rejected("probes k");
    }
    if (c < 0 || c > MAX_SLOT) {
      throw new Rejected("current slot c");
    }
    if (payloadBytes != g * m / 8) {
      throw new Rejected("L");
    }
    long total = 80 + 24L * g + payloadBytes + 4;
    if (f.length < total) {
      throw new Rejected("truncated payload");
    }
    long[] starts = new long[g];
    long[] counts = new long[g];
    long[] keptUntil = new long[g];
    for (int gen = 0; gen < g; gen++) {
      starts[gen] = b.getLong(80 + 24 * gen);
      counts[gen] = b.getLong(80 + 24 * gen + 8);
      keptUntil[gen] = b.getLong(80 + 24 * gen + 16);
    }
    long[] words = new long[(int) (payloadBytes / 8)];
    int payloadAt = 80 + 24 * g;
    for (int i = 0; i < words.length; i++) {
      words[i] = b.getLong(payloadAt + 8 * i);
    }
    if (b.getInt((int) total - 4) != crc32c(f, 0, (int) total - 4)) {
      throw new Rejected("CRC");
    }
    Expiring e = new Expiring(version, strategy, keyType, n, p, w, g, k, m, s, origin, c, starts, counts, keptUntil,
        words, (int) total);
    for (int gen = 0; gen < g; gen++) {
      BigInteger exact = e.slotStart(e.slotOf(gen));
      BigInteger clamped = exact.max(BigInteger.valueOf(Long.MIN_VALUE)).min(BigInteger.valueOf(Long.MAX_VALUE));
      if (!clamped.equals(BigInteger.valueOf(starts[gen]))) {
        throw new Rejected("generation start");
      }
      if (counts[gen] < 0) {
        throw new Rejected("generation count");
      }
      if (keptUntil[gen] != NO_KEPT_UNTIL && keptUntil[gen] < starts[gen]) {
        throw new Rejected("kept-until before start");
      }
    }
    // Kept-until times of older files: refused past the current generation's end, else that generation
    // takes the cells of every generation kept past its own end.
    int current = (int) Math.floorMod(c, (long) g);
    for (int gen = 0; gen < g; gen++) {
      if (keptUntil[gen] > e.forgottenFrom(current)) {
        throw new Rejected("kept-until past the current generation's end");
      }
    }
    for (int gen = 0; gen < g; gen++) {
      if (keptUntil[gen] > e.forgottenFrom(gen)) {
        for (long x = 0; x < m; x++) {
          if (e.cell(x, gen)) {
            int cellsPerWord = 64 / g;
            words[(int) (x / cellsPerWord)] |= 1L << ((x % cellsPerWord) * g + current);
          }
        }
      }
    }
    return e;
  }

  /** Reads a whole file: exactly one record of any type, and nothing after it. */
  static Object readFile(byte[] file) throws Rejected {
    if (file.length < 4 || file[0] != 'C' || file[1] != 'B' || file[2] != 'L' || file[3] != 'M') {
      throw new Rejected("not a concurrent-bloom filter");
    }
    if (file.length < 6) {
      throw new Rejected("truncated");
    }
    int length;
    Object result;
    if ((file[5] & 0xFF) == 5) {
      Scalable s = readScalable(file);
      length = s.length();
      result = s;
    } else if ((file[5] & 0xFF) == 6) {
      Expiring e = readExpiring(file);
      length = e.length();
      result = e;
    } else {
      Record r = readRecord(file, 0, 0);
      length = r.length();
      result = r;
    }
    if (length != file.length) {
      throw new Rejected("bytes after the record");
    }
    return result;
  }

  /**
   * Reads the record at {@code off}. {@code layerOf} is 0 for a file of its own, else the version of the
   * scalable file it is a layer of.
   */
  static Record readRecord(byte[] f, int off, int layerOf) throws Rejected {
    if (f.length - off < 52) {
      throw new Rejected("truncated header");
    }
    ByteBuffer b = ByteBuffer.wrap(f, off, 52).slice();
    if (b.getInt(0) != 0x43424C4D) {
      throw new Rejected("magic");
    }
    int version = b.get(4) & 0xFF;
    int type = b.get(5) & 0xFF;
    int strategy = b.get(6) & 0xFF;
    int keyType = b.get(7) & 0xFF;
    long m = b.getLong(8);
    int k = b.getInt(16);
    long n = b.getLong(20);
    double p = b.getDouble(28);
    long count = b.getLong(36);
    long payloadBytes = b.getLong(44);
    if (version != 1 && version != 2) {
      throw new Rejected("version");
    }
    if (type < 1 || type > 4) {
      throw new Rejected("type");
    }
    // Types 1 and 4 take strategy 1 or 4, type 2 takes 2, 5 or 6, type 3 takes 3.
    boolean admitted = (type == 1 || type == 4) ? (strategy == 1 || strategy == 4)
        : type == 2 ? (strategy == 2 || strategy == 5 || strategy == 6)
        : strategy == 3;
    if (!admitted) {
      throw new Rejected("strategy");
    }
    if (version == 1 ? keyType != 0 : keyType > 4) {
      throw new Rejected("byte 7");
    }
    long maxM = type == 4 ? 16 * MAX_WORDS : 64 * MAX_WORDS;
    if (m < 1 || m > maxM) {
      throw new Rejected("m");
    }
    if (k < 1 || k > (type == 3 ? 255 : 2048)) {
      throw new Rejected("k");
    }
    if (n < 1) {
      throw new Rejected("n");
    }
    if (!(p > 0 && p < 1)) {
      throw new Rejected("p");
    }
    if (count < 0) {
      throw new Rejected("count");
    }
    long words = type == 4 ? (m + 15) / 16 : (m + 63) / 64;
    if (payloadBytes != 8 * words) {
      throw new Rejected("L");
    }
    if (type == 2 && m % 512 != 0) {
      throw new Rejected("blocked m");
    }
    if (type == 2 && strategy == 6 && k > 10) {
      throw new Rejected("word-pair k");
    }
    if (type == 3 && m % 64 != 0) {
      throw new Rejected("guava m");
    }
    if (layerOf != 0 && version != layerOf) {
      throw new Rejected("layer version");
    }
    long total = 52 + payloadBytes + 4;
    if (f.length - off < total) {
      throw new Rejected("truncated payload");
    }
    ByteBuffer body = ByteBuffer.wrap(f, off, (int) total).slice();
    long[] payload = new long[(int) words];
    for (int w = 0; w < words; w++) {
      payload[w] = body.getLong(52 + 8 * w);
    }
    if (body.getInt((int) total - 4) != crc32c(f, off, (int) total - 4)) {
      throw new Rejected("CRC");
    }
    long unused = type == 4 ? 16 * words - m : 64 * words - m; // cells past m in the last word
    int cellBits = type == 4 ? 4 : 1;
    if (unused > 0 && payload[(int) words - 1] >>> (64 - unused * cellBits) != 0) {
      throw new Rejected("past m");
    }
    return new Record(version, type, strategy, keyType, m, k, n, p, count, payload, (int) total);
  }

  /** Reads a scalable file starting at byte 0 (it never has bytes before it). */
  static Scalable readScalable(byte[] f) throws Rejected {
    if (f.length < 48) {
      throw new Rejected("truncated header");
    }
    ByteBuffer b = ByteBuffer.wrap(f, 0, 48);
    int version = f[4] & 0xFF;
    int strategy = f[6] & 0xFF;
    int keyType = f[7] & 0xFF;
    long n0 = b.getLong(8);
    double p = b.getDouble(16);
    int s = b.getInt(24);
    double r = b.getDouble(28);
    long cap = b.getLong(36);
    int layerCount = b.getInt(44);
    if (version != 1 && version != 2) {
      throw new Rejected("version");
    }
    if (strategy < 1 || strategy > 6 || strategy == 3) {
      throw new Rejected("strategy");
    }
    int layerType = strategy == 1 || strategy == 4 ? 1 : 2;
    if (version == 1 ? keyType != 0 : keyType > 4) {
      throw new Rejected("byte 7");
    }
    if (n0 < 1 || !(p > 0 && p < 1) || s < 2 || s > 1024 || !(r > 0 && r < 1) || cap < 0
        || cap == Long.MAX_VALUE) {
      throw new Rejected("growth parameters");
    }
    if (layerCount < 1 || layerCount > 64) {
      throw new Rejected("layer count L");
    }
    List<Record> layers = new ArrayList<>();
    int off = 48;
    long capacity = n0;
    boolean overflowed = false;
    double rate = p * (1 - r);
    BigInteger bits = BigInteger.ZERO;
    for (int i = 0; i < layerCount; i++) {
      Record layer = readRecord(f, off, version);
      if (layer.keyType() != keyType) {
        throw new Rejected("layer key type");
      }
      if (layer.type() != layerType) {
        throw new Rejected("layer type");
      }
      if (layer.strategy() != strategy) {
        throw new Rejected("layer strategy");
      }
      if (overflowed || layer.n() != capacity) {
        throw new Rejected("layer n");
      }
      if (Double.doubleToRawLongBits(layer.p()) != Double.doubleToRawLongBits(rate)) {
        throw new Rejected("layer p");
      }
      if (layer.count() > layer.n()) {
        throw new Rejected("layer count above n");
      }
      layers.add(layer);
      bits = bits.add(BigInteger.valueOf(layer.m()));
      off += layer.length();
      BigInteger next = BigInteger.valueOf(capacity).multiply(BigInteger.valueOf(s));
      overflowed = next.bitLength() > 63;
      capacity = next.longValue();
      rate *= r;
    }
    if (cap != 0 && bits.compareTo(BigInteger.valueOf(cap)) > 0) {
      throw new Rejected("cap");
    }
    if (f.length - off < 4) {
      throw new Rejected("truncated trailer");
    }
    if (ByteBuffer.wrap(f).getInt(off) != crc32c(f, 0, off)) {
      throw new Rejected("CRC");
    }
    return new Scalable(version, strategy, keyType, n0, p, s, r, cap, List.copyOf(layers), off + 4);
  }
}
