package org.concurrentbloom.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.concurrentbloom.BloomFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
            + "(if given), and writes it to FILE, replacing FILE atomically if it exists. "
            + "Prints one summary line."})
final class CreateCommand implements Callable<Integer> {
  @ParentCommand
  private BloomCli parent;

  @Spec
  private CommandSpec spec;

  @Option(names = {"-n", "--expected"}, required = true, paramLabel = "N",
      description = "Number of keys the filter is sized for (at least 1).")
  private long expected;

  @Option(names = {"-p", "--fpp"}, required = true, paramLabel = "P",
      description = "Target false-positive probability once N keys are in, in (0, 1), e.g. 0.01.")
  private double fpp;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
      description = "The filter file to write.")
  private Path output;

  @Option(names = "--blocked",
      description = "Use the cache-blocked layout: one memory access per query, a few percent more bits.")
  private boolean blocked;

  @Option(names = {"-i", "--input"}, paramLabel = "KEYS",
      description = "Keys to add, one per line: a file, or - for standard input.")
  private String input;

  @Override
  public Integer call() throws CliException {
    BloomFilter<CharSequence> filter = FilterFiles.create(spec, expected, fpp, blocked);
    CliStreams io = parent.streams();
    long keys = input == null ? 0 : new KeyInput(io).forEach(input, filter::add);
    FilterFiles.save(output, filter);
    io.out().println("created " + output + ": " + Fmt.count(keys) + " keys read, "
        + FilterFiles.shape(filter));
    FilterFiles.warnIfOverfilled(io.err(), output, filter);
    return 0;
  }
}
