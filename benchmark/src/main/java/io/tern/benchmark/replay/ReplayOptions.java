package io.tern.benchmark.replay;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.ByteSizes;
import io.tern.benchmark.common.OptionValues;
import java.nio.file.Path;

/** Options of the replay benchmark. */
record ReplayOptions(Path dataParentDir, Path jsonOut, long logBytes, int valueBytes) {
  static final String USAGE =
      String.join(
          "\n",
          "Usage: java -jar tern-benchmark.jar replay [options]",
          "",
          "Fills a one-member partition's log with commands and their events (each event stores",
          "its value in RocksDB), restarts it without a snapshot and times the replay.",
          "",
          "  --log-bytes N[K|M|G]   log size to replay (default 1G)",
          "  --quick                a 64 MiB log",
          "  --value-bytes N        bytes of each record's value (default 1024)",
          "  --dir PATH             where the scratch data goes (default target)",
          "  --out FILE             JSON results (default replay-benchmark.json next to the jar)");

  static ReplayOptions parse(String[] args) {
    Path dir = Path.of("target");
    Path out = BenchmarkFiles.defaultJsonOut("replay-benchmark.json");
    long logBytes = ByteSizes.GIB;
    int valueBytes = 1024;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--log-bytes" -> logBytes = ByteSizes.parse(value(args, ++i, option));
        case "--quick" -> logBytes = 64 * ByteSizes.MIB;
        case "--value-bytes" -> valueBytes = Integer.parseInt(value(args, ++i, option));
        case "--dir" -> dir = Path.of(value(args, ++i, option));
        case "--out" -> out = Path.of(value(args, ++i, option));
        case "--help", "-h" -> {
          System.out.println(USAGE);
          return null;
        }
        default -> throw new IllegalArgumentException("Unknown option " + option + "\n" + USAGE);
      }
    }
    if (valueBytes < 1 || valueBytes > 1024 * 1024) {
      throw new IllegalArgumentException("--value-bytes must be within [1, 1048576]");
    }
    return new ReplayOptions(dir, out, logBytes, valueBytes);
  }

  private static String value(String[] args, int i, String option) {
    return OptionValues.value(args, i, option, USAGE);
  }
}
