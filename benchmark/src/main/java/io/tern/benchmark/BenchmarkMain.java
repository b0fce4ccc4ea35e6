package io.tern.benchmark;

import io.tern.benchmark.engine.EngineBenchmark;
import io.tern.benchmark.journal.JournalBenchmark;
import io.tern.benchmark.load.LoadBenchmark;
import io.tern.benchmark.raft.RaftBenchmark;
import io.tern.benchmark.replay.ReplayBenchmark;
import io.tern.benchmark.state.StateBenchmark;
import java.util.Arrays;

/**
 * Entry point of the benchmark jar. The first argument names the benchmark, the rest go to it, so
 * that new benchmarks can join without another jar or main class.
 */
public final class BenchmarkMain {

  private BenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      printUsage();
      System.exit(args.length == 0 ? 2 : 0);
      return;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    int exitCode;
    switch (args[0]) {
      case "journal":
        exitCode = JournalBenchmark.run(rest);
        break;
      case "raft":
        exitCode = RaftBenchmark.run(rest);
        break;
      case "replay":
        exitCode = ReplayBenchmark.run(rest);
        break;
      case "state":
        exitCode = StateBenchmark.run(rest);
        break;
      case "engine":
        exitCode = EngineBenchmark.run(rest);
        break;
      case "load":
        exitCode = LoadBenchmark.run(rest);
        break;
      default:
        System.err.println("Unknown benchmark: " + args[0]);
        printUsage();
        exitCode = 2;
    }
    System.exit(exitCode);
  }

  private static void printUsage() {
    System.err.println("Usage: java -jar tern-benchmark.jar <benchmark> [options]");
    System.err.println();
    System.err.println("Benchmarks:");
    System.err.println("  journal   the segmented journal next to the disk's raw limits");
    System.err.println("            (java -jar tern-benchmark.jar journal --help for options)");
    System.err.println("  raft      replicated logs side by side (Tern's Raft, Apache Ratis)");
    System.err.println("            (java -jar tern-benchmark.jar raft --help for options)");
    System.err.println("  replay    a partition's replay (recovery) rate from its log");
    System.err.println("            (java -jar tern-benchmark.jar replay --help for options)");
    System.err.println("  state     a workflow engine's state-store workload on RocksDB");
    System.err.println("            (java -jar tern-benchmark.jar state --help for options)");
    System.err.println("  engine    BPMN engine throughput on one partition (instances/s)");
    System.err.println("            (java -jar tern-benchmark.jar engine --help for options)");
    System.err.println("  load      workflow load through the gateway with the official client");
    System.err.println("            (java -jar tern-benchmark.jar load --help for options)");
  }
}
