package io.tern.benchmark.engine;

import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.common.StandardOptions;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the engine benchmark. */
record EngineOptions(
    Path dataParentDir,
    Path jsonOut,
    int instances,
    int window,
    List<Integer> tasks,
    List<Boolean> batching) {

  /** The command line as picocli reads it: {@code engine --help} prints it. */
  @Command(
      name = "engine",
      description =
          "Engine-only throughput on one partition (single replica, sync flush, no network):"
              + " process instances per second and records per instance, for processes of 1 and 10"
              + " service tasks, with batch processing on and off.")
  static final class Arguments {
    @Option(
        names = "--instances",
        paramLabel = "N",
        description = "process instances per measurement (default 20000, quick 2000)")
    Integer instances;

    @Option(
        names = "--window",
        paramLabel = "N",
        defaultValue = "500",
        description = "instances in flight, and jobs activated at once (default ${DEFAULT-VALUE})")
    int window;

    @Option(
        names = "--tasks",
        paramLabel = "LIST",
        defaultValue = "1,10",
        description = "service tasks per process (default ${DEFAULT-VALUE})")
    String tasks;

    @Option(
        names = "--batching",
        paramLabel = "LIST",
        defaultValue = "on,off",
        description = "batch processing on, off or both (default both)")
    String batching;

    @Option(names = "--quick", description = "2000 instances")
    boolean quick;

    @Mixin StandardOptions files = new StandardOptions();
  }

  /**
   * The options in {@code args}, or null after printing the usage when they ask for help.
   *
   * @throws CommandLines.UsageException naming what is wrong, with the usage
   */
  static EngineOptions parse(String[] args) {
    return CommandLines.parse(new Arguments(), args, EngineOptions::resolve);
  }

  private static EngineOptions resolve(Arguments arguments) {
    int instances =
        arguments.instances != null ? arguments.instances : arguments.quick ? 2000 : 20_000;
    return new EngineOptions(
        arguments.files.dataParentDir(),
        arguments.files.jsonOut("engine"),
        CommandLines.positive("--instances", instances),
        CommandLines.positive("--window", arguments.window),
        CommandLines.positiveNumbers("--tasks", arguments.tasks),
        CommandLines.names("--batching", arguments.batching, List.of("on", "off")).stream()
            .map("on"::equals)
            .toList());
  }
}
