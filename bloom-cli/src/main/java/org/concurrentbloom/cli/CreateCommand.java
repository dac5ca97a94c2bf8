package org.concurrentbloom.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.ScalableBloomFilter;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code bloom create}: sizes a new filter, adds the keys of {@code --input} if given, and writes it. */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description = {
        "Create a filter file, optionally filled with keys.",
        "",
        "Sizes a filter for N keys at false-positive probability P, adds the keys read from --input "
            + "(if given), and writes it to FILE: a regular file is replaced atomically if it exists "
            + "(keeping its owner, group and mode; the update needs room for a second copy), - is "
            + "standard output, and a character device or FIFO is written into. Prints one summary "
            + "line (on standard error when the filter goes to standard output).",
        "",
        "Filter types: standard (the default), --blocked (one cache line per key: faster, a few "
            + "percent larger), --guava (Guava's layout: bloom export --guava writes it for Guava), "
            + "--counting (4-bit counters, 4x the memory: bloom remove can take keys out), --scalable "
            + "(grows layer by layer as keys come, keeping the false-positive rate below P; --initial "
            + "sets the first layer's capacity; with --blocked its layers are blocked), --window W "
            + "(expiring: remembers each key for W and forgets it soon after; N is the keys per window, "
            + "--generations sets how soon).",
        "",
        "Hash strategy: new filters hash keys with XXH3-64 (strategy 4; 5 for --blocked), which releases "
            + "before it cannot read; --hash-strategy murmur3 writes MurmurHash3 (strategy 1; 2 for "
            + "--blocked) as they did, for standard, blocked, scalable and counting filters alike. "
            + "Guava-compatible filters always use Guava's (3); expiring ones XXH3-64 (4). A scalable "
            + "filter's layers take the strategies of their layout."})
final class CreateCommand implements Callable<Integer> {
  private static final double SCALABLE_FIRST_LAYER_SHARE = 1 - ScalableBloomFilter.Builder.DEFAULT_TIGHTENING_RATIO;

  @ParentCommand
  private BloomCli parent;

  @Spec
  private CommandSpec spec;

  @Option(names = {"-n", "--expected"}, paramLabel = "N",
      description = "Number of keys the filter is sized for (at least 1); with --window, the keys added "
          + "per window at a steady rate (each generation holds one span's share, about N/(G-1)). Required, "
          + "except with --scalable.")
  private Long expected;

  @Option(names = {"-p", "--fpp"}, required = true, paramLabel = "P",
      description = "Target false-positive probability once N keys are in, in (0, 1), e.g. 0.01.")
  private double fpp;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
      description = "The filter file to write, or - for standard output.")
  private Path output;

  @Option(names = "--blocked",
      description = "The cache-blocked layout: one memory access per query, a few percent more bits; with "
          + "--scalable, for every layer.")
  private boolean blocked;

  @ArgGroup(exclusive = true)
  private TypeChoice type = new TypeChoice();

  static final class TypeChoice {
    @Option(names = "--guava", description = "Guava's layout and sizing, for bloom export --guava.")
    boolean guava;

    @Option(names = "--counting", description = "4-bit counters instead of bits, so bloom remove works.")
    boolean counting;

    @Option(names = "--scalable", description = "Layers added as keys come; the rate stays below P.")
    boolean scalable;
  }

  @Mixin
  private ExpiringOptions expiring = new ExpiringOptions();

  @Option(names = "--initial", paramLabel = "N0",
      description = "With --scalable: the first layer's capacity (default: N if given, else 10000).")
  private Long initial;

  @Option(names = {"-k", "--key-type"}, paramLabel = "TYPE", defaultValue = "string",
      converter = KeyTypeOption.class,
      description = "What the keys are: string (UTF-8 text, the default), long or int (decimal "
          + "integers), bytes (hexadecimal). Recorded in the file.")
  private KeyCodec keyType;

  @Option(names = "--hash-strategy", paramLabel = "HASH", converter = HashStrategyOption.class,
      description = "How keys are hashed: " + HashStrategyOption.VALUES + ". Default: xxh3 (4, or 5 for "
          + "--blocked); murmur3 (1, or 2 for --blocked) makes files that releases before 4 read.")
  private HashStrategyOption.Choice hashStrategy;

  @Option(names = {"-i", "--input"}, paramLabel = "KEYS",
      description = "Keys to add, one per line: a file, or - for standard input.")
  private String input;

  @Override
  @SuppressWarnings("try") // the try holds the destination's lock for its body
  public Integer call() throws CliException {
    CliStreams io = parent.streams();
    Destination dest = FilterFiles.destination(output);
    FilterType kind = kind();
    HashStrategy strategy = strategy(kind);
    // An expiring filter's options are checked before the lock, so a bad --window leaves no file behind.
    ExpiringBloomFilter.Builder<Object> expiringBuilder = kind == FilterType.EXPIRING
        ? expiring.builder(spec.commandLine(), keyType.funnel(), expected, fpp) : null;
    MembershipFilter<Object> filter;
    try (FilterFiles.Held held = FilterFiles.lock(dest, io)) {
      filter = expiringBuilder != null ? newExpiring(expiringBuilder) : newFilter(kind, strategy, keyType.funnel());
      FilterFile file = new FilterFile(kind, keyType, keyType.keyType, filter);
      long keys = input == null ? 0 : new KeyInput(io, false).forEach(input, file::add);
      FilterFiles.save(dest, io, filter::writeTo, "created " + output + ": " + Fmt.keys(keys) + " read, "
          + file.shape());
      file.warnIfOverfilled(io.err(), output);
    }
    return 0;
  }

  private FilterType kind() {
    if (initial != null && !type.scalable) {
      throw new ParameterException(spec.commandLine(), "--initial is for --scalable filters only");
    }
    if (expected == null && !type.scalable) {
      throw new ParameterException(spec.commandLine(), "missing required option: '--expected=N'");
    }
    if (expiring.generations != null && !expiring.requested()) {
      throw new ParameterException(spec.commandLine(), "--generations is for expiring filters (--window) only");
    }
    if (blocked && (type.guava || type.counting)) {
      throw new ParameterException(spec.commandLine(), "--blocked cannot be combined with "
          + (type.guava ? "--guava" : "--counting") + ": blocked is a layout of standard filters and of --scalable "
          + "filters' layers only");
    }
    if (expiring.requested()) {
      String other = blocked ? "--blocked" : type.guava ? "--guava" : type.counting ? "--counting"
          : type.scalable ? "--scalable" : null;
      if (other != null) {
        throw new ParameterException(spec.commandLine(), "--window cannot be combined with " + other
            + ": an expiring filter has a layout of its own (rotating generations of standard filters)");
      }
      return FilterType.EXPIRING;
    }
    if (type.guava) {
      return FilterType.GUAVA;
    }
    if (type.counting) {
      return FilterType.COUNTING;
    }
    return type.scalable ? FilterType.SCALABLE : blocked ? FilterType.BLOCKED : FilterType.STANDARD;
  }

  /**
   * The strategy {@code --hash-strategy} asks for, or null for the type's default; for a scalable filter
   * with blocked layers, a blocked one.
   *
   * @throws ParameterException (a usage error) if {@code kind} does not take it; the message names the
   *     value and the strategies the type takes
   */
  private HashStrategy strategy(FilterType kind) {
    if (hashStrategy == null) {
      return null;
    }
    try {
      return hashStrategy.resolve(kind == FilterType.SCALABLE && blocked ? FilterType.BLOCKED : kind);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  /**
   * The empty filter, after checking that it fits in the heap.
   *
   * @throws ParameterException (a usage error) if the library rejects the size; the message names the
   *     options and the library's reason, which names the bad value
   */
  private MembershipFilter<Object> newFilter(FilterType kind, HashStrategy strategy, Funnel<Object> funnel)
      throws CliException {
    long n = kind == FilterType.SCALABLE ? (initial != null ? initial : expected != null ? expected : 10_000)
        : expected;
    try {
      BloomFilter.Builder<Object> sized = BloomFilter.builder(funnel).expectedInsertions(n)
          .fpp(kind == FilterType.SCALABLE ? fpp * SCALABLE_FIRST_LAYER_SHARE : fpp);
      if (blocked) {
        sized.blocked(); // a blocked filter, or the first layer of a scalable one with blocked layers
      } else if (kind == FilterType.GUAVA) {
        sized.guavaCompatible();
      }
      if (strategy != null && (kind == FilterType.STANDARD || kind == FilterType.BLOCKED)) {
        sized.hashStrategy(strategy);
      }
      long bits = sized.bitSize();
      long bytes = 8 * ((bits + 63) / 64) * (kind == FilterType.COUNTING ? 4 : 1);
      MemoryCheck.require(bytes, "a " + FileHeader.noun(kind) + " filter for " + Fmt.keys(n) + " at fpp " + fpp);
      return switch (kind) {
        case COUNTING -> counting(funnel, n, strategy);
        case SCALABLE -> scalable(funnel, n, strategy);
        default -> sized.build();
      };
    } catch (IllegalArgumentException e) {
      String what = kind == FilterType.SCALABLE ? "--initial " + n : "--expected " + n;
      throw new ParameterException(spec.commandLine(),
          "invalid " + what + " / --fpp " + fpp + ": " + e.getMessage(), e);
    }
  }

  /** The expiring filter, after checking that its bits fit in the heap; it follows the wall clock. */
  private ExpiringBloomFilter<Object> newExpiring(ExpiringBloomFilter.Builder<Object> b) throws CliException {
    MemoryCheck.require(b.bitSize() / 8, "an expiring filter for " + Fmt.keys(expected) + " per --window "
        + expiring.window.text() + " at fpp " + fpp);
    return b.build();
  }

  private CountingBloomFilter<Object> counting(Funnel<Object> funnel, long n, HashStrategy strategy) {
    CountingBloomFilter.Builder<Object> b = CountingBloomFilter.builder(funnel).expectedInsertions(n).fpp(fpp);
    return (strategy == null ? b : b.hashStrategy(strategy)).build();
  }

  private ScalableBloomFilter<Object> scalable(Funnel<Object> funnel, long n, HashStrategy strategy) {
    ScalableBloomFilter.Builder<Object> b = ScalableBloomFilter.builder(funnel).initialCapacity(n).fpp(fpp);
    if (blocked) {
      b.blocked();
    }
    return (strategy == null ? b : b.hashStrategy(strategy)).build();
  }
}
