package org.concurrentbloom.benchmarks;

import com.google.common.hash.HashCode;
import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import org.apache.commons.collections4.bloomfilter.EnhancedDoubleHasher;
import org.apache.commons.collections4.bloomfilter.Hasher;
import org.apache.commons.collections4.bloomfilter.Shape;
import org.apache.commons.collections4.bloomfilter.SimpleBloomFilter;

/**
 * Apache Commons Collections 4.6's {@code SimpleBloomFilter}, shaped by {@code Shape.fromNP(n, p)}.
 *
 * <p>Commons leaves hashing to the caller. The usual recipe is a 128-bit MurmurHash3 of the key handed
 * to an {@code EnhancedDoubleHasher}; Commons Codec, which the Commons examples use for the hash, is not
 * a dependency here, so the 16 bytes come from Guava's {@code Hashing.murmur3_128()} (UTF-8 bytes of a
 * String, 8 little-endian bytes of a long: the same input bytes as the other filters) through
 * {@code new EnhancedDoubleHasher(byte[])}, which reads the two halves big-endian. Each call therefore
 * allocates a HashCode, a byte[16] and the hasher, as a typical Commons user's code would.
 *
 * <p>SimpleBloomFilter is not thread-safe (a plain {@code long[]} read-modify-write), so it is measured
 * with one thread only.
 */
final class CommonsFilter implements FilterUnderTest {
  private static final HashFunction MURMUR = Hashing.murmur3_128();

  private final SimpleBloomFilter filter;

  CommonsFilter(long n, double fpp) {
    filter = new SimpleBloomFilter(Shape.fromNP(Math.toIntExact(n), fpp));
  }

  @Override
  public boolean add(Object key) {
    return filter.merge(hasher(key));
  }

  @Override
  public boolean mightContain(Object key) {
    return filter.contains(hasher(key));
  }

  @Override
  public void fill(KeyType type, long from, long to) {
    for (long i = from; i < to; i++) {
      filter.merge(hasher(type.key(i)));
    }
  }

  @Override
  public void reset() {
    filter.clear();
  }

  static Hasher hasher(Object key) {
    HashCode hash = key instanceof Long value
        ? MURMUR.hashLong(value)
        : MURMUR.hashString((CharSequence) key, StandardCharsets.UTF_8);
    return new EnhancedDoubleHasher(hash.asBytes());
  }
}
