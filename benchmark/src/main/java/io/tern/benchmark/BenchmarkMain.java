package io.tern.benchmark;

import io.tern.benchmark.chaos.ChaosBenchmark;
import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.engine.EngineBenchmark;
import io.tern.benchmark.journal.JournalBenchmark;
import io.tern.benchmark.load.ExperimentBenchmark;
import io.tern.benchmark.load.LoadBenchmark;
import io.tern.benchmark.raft.RaftBenchmark;
import io.tern.benchmark.replay.ReplayBenchmark;
import io.tern.benchmark.scaling.ScalingBenchmark;
import io.tern.benchmark.soak.LoadCommands;
import io.tern.benchmark.soak.SoakBenchmark;
import io.tern.benchmark.soak.SoakReportCommand;
import io.tern.benchmark.state.StateBenchmark;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * Entry point of the benchmark jar. The first argument names the benchmark, the rest go to it, so
 * that new benchmarks can join without another jar or main class: a benchmark is a class with a
 * {@code public static int run(String[] args)} that reads its own options (see {@link
 * CommandLines}), and one line in {@link #BENCHMARKS}.
 */
@Command(
    name = CommandLines.JAR_COMMAND,
    synopsisSubcommandLabel = "<benchmark> [OPTIONS]",
    description =
        "Tern's benchmarks. Each prints its figures next to the machine's own limits, measured in"
            + " the same run.",
    commandListHeading = "%nBenchmarks:%n",
    footer = {
      "",
      "The rest of the command line goes to the benchmark, and",
      "  " + CommandLines.JAR_COMMAND + " <benchmark> --help",
      "lists its options."
    })
public final class BenchmarkMain {

  /** A benchmark's entry point: reads {@code args}, runs, returns the process exit code. */
  @FunctionalInterface
  interface Entry {
    int run(String[] args) throws Exception;
  }

  /** A benchmark the jar runs: the name that picks it, what it measures, its entry point. */
  record Benchmark(String name, String measures, Entry entry) {}

  /** Every benchmark, in the order the usage lists them. To add one, add a line. */
  static final List<Benchmark> BENCHMARKS =
      List.of(
          new Benchmark(
              "journal",
              "the segmented journal next to the disk's raw limits",
              JournalBenchmark::run),
          new Benchmark(
              "raft",
              "replicated logs side by side (Tern's Raft, Apache Ratis)",
              RaftBenchmark::run),
          new Benchmark(
              "replay", "a partition's replay (recovery) rate from its log", ReplayBenchmark::run),
          new Benchmark(
              "state", "a workflow engine's state-store workload on RocksDB", StateBenchmark::run),
          new Benchmark(
              "engine",
              "BPMN engine throughput on one partition (instances/s)",
              EngineBenchmark::run),
          new Benchmark(
              "load",
              "workflow load through the gateway with the official client",
              LoadBenchmark::run),
          new Benchmark(
              "experiment",
              "latency experiments: broker configurations compared in one report",
              ExperimentBenchmark::run),
          new Benchmark(
              "soak", "the weekly long run: steady load, plotted and judged", SoakBenchmark::run),
          new Benchmark(
              "soak-report",
              "a soak's report and verdicts again, from its data",
              SoakReportCommand::run),
          new Benchmark(
              "chaos",
              "faults under load on a local cluster; the history checked",
              ChaosBenchmark::run),
          new Benchmark(
              "scaling",
              "online scaling's targets on local broker processes",
              ScalingBenchmark::run),
          new Benchmark(
              "starter",
              "the soak's starter alone: instances at a fixed rate",
              LoadCommands::starter),
          new Benchmark(
              "worker",
              "the soak's workers alone: jobs of one type completed",
              LoadCommands::worker));

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this list")
  private boolean help;

  private BenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args));
  }

  /** Runs the benchmark that {@code args} name with the rest of them; returns the exit code. */
  static int run(String[] args) throws Exception {
    CommandLine commandLine = commandLine();
    if (args.length == 0) {
      commandLine.usage(System.err);
      return 2;
    }
    ParseResult parsed;
    try {
      parsed = commandLine.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      System.err.println(
          args[0].startsWith("-") ? e.getMessage() : "Unknown benchmark: " + args[0]);
      commandLine.usage(System.err);
      return 2;
    }
    if (commandLine.isUsageHelpRequested() || !parsed.hasSubcommand()) {
      commandLine.usage(System.out);
      return 0;
    }
    String name = parsed.subcommand().commandSpec().name();
    Benchmark benchmark =
        BENCHMARKS.stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
    // The jar takes no option but --help, so the name is the first argument and everything after
    // it, untouched, is the benchmark's own command line.
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    try {
      return benchmark.entry().run(rest);
    } catch (CommandLines.UsageException e) {
      System.err.println(e.getMessage());
      return 2;
    }
  }

  /**
   * The jar's command line: a subcommand per benchmark, which takes whatever follows its name
   * without reading it (the benchmark does).
   */
  static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new BenchmarkMain());
    commandLine.setExpandAtFiles(false);
    for (Benchmark benchmark : BENCHMARKS) {
      CommandSpec spec = CommandSpec.create().name(benchmark.name());
      spec.usageMessage().description(benchmark.measures());
      spec.parser().unmatchedOptionsArePositionalParams(true);
      spec.addPositional(
          PositionalParamSpec.builder().arity("0..*").type(String[].class).hidden(true).build());
      commandLine.addSubcommand(benchmark.name(), spec);
    }
    return commandLine;
  }
}
