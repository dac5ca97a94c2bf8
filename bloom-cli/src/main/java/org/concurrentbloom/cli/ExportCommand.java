package org.concurrentbloom.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.GuavaInterop;
import org.concurrentbloom.KeyType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code bloom export --guava}: writes a Guava-compatible filter file in Guava's own format. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
        "Write a filter file in another library's format.",
        "",
        "--guava: writes IN, which must be a Guava-compatible filter (bloom create --guava, or bloom "
            + "import --guava), as Guava's BloomFilter.writeTo does, so that Guava's BloomFilter.readFrom "
            + "loads it with the funnel of IN's key type (the summary names it). Other types put their "
            + "bits where Guava does not look, so they are refused: rebuild such a filter from its keys "
            + "with bloom create --guava."})
final class ExportCommand implements Callable<Integer> {
  @ParentCommand
  private BloomCli parent;

  @Option(names = "--guava", required = true, description = "Write Guava's BloomFilter.writeTo format.")
  @SuppressWarnings("UnusedVariable") // required: picocli checks it is given; its value is not needed
  private boolean guava;

  @Parameters(index = "0", paramLabel = "IN", description = "The Guava-compatible filter file, or - for standard input.")
  private Path in;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT",
      description = "The file to write, or - for standard output.")
  private Path output;

  @Option(names = {"-k", "--key-type"}, paramLabel = "TYPE", converter = KeyTypeOption.class,
      description = "The keys' type (" + KeyCodec.NAMES + "), for a file that does not record it.")
  private KeyCodec keyType;

  @Override
  @SuppressWarnings("try") // the try holds the destination's lock for its body
  public Integer call() throws CliException {
    CliStreams io = parent.streams();
    FilterFile filter = new FilterLoader(io).keyType(keyType).load(in);
    if (filter.kind != FilterType.GUAVA) {
      throw new CliException("cannot export " + in + " for Guava: it is " + FileHeader.withArticle(filter.kind)
          + ", whose bits are not where Guava looks for them; only a Guava-compatible filter (bloom create "
          + "--guava) can be exported, so rebuild it from its keys with that option");
    }
    Destination dest = FilterFiles.destination(output);
    try (FilterFiles.Held held = FilterFiles.lock(dest, io)) {
      FilterFiles.save(dest, io, out -> GuavaInterop.writeTo(filter.standard(), out), "exported " + in + " to "
          + output + " in Guava's format; read it with BloomFilter.readFrom(in, "
          + guavaFunnel(filter.effectiveKeyType()) + ")");
    }
    return 0;
  }

  private static String guavaFunnel(KeyType type) {
    return switch (type) {
      case LONG -> "Funnels.longFunnel()";
      case INTEGER -> "Funnels.integerFunnel()";
      case BYTES -> "Funnels.byteArrayFunnel()";
      case UTF8_STRING -> "Funnels.stringFunnel(StandardCharsets.UTF_8)";
      default -> "the funnel it was written with";
    };
  }
}
