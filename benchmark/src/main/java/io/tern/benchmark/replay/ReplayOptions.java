package io.tern.benchmark.replay;

import io.tern.benchmark.common.ByteSizes;
import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.common.StandardOptions;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the replay benchmark. */
record ReplayOptions(Path dataParentDir, Path jsonOut, long logBytes, int valueBytes) {
  static final int MAX_VALUE_BYTES = 1024 * 1024;

  /** The command line as picocli reads it: {@code replay --help} prints it. */
  @Command(
      name = "replay",
      description =
          "Fills a one-member partition's log with commands and their events (each event stores"
              + " its value in RocksDB), restarts it without a snapshot and times the replay, next"
              + " to a plain read of the same files.",
      footer = "%nNeeds three times the log size free under --dir.")
  static final class Arguments {
    @Option(
        names = "--log-bytes",
        paramLabel = "N[K|M|G]",
        converter = ByteSizes.Converter.class,
        description = "log size to replay (default 1G, quick 64M)")
    Long logBytes;

    @Option(names = "--quick", description = "a 64 MiB log")
    boolean quick;

    @Option(
        names = "--value-bytes",
        paramLabel = "N",
        defaultValue = "1024",
        description = "bytes of each record's value, at most 1 MiB (default ${DEFAULT-VALUE})")
    int valueBytes;

    @Mixin StandardOptions files = new StandardOptions();
  }

  /**
   * The options in {@code args}, or null after printing the usage when they ask for help.
   *
   * @throws CommandLines.UsageException naming what is wrong, with the usage
   */
  static ReplayOptions parse(String[] args) {
    return CommandLines.parse(new Arguments(), args, ReplayOptions::resolve);
  }

  private static ReplayOptions resolve(Arguments arguments) {
    if (arguments.valueBytes < 1 || arguments.valueBytes > MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "--value-bytes must be within [1, " + MAX_VALUE_BYTES + "], got " + arguments.valueBytes);
    }
    long logBytes =
        arguments.logBytes != null
            ? arguments.logBytes
            : arguments.quick ? 64 * ByteSizes.MIB : ByteSizes.GIB;
    return new ReplayOptions(
        arguments.files.dataParentDir(),
        arguments.files.jsonOut("replay"),
        logBytes,
        arguments.valueBytes);
  }
}
