package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code bloom query}: answers, for each key, whether it may be in the filter or is definitely not. */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = {
        "Look keys up in a filter file of any type.",
        "",
        "Looks up the KEY arguments, then the keys read from --input, in the filter in FILE and prints "
            + "one line per key, in input order: the key, a TAB, then \"maybe\" if the key may be in "
            + "the filter (it was added, or is a false positive) or \"no\" if it was definitely never "
            + "added. For example:",
        "  alice@example.com<TAB>maybe",
        "  zed@example.com<TAB>no",
        "With --absent, prints only the keys that are definitely not in the filter, one per line and "
            + "nothing else, for piping. With --quiet, prints nothing and stops at the first \"no\": "
            + "the exit status is 0 if every key may be in the filter, 1 if any is definitely not, 2 on "
            + "an error. Otherwise the exit status does not depend on the answers.",
        "The keys are of the key type FILE records (a filter of longs takes decimal integers); a key "
            + "that is not of that type is an error.",
        "An expiring filter (bloom create --window) answers by the wall clock: \"maybe\" for every key "
            + "added within its window, and \"no\" (up to false positives) for one last added longer ago "
            + "than its max retention (bloom info prints both). If the wall clock is more than the window "
            + "past the file's last write, so that its keys answer \"no\", or behind it (a clock ahead of "
            + "this one wrote the file), a warning on standard error names both times: if the clock is wrong, "
            + "so are the answers it decides.",
        "With --guava, FILE is a file written by Guava's BloomFilter.writeTo, of either of Guava's "
            + "strategies (MURMUR128_MITZ_64, or the older MURMUR128_MITZ_32, which bloom import --guava "
            + "cannot convert), and each key is answered from its bytes as Guava's mightContain answers it. "
            + "Guava's file does not record the funnel: give --key-type for what it was (string for "
            + "Funnels.stringFunnel(UTF_8), the default; long for Funnels.longFunnel(); int for "
            + "Funnels.integerFunnel(); bytes for Funnels.byteArrayFunnel())."})
final class QueryCommand implements Callable<Integer> {
  static final String MAYBE = "maybe";
  static final String NO = "no";
  /** The exit status of {@code --quiet} when some key is definitely absent. */
  static final int EXIT_SOME_ABSENT = 1;

  @ParentCommand
  private BloomCli parent;

  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The filter file to query, or - for standard input.")
  private Path file;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "KEY", description = "Keys to look up.")
  private List<String> keys = new ArrayList<>();

  @Option(names = {"-i", "--input"}, paramLabel = "KEYS",
      description = "More keys to look up, one per line: a file, or - for standard input.")
  private String input;

  @Option(names = {"-a", "--absent"},
      description = "Print only the keys that are definitely absent, one per line.")
  private boolean absentOnly;

  @Option(names = {"-q", "--quiet"},
      description = "Print nothing; exit 0 if every key may be present, 1 at the first definitely absent.")
  private boolean quiet;

  @Option(names = {"-k", "--key-type"}, paramLabel = "TYPE", converter = KeyTypeOption.class,
      description = "The keys' type (" + KeyCodec.NAMES + "): only for a file that does not record it "
          + "(format version 1, or a program's own funnel); must match the one it records. With --guava, "
          + "what Guava's funnel wrote (default string).")
  private KeyCodec keyType;

  @Option(names = "--guava",
      description = "FILE is in Guava's BloomFilter.writeTo format (either strategy): answer from it as it is.")
  private boolean guava;

  /** Whether {@code --quiet} was given: failures then exit with 2, as 1 means "absent". */
  boolean quiet() {
    return quiet;
  }

  @Override
  public Integer call() throws CliException {
    if (keys.isEmpty() && input == null) {
      throw new ParameterException(spec.commandLine(), "no keys to query: give KEY arguments or --input KEYS");
    }
    if (quiet && absentOnly) {
      throw new ParameterException(spec.commandLine(), "--quiet and --absent cannot be combined");
    }
    if (FilterInput.STDIN.equals(file.toString()) && KeyInput.STDIN.equals(input)) {
      throw new ParameterException(spec.commandLine(), "FILE and --input cannot both be - (standard input is "
          + "read once): give the keys as arguments or in a file");
    }
    KeyArguments.checkDecoded(spec, keys);
    CliStreams io = parent.streams();
    FilterFile filter = guava
        ? GuavaFiles.load(file, io, keyType == null ? KeyCodec.STRING : keyType, "query it without --guava")
        : new FilterLoader(io).keyType(keyType).noteVersion1().load(file);
    ClockCheck.warnOnRead(filter, file, io.err());
    List<Object> items = KeyArguments.parse(spec, keys, filter.codec);
    PrintWriter out = io.out();
    boolean[] sawAbsent = {false};
    for (int i = 0; i < items.size(); i++) {
      boolean maybe = filter.filter.mightContain(items.get(i));
      if (quiet && !maybe) {
        return EXIT_SOME_ABSENT;
      }
      print(out, keys.get(i), maybe);
    }
    if (input != null) {
      new KeyInput(io, !quiet).forEachUntil(input, key -> {
        boolean maybe = filter.mightContain(key);
        if (quiet) {
          sawAbsent[0] = !maybe;
          return maybe;
        }
        print(out, key, maybe);
        return true;
      });
    }
    return sawAbsent[0] ? EXIT_SOME_ABSENT : 0;
  }

  private void print(PrintWriter out, String key, boolean maybe) {
    if (quiet) {
      return;
    }
    if (absentOnly) {
      if (!maybe) {
        out.print(key);
        out.print('\n');
      }
      return;
    }
    out.print(key);
    out.print('\t');
    out.print(maybe ? MAYBE : NO);
    out.print('\n');
  }
}
