package org.concurrentbloom.cli;

/**
 * Deterministic, e-mail-address-like keys for {@code bloom demo}, such as
 * {@code maria.okafor1234@example.org} or {@code k_tanaka77@mail.example.com}. Key {@code i} depends
 * only on the seed and {@code i}, so any range can be regenerated, and it ends its local part with the
 * decimal digits of {@code i} right after a letter, so keys with different indices always differ.
 */
final class DemoKeys {
  private static final String[] FIRST = {
      "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "kenji", "lars",
      "maria", "niaj", "olivia", "peggy", "quinn", "rupert", "sanjay", "trent", "ursula", "victor",
      "wei", "xena", "yusuf", "zoe", "amara", "diego", "fatima", "noor", "sofia", "tomasz"};
  private static final String[] LAST = {
      "smith", "garcia", "nguyen", "mueller", "rossi", "kim", "silva", "novak", "okafor", "tanaka",
      "jensen", "dubois", "kowalski", "haddad", "murphy", "ivanova", "chen", "patel", "larsen", "moreau"};
  private static final String[] DOMAIN = {
      "example.com", "example.org", "example.net", "mail.example.com", "corp.example",
      "shop.example.org", "users.example.net", "post.example"};
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private final long seed;

  DemoKeys(long seed) {
    this.seed = seed;
  }

  /** Key number {@code index} (non-negative). */
  String key(long index) {
    long h = mix(seed + (index + 1) * GOLDEN);
    String first = FIRST[(int) ((h & 0xFFFF) % FIRST.length)];
    String last = LAST[(int) (((h >>> 16) & 0xFFFF) % LAST.length)];
    String domain = DOMAIN[(int) (((h >>> 32) & 0xFFFF) % DOMAIN.length)];
    StringBuilder sb = new StringBuilder(48);
    switch ((int) ((h >>> 48) & 7)) {
      case 0, 1, 2 -> sb.append(first).append('.').append(last);
      case 3, 4 -> sb.append(first.charAt(0)).append('_').append(last);
      case 5 -> sb.append(first).append(last.charAt(0));
      case 6 -> sb.append(first);
      default -> sb.append("user");
    }
    return sb.append(index).append('@').append(domain).toString();
  }

  /** A 64-bit finalizer (the SplitMix64 output function): spreads every input bit over the output. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
