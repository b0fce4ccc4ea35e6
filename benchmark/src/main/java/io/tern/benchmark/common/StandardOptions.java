package io.tern.benchmark.common;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options every benchmark but {@code load} takes, mixed into its own with {@code @Mixin
 * StandardOptions files;} (see {@link CommandLines}): where the scratch data and the JSON results
 * go, and help.
 */
public final class StandardOptions {
  @Option(
      names = "--dir",
      paramLabel = "PATH",
      defaultValue = "target",
      description =
          "where the scratch data goes: a fresh subdirectory there, deleted afterwards (default"
              + " ${DEFAULT-VALUE})")
  private Path dataParentDir;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "JSON results (default ${COMMAND-NAME}-benchmark.json next to the jar)")
  private Path jsonOut;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this help")
  private boolean help;

  /** {@code --dir}: where the benchmark creates its scratch directory. */
  public Path dataParentDir() {
    return dataParentDir;
  }

  /** {@code --out}, or {@code <benchmark>-benchmark.json} next to the jar. */
  public Path jsonOut(String benchmark) {
    return jsonOut != null ? jsonOut : BenchmarkFiles.defaultJsonOut(benchmark + "-benchmark.json");
  }
}
