package org.concurrentbloom.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.concurrentbloom.FilterType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code bloom merge}: the union of several filters of the same type and shape, written atomically
 * under OUT's update lock. Every input is loaded and checked before anything is written, so OUT may be
 * one of the inputs and is untouched when any input is missing, corrupt or incompatible.
 */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    description = {
        "Merge filter files into one.",
        "",
        "Merges the filters in FILE... into one that answers \"maybe\" for every key of any of them "
            + "and writes it to OUT, like bloom create writes (OUT may be one of the inputs; nothing is "
            + "written if any input cannot be loaded or merged; an update needs room for a second copy). "
            + "The filters must be of the same type (standard, blocked, Guava-compatible or counting), "
            + "bit or counter count, number of hash functions, hash strategy and key type: create them "
            + "with the same --expected, --fpp, type and --hash-strategy options (bloom info prints a "
            + "file's hash strategy: one of 1 and 4, or of 2 and 5, puts a key at other bits than the "
            + "other). Scalable filters cannot be merged: a layer would hold the keys of both, past the "
            + "capacity its false-positive bound depends on. Nor can expiring ones: their generations are "
            + "slots of different clocks.",
        "The result keeps the first filter's sizing targets; its count of adds is the sum of the "
            + "counts (bloom info estimates the distinct keys from the bits). Prints one summary line."})
final class MergeCommand implements Callable<Integer> {
  @ParentCommand
  private BloomCli parent;

  @Spec
  private CommandSpec spec;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT",
      description = "The filter file to write, or - for standard output.")
  private Path output;

  @Parameters(arity = "2..*", paramLabel = "FILE", description = "The filter files to merge (two or more); one may be - for standard input.")
  private List<Path> inputs;

  @Option(names = {"-k", "--key-type"}, paramLabel = "TYPE", converter = KeyTypeOption.class,
      description = "The keys' type (" + KeyCodec.NAMES + "), for files that do not record it.")
  private KeyCodec keyType;

  @Override
  @SuppressWarnings("try") // the try holds the destination's lock for its body
  public Integer call() throws CliException {
    if (inputs.stream().filter(p -> FilterInput.STDIN.equals(p.toString())).count() > 1) {
      throw new ParameterException(spec.commandLine(), "standard input (-) can be only one of the FILEs: it is "
          + "read once");
    }
    CliStreams io = parent.streams();
    Destination dest = FilterFiles.destination(output);
    try (FilterFiles.Held held = FilterFiles.lock(dest, io)) {
      Path firstPath = inputs.get(0);
      // The merge swaps in a new array: the result, the array it replaces and the next input at once.
      FilterFile merged = new FilterLoader(io).keyType(keyType).writesBack().memoryFactor(3).load(firstPath);
      if (merged.kind == FilterType.SCALABLE) {
        throw new CliException("cannot merge " + firstPath + ": scalable filters cannot be merged (layer i of "
            + "the result would hold the keys of two layers, twice the capacity its false-positive rate is "
            + "sized for); add the keys of one to the other with bloom add instead");
      }
      refuseExpiring(firstPath, merged);
      for (Path path : inputs.subList(1, inputs.size())) {
        FilterFile next = new FilterLoader(io).keyType(keyType).writesBack().load(path);
        refuseExpiring(path, next);
        checkCompatible(firstPath, merged, path, next);
        if (merged.kind == FilterType.COUNTING) {
          merged.counting().merge(next.counting());
        } else {
          merged.standard().merge(next.standard());
        }
      }
      FilterFiles.save(dest, io, merged.filter::writeTo, "merged " + Fmt.plural(inputs.size(), "filter") + " into "
          + output + ": " + merged.shape());
      merged.warnIfOverfilled(io.err(), output);
    }
    return 0;
  }

  /**
   * Expiring filters are refused whatever the other inputs: each file's generations are slots of its own
   * clock origin, so generation i of one holds other times' adds than generation i of another, and no
   * union of them keeps both files' forgetting times.
   */
  private static void refuseExpiring(Path path, FilterFile f) throws CliException {
    if (f.kind == FilterType.EXPIRING) {
      throw new CliException("cannot merge " + path + ": expiring filters cannot be merged (their generations are "
          + "slots of different clocks, so no union keeps each key's forgetting time); add the keys of one to the "
          + "other with bloom add instead");
    }
  }

  private static void checkCompatible(Path firstPath, FilterFile first, Path path, FilterFile next)
      throws CliException {
    String prefix = "cannot merge " + path + " into " + firstPath + ": ";
    if (next.kind != first.kind) {
      throw new CliException(prefix + path + " is " + FileHeader.withArticle(next.kind) + " and " + firstPath + " is "
          + FileHeader.withArticle(first.kind) + "; only filters of one type can be merged (create them with the same "
          + "type option)");
    }
    if (next.effectiveKeyType() != first.effectiveKeyType()) {
      throw new CliException(prefix + path + " holds " + next.effectiveKeyType().description() + " and "
          + firstPath + " holds " + first.effectiveKeyType().description() + "; the same key hashes differently "
          + "in each, so their union would answer wrongly");
    }
    if (first.kind != FilterType.COUNTING && next.standard().hashStrategy() != first.standard().hashStrategy()) {
      throw new CliException(prefix + path + " has hash strategy "
          + HashStrategyOption.describe(next.standard().hashStrategy()) + " and " + firstPath + " has hash strategy "
          + HashStrategyOption.describe(first.standard().hashStrategy()) + "; the same key sets other bits in each, "
          + "so their union would answer wrongly (create both with the same --hash-strategy)");
    }
    boolean compatible = first.kind == FilterType.COUNTING
        ? first.counting().isCompatible(next.counting()) : first.standard().isCompatible(next.standard());
    if (!compatible) {
      String cells = first.kind == FilterType.COUNTING ? " counters" : " bits";
      throw new CliException(prefix + "both are " + FileHeader.noun(first.kind) + " filters, but " + path + " has m="
          + next.filter.bitSize() / (first.kind == FilterType.COUNTING ? 4 : 1) + cells + " and k="
          + hashFunctions(next) + " while " + firstPath + " has m="
          + first.filter.bitSize() / (first.kind == FilterType.COUNTING ? 4 : 1) + cells + " and k="
          + hashFunctions(first) + "; only filters created with the same --expected and --fpp can be merged");
    }
  }

  private static int hashFunctions(FilterFile f) {
    return f.kind == FilterType.COUNTING ? f.counting().hashFunctions() : f.standard().hashFunctions();
  }
}
