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
            + "room for a second copy): if anything fails, the summary line included, it is left "
            + "unchanged and the exit status is 1 (141 for a closed pipe). Several runs on one "
            + "file at once take turns (lock file .FILE.lock), so none loses another's keys. The keys "
            + "are of the key type FILE records (see bloom --help). A file of format version 1, which "
            + "records none, takes string keys only, and is written back as version 2 recording them. "
            + "Prints one summary line.",
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
      description = "The keys' type (" + KeyCodec.NAMES + "): for a file of a program's own funnel (key "
          + "type custom); must match the type a file records, and be string for format version 1.")
  private KeyCodec keyType;

  @Option(names = ClockCheck.ACCEPT_OPTION, description = ClockCheck.ACCEPT_HELP)
  private boolean acceptClockJump;

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
      FilterFile filter = new FilterLoader(io).keyType(keyType).noteVersion1().writesBack().load(dest.path());
      ClockCheck.beforeWrite(filter, file, "add to", acceptClockJump);
      List<Object> items = KeyArguments.parse(spec, keys, filter.codec);
      items.forEach(filter.filter::add);
      long added = items.size();
      if (input != null) {
        added += new KeyInput(io, false).forEach(input, filter::add);
      }
      FilterFiles.save(dest, io, filter.filter::writeTo, "added " + Fmt.keys(added) + " to " + file + ": "
          + filter.shape());
      filter.warnIfOverfilled(io.err(), file);
    }
    return 0;
  }
}
