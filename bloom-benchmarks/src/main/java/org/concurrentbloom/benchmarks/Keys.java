package org.concurrentbloom.benchmarks;

/**
 * Deterministic benchmark keys by index: e-mail-like strings such as {@code maria.okafor123@example.org}
 * and well-mixed longs. Distinct indices give distinct keys, so "key i for i &lt; n" is exactly the set a
 * filled filter holds and any index from n on is a key it never saw; nothing has to be stored to know
 * which keys are present.
 */
public final class Keys {
  private static final String[] FIRST = {
      "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "kenji", "lars",
      "maria", "niaj", "olivia", "peggy", "quinn", "rupert", "sanjay", "trent", "ursula", "victor",
      "wei", "xena", "yusuf", "zoe", "amara", "diego", "fatima", "noor", "sofia", "tomasz"};
  private static final String[] LAST = {
      "smith", "garcia", "nguyen", "mueller", "rossi", "kim", "silva", "novak", "okafor", "tanaka",
      "jensen", "dubois", "kowalski", "haddad", "murphy", "ivanova"};
  private static final String[] DOMAIN = {
      "example.com", "example.org", "example.net", "mail.example.com", "corp.example",
      "shop.example.org", "users.example.net", "post.example"};

  private Keys() {}

  /**
   * Key {@code index} as an e-mail-like string. The local part ends with the decimal index right after a
   * letter, so two indices never give the same string.
   */
  public static String email(long index) {
    long h = mix(index);
    return FIRST[(int) (h & 31)] + '.' + LAST[(int) ((h >>> 8) & 15)] + index + '@' + DOMAIN[(int) ((h >>> 16) & 7)];
  }

  /** Key {@code index} as a long: a bijective mix of the index, so keys differ and are not sequential. */
  public static long longKey(long index) {
    return mix(index);
  }

  /** The SplitMix64 finalizer: a bijection on longs that spreads every input bit over the output. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
