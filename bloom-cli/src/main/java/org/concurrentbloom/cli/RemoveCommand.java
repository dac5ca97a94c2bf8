package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.FilterType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code bloom remove}: takes keys out of a counting filter file, under its update lock. */
@Command(
    name = "remove",
    mixinStandardHelpOptions = true,
    description = {
        "Remove keys from a counting filter file.",
        "",
        "Removes the KEY arguments, then the keys read from --input, from the counting filter in FILE "
            + "(made with bloom create --counting) and writes it back, atomically and under its lock, "
            + "like bloom add. Prints each key it could not remove, because it was definitely not in the "
            + "filter, as KEY<TAB>absent, then one summary line.",
        "",
        "Remove only keys that were added. A key never added may still answer \"maybe\" (a false "
            + "positive); removing it takes counts from the keys that share its counters, and they may "
            + "then answer \"no\". A counter that reached 15 stays there (it no longer knows its count), "
            + "so keys on it are never fully removed: they keep answering \"maybe\"."})
final class RemoveCommand implements Callable<Integer> {
  static final String ABSENT = "absent";

  @ParentCommand
  private BloomCli parent;

  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The counting filter file to update.")
  private Path file;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "KEY", description = "Keys to remove.")
  private List<String> keys = new ArrayList<>();

  @Option(names = {"-i", "--input"}, paramLabel = "KEYS",
      description = "More keys to remove, one per line: a file, or - for standard input.")
  private String input;

  @Option(names = {"-k", "--key-type"}, paramLabel = "TYPE", converter = KeyTypeOption.class,
      description = "The keys' type (" + KeyCodec.NAMES + "): for a file of a program's own funnel (key "
          + "type custom); must match the type a file records, and be string for format version 1.")
  private KeyCodec keyType;

  @Override
  @SuppressWarnings("try") // the try holds the destination's lock for its body
  public Integer call() throws CliException {
    if (keys.isEmpty() && input == null) {
      throw new ParameterException(spec.commandLine(), "no keys to remove: give KEY arguments or --input KEYS");
    }
    KeyArguments.checkDecoded(spec, keys);
    CliStreams io = parent.streams();
    Destination dest = FilterFiles.updatable(file);
    try (FilterFiles.Held held = FilterFiles.lock(dest, io)) {
      FilterFile loaded = new FilterLoader(io).keyType(keyType).noteVersion1().writesBack().load(dest.path());
      if (loaded.kind != FilterType.COUNTING) {
        throw new CliException("cannot remove keys from " + file + ": it is " + FileHeader.withArticle(loaded.kind)
            + ", and only counting filters (bloom create --counting) can remove keys; in a filter of bits "
            + "one bit serves many keys, so clearing it would make them answer \"no\"");
      }
      CountingBloomFilter<Object> filter = loaded.counting();
      PrintWriter out = io.out();
      long[] tally = new long[2]; // removed, absent
      List<Object> items = KeyArguments.parse(spec, keys, loaded.codec);
      for (int i = 0; i < items.size(); i++) {
        remove(filter, items.get(i), keys.get(i), out, tally);
      }
      if (input != null) {
        new KeyInput(io, true).forEach(input, key -> remove(filter, loaded.codec.parse(key), key, out, tally));
      }
      String summary = "removed " + Fmt.count(tally[0]) + " of " + Fmt.keys(tally[0] + tally[1]) + " from " + file
          + (tally[1] == 0 ? "" : " (" + Fmt.count(tally[1]) + " definitely not in it, listed above)") + ": "
          + loaded.shape();
      if (tally[0] > 0) {
        FilterFiles.save(dest, io, filter::writeTo, summary); // the lines above are flushed before the commit
      } else {
        out.println(summary);
      }
    }
    return 0;
  }

  private static void remove(CountingBloomFilter<Object> filter, Object item, String key, PrintWriter out,
      long[] tally) {
    if (filter.remove(item)) {
      tally[0]++;
    } else {
      tally[1]++;
      out.print(key);
      out.print('\t');
      out.print(ABSENT);
      out.print('\n');
    }
  }
}
