package org.concurrentbloom.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.concurrentbloom.BloomFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code bloom add}: loads a filter, adds keys from the command line and {@code --input}, and writes it
 * back atomically, so a failure anywhere leaves the file exactly as it was.
 */
@Command(
    name = "add",
    mixinStandardHelpOptions = true,
    description = {
        "Add keys to a filter file.",
        "",
        "Adds the KEY arguments, then the keys read from --input, to the filter in FILE and writes it "
            + "back. FILE is replaced atomically: if anything fails it is left unchanged. "
            + "Prints one summary line."})
final class AddCommand implements Callable<Integer> {
  @ParentCommand
  private BloomCli parent;

  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The filter file to update.")
  private Path file;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "KEY", description = "Keys to add.")
  private List<String> keys = new ArrayList<>();

  @Option(names = {"-i", "--input"}, paramLabel = "KEYS",
      description = "More keys to add, one per line: a file, or - for standard input.")
  private String input;

  @Override
  public Integer call() throws CliException {
    if (keys.isEmpty() && input == null) {
      throw new ParameterException(spec.commandLine(), "no keys to add: give KEY arguments or --input KEYS");
    }
    CliStreams io = parent.streams();
    BloomFilter<CharSequence> filter = FilterFiles.load(file);
    keys.forEach(filter::add);
    long added = keys.size();
    if (input != null) {
      added += new KeyInput(io).forEach(input, filter::add);
    }
    FilterFiles.save(file, filter);
    io.out().println("added " + Fmt.count(added) + " keys to " + file + ": " + FilterFiles.shape(filter));
    FilterFiles.warnIfOverfilled(io.err(), file, filter);
    return 0;
  }
}
