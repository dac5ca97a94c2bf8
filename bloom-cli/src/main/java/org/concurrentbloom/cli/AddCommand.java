package org.concurrentbloom.cli;

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

/**
 * {@code bloom add}: under the file's update lock, loads a filter, adds keys from the command line and
 * {@code --input}, and writes it back atomically, so a failure anywhere leaves the file exactly as it was
 * and concurrent runs never lose each other's keys.
 */
@Command(
    name = "add",
    mixinStandardHelpOptions = true,
    description = {
        "Add keys to a filter file of any type.",
        "",
        "Adds the KEY arguments, then the keys read from --input, to the filter in FILE and writes it "
            + "back. FILE is replaced atomically, keeping its owner, group and mode (the update needs "
            + "room for a second copy): if anything fails it is left unchanged. Several runs on one "
            + "file at once take turns (lock file .FILE.lock), so none loses another's keys. The keys "
            + "are of the key type FILE records (see bloom --help). Prints one summary line.",
        "An expiring filter (bloom create --window) takes the keys into its current generation by the wall "
            + "clock, renewing keys it holds already, and is written back as of now: generations past "
            + "their time are dropped."})
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

  @Option(names = {"-k", "--key-type"}, paramLabel = "TYPE", converter = KeyTypeOption.class,
      description = "The keys' type (" + KeyCodec.NAMES + "): only for a file that does not record it "
          + "(format version 1, or a program's own funnel); must match the one it records.")
  private KeyCodec keyType;

  @Override
  @SuppressWarnings("try") // the try holds the destination's lock for its body
  public Integer call() throws CliException {
    if (keys.isEmpty() && input == null) {
      throw new ParameterException(spec.commandLine(), "no keys to add: give KEY arguments or --input KEYS");
    }
    KeyArguments.checkDecoded(spec, keys);
    CliStreams io = parent.streams();
    Destination dest = FilterFiles.updatable(file);
    try (FilterFiles.Held held = FilterFiles.lock(dest, io)) {
      FilterFile filter = FilterFile.load(dest.path(), keyType, io.err(), 1.5);
      List<Object> items = KeyArguments.parse(spec, keys, filter.codec);
      items.forEach(filter.filter::add);
      long added = items.size();
      if (input != null) {
        added += new KeyInput(io, false).forEach(input, filter::add);
      }
      FilterFiles.save(dest, io, filter.filter::writeTo);
      io.out().println("added " + Fmt.keys(added) + " to " + file + ": " + filter.shape());
      filter.warnIfOverfilled(io.err(), file);
    }
    return 0;
  }
}
