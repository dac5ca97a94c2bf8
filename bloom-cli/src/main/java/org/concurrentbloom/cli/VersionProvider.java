package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Supplies {@code bloom --version} from {@code version.properties}, which Maven fills in at build time. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {
        "bloom " + version(),
        "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
  }

  /** The project version, or "unknown" when the resource is missing (running from unfiltered sources). */
  static String version() {
    Properties props = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      props.load(in);
    } catch (IOException e) {
      return "unknown";
    }
    String v = props.getProperty("version", "unknown");
    return v.startsWith("${") ? "unknown" : v;
  }
}
