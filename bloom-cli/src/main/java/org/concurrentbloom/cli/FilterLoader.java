package org.concurrentbloom.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.InstantSource;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.ExpiringBloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.KeyType;
import org.concurrentbloom.MembershipFilter;
import org.concurrentbloom.ScalableBloomFilter;

/**
 * Loads the filter a command names, of any type, from any readable source ({@link FilterInput}), with
 * the key codec that turns command-line keys into its items. Which codec follows from the key type the
 * file records and {@code --key-type}:
 * <ul>
 *   <li>a recorded built-in type is used as it is; a {@code --key-type} that contradicts it is refused,
 *       as its lookups would hash other bytes and answer "no" for keys that are in the filter;
 *   <li>a file of format version 1 records none: its keys are strings (the only kind earlier releases
 *       of this tool wrote) unless {@code --key-type} says otherwise, and commands that look keys up
 *       say so on standard error. A command that writes the file back records its key type for good
 *       (version 2), so it takes only strings: another {@code --key-type} would turn a file of string
 *       keys into one that refuses them;
 *   <li>a program's own funnel ({@link KeyType#CUSTOM}) cannot be reproduced here, so the user must
 *       say with {@code --key-type} which built-in encoding it matches; the file keeps recording
 *       CUSTOM.
 * </ul>
 * Settings are chained, then {@link #load} reads; one loader serves one command.
 */
final class FilterLoader {
  private final CliStreams io;
  private KeyCodec requested;
  private PrintWriter note;
  private double memoryFactor = 1.5;
  private boolean writesBack;
  private boolean describesOnly;

  FilterLoader(CliStreams io) {
    this.io = io;
  }

  /** The {@code --key-type} given, or null. */
  FilterLoader keyType(KeyCodec keyType) {
    this.requested = keyType;
    return this;
  }

  /** Says on standard error that a version 1 file's keys are taken as strings (commands that use keys). */
  FilterLoader noteVersion1() {
    this.note = io.err();
    return this;
  }

  /**
   * How many times the filter's size in memory the command needs (loading peaks at about 1.5 times its
   * size, the default; a merge holds more).
   */
  FilterLoader memoryFactor(double factor) {
    this.memoryFactor = factor;
    return this;
  }

  /** The command writes the filter back, recording its key type: see the class comment. */
  FilterLoader writesBack() {
    this.writesBack = true;
    return this;
  }

  /** The command looks up no key ({@code info}): a custom funnel's file loads without {@code --key-type}. */
  FilterLoader describesOnly() {
    this.describesOnly = true;
    return this;
  }

  /**
   * Loads the filter in {@code path} ({@code -} for standard input), which must hold exactly one filter
   * and nothing after it, reading it once.
   *
   * @throws CliException if the source is missing, unreadable, corrupt, not a filter, too large for the
   *     heap, or of a key type the keys cannot be encoded as
   */
  FilterFile load(Path path) throws CliException {
    try (FilterInput input = FilterInput.open(path, io)) {
      byte[] head = input.peek(FileHeader.PEEK_BYTES);
      FileHeader header = FileHeader.parse(input.name, head, input.size);
      if (header == null) {
        // Not a filter of a known version and type: the library's reader says exactly why.
        input.readWhole(in -> BloomFilter.readFrom(in, Funnels.stringFunnel()));
        throw new CliException("cannot load filter " + input.name + ": not a concurrent-bloom filter");
      }
      KeyCodec codec = chooseCodec(input.name, header.keyType());
      if (header.keyType() == KeyType.UNRECORDED && requested == null && note != null) {
        note.println("bloom: note: " + input.name + " is of format version 1, which does not record its key type; "
            + (writesBack ? "its keys are taken as strings, and writing it back records that (version 2)"
                : "its keys are taken as strings (use --key-type if a program wrote it with another funnel)"));
        note.flush();
      }
      long bytes = input.size >= 0 ? input.size : header.statedPayloadBytes(head);
      if (bytes > 0) {
        MemoryCheck.require((long) (memoryFactor * bytes), "loading " + input.name);
      }
      Funnel<Object> funnel = header.keyType() == KeyType.CUSTOM
          ? Funnels.withKeyType(codec.funnel(), KeyType.CUSTOM) : codec.funnel();
      MembershipFilter<Object> filter = switch (header.kind()) {
        case COUNTING -> input.readWhole(in -> CountingBloomFilter.readFrom(in, funnel));
        case SCALABLE -> input.readWhole(in -> ScalableBloomFilter.readFrom(in, funnel));
        // The wall clock decides what has expired: generations past their time are forgotten on loading,
        // and a command that writes the filter back writes them empty.
        case EXPIRING -> input.readWhole(in -> ExpiringBloomFilter.readFrom(in, funnel, InstantSource.system()));
        default -> input.readWhole(in -> BloomFilter.readFrom(in, funnel));
      };
      return new FilterFile(header.kind(), codec, header.keyType(), filter, input.bytesRead());
    }
  }

  private KeyCodec chooseCodec(String name, KeyType recorded) throws CliException {
    if (recorded == KeyType.UNRECORDED) {
      if (writesBack && requested != null && requested != KeyCodec.STRING) {
        throw new CliException(name + " is of format version 1, which does not record its key type, and bloom "
            + "takes its keys as strings; writing it back records its key type for good (version 2), so with "
            + "--key-type " + requested + " it would become a filter of " + requested.keyType.description()
            + " that refuses its string keys. bloom adds and removes only string keys in such a file (a "
            + "program that wrote it with another funnel records that by reading and writing it with that "
            + "funnel); queries may still use --key-type " + requested);
      }
      return requested == null ? KeyCodec.STRING : requested;
    }
    if (recorded == KeyType.CUSTOM) {
      if (requested == null) {
        if (describesOnly) {
          return KeyCodec.STRING; // no key is looked up, so any codec describes the file
        }
        throw new CliException(name + " holds keys hashed by a program's own funnel (key type custom), which "
            + "bloom cannot reproduce; if that funnel writes the same bytes as one of bloom's key types, say "
            + "which with --key-type (" + KeyCodec.NAMES + ")");
      }
      return requested;
    }
    KeyCodec own = KeyCodec.of(recorded);
    if (requested != null && requested != own) {
      throw new CliException(name + " holds " + recorded.description() + " (key type " + own + "); --key-type "
          + requested + " would hash other bytes and answer \"no\" for keys that are in it");
    }
    return own;
  }
}
