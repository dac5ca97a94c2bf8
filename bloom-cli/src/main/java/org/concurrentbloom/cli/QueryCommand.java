package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.concurrentbloom.BloomFilter;
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
        "Look keys up in a filter file.",
        "",
        "Looks up the KEY arguments, then the keys read from --input, in the filter in FILE and prints "
            + "one line per key, in input order: the key, a TAB, then \"maybe\" if the key may be in "
            + "the filter (it was added, or is a false positive) or \"no\" if it was definitely never "
            + "added. For example:",
        "  alice@example.com<TAB>maybe",
        "  zed@example.com<TAB>no",
        "With --absent, prints only the keys that are definitely not in the filter, one per line and "
            + "nothing else, for piping. The exit status does not depend on the answers."})
final class QueryCommand implements Callable<Integer> {
  static final String MAYBE = "maybe";
  static final String NO = "no";

  @ParentCommand
  private BloomCli parent;

  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The filter file to query.")
  private Path file;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "KEY", description = "Keys to look up.")
  private List<String> keys = new ArrayList<>();

  @Option(names = {"-i", "--input"}, paramLabel = "KEYS",
      description = "More keys to look up, one per line: a file, or - for standard input.")
  private String input;

  @Option(names = {"-a", "--absent"},
      description = "Print only the keys that are definitely absent, one per line.")
  private boolean absentOnly;

  @Override
  public Integer call() throws CliException {
    if (keys.isEmpty() && input == null) {
      throw new ParameterException(spec.commandLine(),
          "no keys to query: give KEY arguments or --input KEYS");
    }
    CliStreams io = parent.streams();
    BloomFilter<CharSequence> filter = FilterFiles.load(file);
    Consumer<String> answer = absentOnly ? absentPrinter(filter, io.out()) : answerPrinter(filter, io.out());
    keys.forEach(answer);
    if (input != null) {
      new KeyInput(io).forEach(input, answer);
    }
    return 0;
  }

  private static Consumer<String> answerPrinter(BloomFilter<CharSequence> filter, PrintWriter out) {
    return key -> {
      out.print(key);
      out.print('\t');
      out.print(filter.mightContain(key) ? MAYBE : NO);
      out.print('\n');
    };
  }

  private static Consumer<String> absentPrinter(BloomFilter<CharSequence> filter, PrintWriter out) {
    return key -> {
      if (!filter.mightContain(key)) {
        out.print(key);
        out.print('\n');
      }
    };
  }
}
