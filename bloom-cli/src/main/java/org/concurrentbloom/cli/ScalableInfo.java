package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.ScalableBloomFilter;

/**
 * {@code bloom info} for a scalable filter file (type 5): its growth parameters, compound statistics and
 * one line per layer. {@link InfoCommand} hands such files here after peeking at the type byte.
 */
final class ScalableInfo {
  private static final String FORMAT = "%-23s %s%n";
  /** The type byte of a scalable filter, at offset 5 of every filter file (docs/FORMAT.md). */
  private static final int SCALABLE_TYPE = 5;
  private static final int TYPE_OFFSET = 5;

  private ScalableInfo() {}

  /**
   * True if {@code file} starts like a scalable filter. Any other file, including an unreadable or too
   * short one, is left to the standard reader, whose error message names the problem.
   */
  static boolean isScalable(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] start = in.readNBytes(TYPE_OFFSET + 1);
      return start.length == TYPE_OFFSET + 1 && start[TYPE_OFFSET] == SCALABLE_TYPE;
    } catch (IOException e) {
      return false;
    }
  }

  /** Prints the description of the scalable filter in {@code file}; returns the exit code. */
  static int print(PrintWriter out, Path file) throws CliException {
    ScalableBloomFilter<CharSequence> f =
        FilterFiles.load(file, in -> ScalableBloomFilter.readFrom(in, Funnels.stringFunnel()));
    long fileSize = file.toFile().length(); // just read in full, so it exists and is readable
    long bits = f.bitSize();
    double fill = f.fillRatio();
    long approx = f.approximateElementCount();
    List<ScalableBloomFilter.LayerStats> layers = f.layerStats();

    field(out, "file:", file.toString());
    field(out, "type:", "scalable Bloom filter of strings (" + f.layoutName() + " layers)");
    field(out, "layers:", Integer.toString(layers.size()));
    field(out, "initial capacity:", Long.toString(f.expectedInsertions()));
    field(out, "growth factor:", Integer.toString(f.growthFactor()));
    field(out, "tightening ratio:", Double.toString(f.tighteningRatio()));
    field(out, "capacity:", Fmt.count(f.capacity()) + " (all layers, before the next is added)");
    field(out, "count:", Long.toString(f.count()));
    field(out, "target fpp:", Double.toString(f.fpp()));
    field(out, "fpp bound:", Fmt.probability(f.fppBound()) + " (sum of the layers' targets)");
    double estimated = f.estimatedFpp();
    field(out, "estimated fpp:", Fmt.probability(estimated) + " (" + Fmt.percent(estimated) + " at the layers' counts)");
    field(out, "bits (all layers):", Long.toString(bits));
    field(out, "memory cap:", f.maxBitSize() == Long.MAX_VALUE ? "none" : f.maxBitSize() + " bits");
    field(out, "fill ratio:", Fmt.ratio(fill) + " (" + Math.round(fill * bits) + " of " + bits + " bits set)");
    field(out, "approx. element count:",
        approx == Long.MAX_VALUE ? "unknown (a layer has every bit set)" : Long.toString(approx));
    field(out, "file size:", Fmt.bytes(fileSize));
    for (int i = 0; i < layers.size(); i++) {
      ScalableBloomFilter.LayerStats layer = layers.get(i);
      field(out, "layer " + i + ":", "capacity " + Fmt.count(layer.capacity()) + ", fpp "
          + Fmt.probability(layer.fpp()) + ", " + Fmt.count(layer.bitSize()) + " bits, k=" + layer.hashFunctions()
          + ", count " + Fmt.count(layer.count()));
    }
    return 0;
  }

  private static void field(PrintWriter out, String name, String value) {
    out.printf(FORMAT, name, value);
  }
}
