package io.tern.benchmark.load;

import java.util.Map;

/**
 * How many commits an instance waits for one after another: the commit-gated steps of its path,
 * derived from the workload's process (its jobs and timers, in order; both processes are
 * sequential, with no parallel branch) and the configuration's flags.
 *
 * <ul>
 *   <li>Batch processing on, processing.uncommitted off: a command is processed once it commits,
 *       and its result (the next job, the timer, the answer) is released once the result commits.
 *       The create is 2 steps (its command, its result with the first job), every job completion 2
 *       more (the complete command, its result with the next job or the answer), every timer 2 more
 *       (the trigger command, its result): 2 + 2 jobs + 2 timers. Typical: 2 + 20 + 2 = 24;
 *       one-task: 4.
 *   <li>processing.uncommitted on: nothing waits for a commit before it is processed; only what
 *       leaves the partition does (a job pushed, the answer), and with processing.uncommittedTimers
 *       off a timer's scheduling too. The create's result releases the first job (1), every
 *       completion's result the next job or the answer (1 each), and a commit-gated timer adds 1: 1
 *       + jobs (+ timers). Typical: 11 with timers firing uncommitted, 12 without; one-task: 2.
 *       Batch size does not change this: follow-up commands are processed uncommitted either way.
 *   <li>Batches limited (processing.maxCommandsInBatch below the default), the flag off: every
 *       follow-up command waits for the commit of the entry that carries it, so every entry an
 *       instance commits is a step (the processes are sequential): the measured entries committed
 *       per instance are the count.
 * </ul>
 */
final class FloorModel {
  /** A count of steps and how it was found. */
  record Steps(double count, String derivation) {}

  private static final int DEFAULT_MAX_COMMANDS_IN_BATCH = 100;

  private FloorModel() {}

  /** Jobs on the path an instance of {@code workload} takes (the typical one: the long branch). */
  static int jobs(String workload) {
    return switch (workload) {
      case Workloads.TYPICAL -> 10;
      case Workloads.ONE_TASK -> 1;
      default -> throw new IllegalArgumentException("no workload named " + workload);
    };
  }

  /** Timers on that path. */
  static int timers(String workload) {
    return workload.equals(Workloads.TYPICAL) ? 1 : 0;
  }

  /**
   * The commit-gated steps of the runner's round-trip probe (a cancel its leader rejects): the
   * command's commit and the rejection's, or only the rejection's with processing.uncommitted.
   */
  static int probeSteps(Map<String, String> keys) {
    return "true".equalsIgnoreCase(keys.get("processing.uncommitted")) ? 1 : 2;
  }

  static Steps steps(String workload, Map<String, String> keys, double committedPerInstance) {
    int jobs = jobs(workload);
    int timers = timers(workload);
    boolean uncommitted = "true".equalsIgnoreCase(keys.get("processing.uncommitted"));
    if (uncommitted) {
      boolean timersUncommitted =
          !"false".equalsIgnoreCase(keys.get("processing.uncommittedTimers"));
      int gatedTimers = timersUncommitted ? 0 : timers;
      return new Steps(
          1 + jobs + gatedTimers,
          "1 + " + jobs + " jobs" + (timers == 0 ? "" : " + " + gatedTimers + " gated timers"));
    }
    int batch =
        Integer.parseInt(
            keys.getOrDefault(
                "processing.maxCommandsInBatch", Integer.toString(DEFAULT_MAX_COMMANDS_IN_BATCH)));
    if (batch < DEFAULT_MAX_COMMANDS_IN_BATCH) {
      return new Steps(committedPerInstance, "every committed entry (batches of " + batch + ")");
    }
    return new Steps(
        2 + 2 * jobs + 2 * timers,
        "2 + 2 x " + jobs + " jobs" + (timers == 0 ? "" : " + 2 x " + timers + " timers"));
  }
}
