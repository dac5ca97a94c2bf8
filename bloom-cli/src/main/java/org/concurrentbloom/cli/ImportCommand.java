package org.concurrentbloom.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.HashStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code bloom import --guava}: turns a file written by Guava's {@code BloomFilter.writeTo} into a filter file. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
        "Convert a filter written by another library into a filter file.",
        "",
        "--guava: IN was written by Guava's BloomFilter.writeTo (strategy MURMUR128_MITZ_64). OUT is a "
            + "Guava-compatible filter that answers every key exactly as the Guava filter did, and that "
            + "bloom export --guava turns back into Guava's bytes. Guava's file does not record the "
            + "funnel: give --key-type for what the Guava funnel was (string for "
            + "Funnels.stringFunnel(UTF_8), the default; long for Funnels.longFunnel(); int for "
            + "Funnels.integerFunnel(); bytes for Funnels.byteArrayFunnel()); OUT records it. Nor does it "
            + "record n, p or a count: OUT's are derived from its shape and bits. A file of Guava's older "
            + "strategy MURMUR128_MITZ_32 cannot be converted (the filter file format has no id for it): "
            + "bloom query --guava answers from it as it is."})
final class ImportCommand implements Callable<Integer> {
  @ParentCommand
  private BloomCli parent;

  @Option(names = "--guava", required = true, description = "IN is in Guava's BloomFilter.writeTo format.")
  @SuppressWarnings("UnusedVariable") // required: picocli checks it is given; its value is not needed
  private boolean guava;

  @Parameters(index = "0", paramLabel = "IN", description = "The file to convert, or - for standard input.")
  private Path in;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT",
      description = "The filter file to write, or - for standard output.")
  private Path output;

  @Option(names = {"-k", "--key-type"}, paramLabel = "TYPE", defaultValue = "string",
      converter = KeyTypeOption.class,
      description = "What Guava's funnel wrote: string (the default), long, int or bytes.")
  private KeyCodec keyType;

  @Override
  @SuppressWarnings("try") // the try holds the destination's lock for its body
  public Integer call() throws CliException {
    CliStreams io = parent.streams();
    FilterFile file = GuavaFiles.load(in, io, keyType, "it needs no import, every bloom command reads it as it is");
    BloomFilter<Object> filter = file.standard();
    if (filter.hashStrategy() == HashStrategy.GUAVA_MURMUR128_MITZ_32) {
      throw new CliException("cannot import " + in + ": it was written with Guava's older strategy MURMUR128_MITZ_32, "
          + "which a filter file cannot hold; query it as it is with 'bloom query --guava "
          + (keyType == KeyCodec.STRING ? "" : "--key-type " + keyType.cliName + " ") + in + " KEY...'");
    }
    Destination dest = FilterFiles.destination(output);
    try (FilterFiles.Held held = FilterFiles.lock(dest, io)) {
      FilterFiles.save(dest, io, filter::writeTo, "imported " + in + " (Guava) into " + output + ": " + file.shape());
    }
    return 0;
  }
}
