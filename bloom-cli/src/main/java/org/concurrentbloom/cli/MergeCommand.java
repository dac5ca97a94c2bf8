package org.concurrentbloom.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.concurrentbloom.BloomFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code bloom merge}: the union of several filters of the same shape, written atomically. Every input
 * is loaded and checked before anything is written, so OUT may be one of the inputs and is untouched
 * when any input is missing, corrupt or incompatible.
 */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    description = {
        "Merge filter files into one.",
        "",
        "Merges the filters in FILE... into one that answers \"maybe\" for every key of any of them "
            + "and writes it to OUT, replacing OUT atomically (OUT may be one of the inputs; nothing is "
            + "written if any input cannot be loaded or merged). The filters must have the same bit "
            + "count and number of hash functions: create them with the same --expected and --fpp. "
            + "The result keeps the first filter's sizing targets; its count is the sum of the "
            + "counts. Prints one summary line."})
final class MergeCommand implements Callable<Integer> {
  @ParentCommand
  private BloomCli parent;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT",
      description = "The filter file to write.")
  private Path output;

  @Parameters(arity = "2..*", paramLabel = "FILE", description = "The filter files to merge (two or more).")
  private List<Path> inputs;

  @Override
  public Integer call() throws CliException {
    Path firstPath = inputs.get(0);
    BloomFilter<CharSequence> merged = FilterFiles.load(firstPath);
    for (Path path : inputs.subList(1, inputs.size())) {
      BloomFilter<CharSequence> next = FilterFiles.load(path);
      if (!merged.isCompatible(next)) {
        throw new CliException("cannot merge " + path + " into " + firstPath + ": " + path + " has m="
            + next.bitSize() + " bits and k=" + next.hashFunctions() + " but " + firstPath + " has m="
            + merged.bitSize() + " and k=" + merged.hashFunctions()
            + "; only filters created with the same --expected and --fpp can be merged");
      }
      merged.merge(next);
    }
    FilterFiles.save(output, merged);
    CliStreams io = parent.streams();
    io.out().println("merged " + inputs.size() + " filters into " + output + ": "
        + FilterFiles.shape(merged));
    FilterFiles.warnIfOverfilled(io.err(), output, merged);
    return 0;
  }
}
