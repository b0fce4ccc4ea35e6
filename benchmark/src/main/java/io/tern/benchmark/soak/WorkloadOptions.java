package io.tern.benchmark.soak;

import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * What instances run, for {@code soak} and {@code starter} alike (a picocli mixin): a named
 * workload, or a process of the user's own with its payload, and the job type its tasks get.
 */
final class WorkloadOptions {
  @Option(
      names = "--workload",
      paramLabel = "NAME",
      defaultValue = "typical",
      description =
          "one-task, typical, message-start, timer or multi-instance (default ${DEFAULT-VALUE})")
  String name;

  @Option(
      names = "--bpmn",
      paramLabel = "FILE",
      description = "a process of your own instead of --workload")
  Path bpmn;

  @Option(
      names = "--payload",
      paramLabel = "FILE",
      description = "with --bpmn: each instance's variables, a JSON object")
  Path payload;

  @Option(
      names = "--job-type",
      paramLabel = "TYPE",
      defaultValue = "benchmark-task",
      description = "the job type of the workload's tasks (default ${DEFAULT-VALUE})")
  String jobType;

  /** The workload these options name; a clear error for a payload without its process. */
  SoakWorkload resolve() {
    if (payload != null && bpmn == null) {
      throw new IllegalArgumentException("--payload goes with --bpmn");
    }
    return bpmn != null
        ? SoakWorkload.file(bpmn, payload)
        : SoakWorkload.named(name.toLowerCase(Locale.ROOT));
  }
}
