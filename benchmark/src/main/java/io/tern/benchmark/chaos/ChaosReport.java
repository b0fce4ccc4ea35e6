package io.tern.benchmark.chaos;

import io.tern.benchmark.chaos.Op.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The chaos run's summary in Markdown: the counts, each fault with its failover and recovery times,
 * the distribution of those times, and each violation with its history excerpt and how to run the
 * same schedule again.
 */
final class ChaosReport {
  /** A fault's failoverMs when no failover came within the hold. */
  static final String OVER_HOLD = ">hold";

  private ChaosReport() {}

  static String render(ChaosOptions options, Checker.Result result, List<Op> history) {
    return render(options, result, history, "");
  }

  /**
   * @param counts more counts, in Markdown, shown after the counts of operations (the message
   *     mode's ways of taking a message)
   */
  static String render(
      ChaosOptions options, Checker.Result result, List<Op> history, String counts) {
    List<Op> faults = history.stream().filter(op -> op.kind() == Kind.FAULT).toList();
    StringBuilder out = new StringBuilder();
    out.append("# Chaos run: ")
        .append(result.valid() ? "VALID" : result.violations().size() + " VIOLATIONS")
        .append("\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "seed %d, faults %s, %d brokers, %d partitions, replication %d, %s of faults at"
                + " %s instances/s, hold %s%n%n",
            options.seed,
            options.faults,
            options.brokers,
            options.partitions,
            options.replication,
            options.duration,
            options.rate,
            options.hold));
    out.append("| faults | operations | acknowledged | unknown | refused | lost | duplicated |\n");
    out.append("|---:|---:|---:|---:|---:|---:|---:|\n");
    out.append(
        String.format(
            Locale.ROOT,
            "| %d | %d | %d | %d | %d | %d | %d |%n%n",
            faults.size(),
            result.operations(),
            result.acknowledged(),
            result.unknown(),
            result.refused(),
            result.lost(),
            result.duplicated()));
    out.append(counts);
    out.append(
        "| # | fault | failover ms | processing again ms | recovered ms after heal | outcome |\n");
    out.append("|---:|---|---:|---:|---:|---|\n");
    List<Long> failovers = new ArrayList<>();
    List<Long> processing = new ArrayList<>();
    List<Long> recoveries = new ArrayList<>();
    int n = 0;
    for (int i = 0; i < faults.size(); i++) {
      Op fault = faults.get(i);
      Long nextStart = i + 1 < faults.size() ? faults.get(i + 1).start() : null;
      String failover = fault.vars().getOrDefault("failoverMs", "-");
      String recovered = fault.vars().getOrDefault("recoveredMs", "-");
      if (failover.equals(OVER_HOLD)) {
        failovers.add(Long.MAX_VALUE);
        failover = ">" + options.hold.toMillis();
      } else if (!failover.equals("-")) {
        failovers.add(Long.parseLong(failover));
      }
      if (!recovered.equals("-")) {
        recoveries.add(Long.parseLong(recovered));
      }
      Long again = processingAgainMs(fault, nextStart, history, options.partitions);
      if (again != null) {
        processing.add(again);
      }
      out.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %s | %s | %s | %s |%n",
              ++n,
              fault.detail(),
              failover,
              again == null ? "-" : Long.toString(again),
              recovered,
              fault.error() == null ? "recovered" : "NOT recovered: " + fault.error()));
    }
    out.append('\n');
    out.append("failover (a leader for every partition among the brokers left up): ")
        .append(distribution(failovers, options.hold.toMillis()))
        .append('\n');
    out.append(
            "processing again (every partition acknowledged a creation or completion sent once"
                + " the fault was in place): ")
        .append(distribution(processing))
        .append('\n');
    out.append("recovery (all brokers ready, one leader per partition, after the heal): ")
        .append(distribution(recoveries))
        .append("\n\n");
    out.append(changes(faults));
    for (Checker.Violation violation : result.violations()) {
      out.append("## ").append(violation.type()).append(": ").append(violation.message());
      out.append("\n\n```\n");
      violation.excerpt().forEach(op -> out.append(op.toJson()).append('\n'));
      out.append("```\n\n");
    }
    if (!result.valid()) {
      out.append("Reproduce the schedule: chaos --workload ")
          .append(options.workload)
          .append(" --seed ")
          .append(options.seed)
          .append(" --faults ")
          .append(options.faults)
          .append(" --duration ")
          .append(options.duration.toSeconds())
          .append("s --hold ")
          .append(options.hold.toMillis())
          .append("ms\n");
    }
    return out.toString();
  }

  /**
   * The scale faults' cluster changes: each one's id, how long from its acceptance until the
   * coordinator reported it COMPLETED (the growth's includes the killed broker's hold and restart),
   * and the kill in the middle of the growth; empty without a scale fault.
   */
  static String changes(List<Op> faults) {
    StringBuilder out = new StringBuilder();
    for (Op fault : faults) {
      java.util.Map<String, String> vars = fault.vars();
      String up = vars.get(ScaleFault.UP_CHANGE);
      if (up == null) {
        continue;
      }
      if (out.length() == 0) {
        out.append("| cluster change | to | ms until COMPLETED | status | kill -9 mid-move |\n");
        out.append("|---:|---|---:|---|---|\n");
      }
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | all brokers | %s | %s | broker %s, %s steps still to do after it |%n",
              up,
              vars.getOrDefault(ScaleFault.UP_MS, "-"),
              vars.getOrDefault(ScaleFault.UP_STATUS, "not completed"),
              vars.getOrDefault(ScaleFault.KILLED, "-"),
              vars.getOrDefault(ScaleFault.PENDING_AT_KILL, "-")));
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | the first brokers again | %s | %s | - |%n",
              vars.getOrDefault(ScaleFault.DOWN_CHANGE, "-"),
              vars.getOrDefault(ScaleFault.DOWN_MS, "-"),
              vars.getOrDefault(ScaleFault.DOWN_STATUS, "not completed")));
    }
    return out.length() == 0 ? "" : out.append('\n').toString();
  }

  /**
   * How long after {@code fault} was in place (its injection done) every partition had acknowledged
   * a creation or a job completion sent after that (a partition's first answer, measured at that
   * answer, before {@code nextFaultStart} if there is a next fault); null if one partition answered
   * none in that time. Partitions the fault did not touch answer within their usual latency, so
   * this is the slowest partition's way back to processing.
   */
  static Long processingAgainMs(Op fault, Long nextFaultStart, List<Op> history, int partitions) {
    long from = fault.start() + Long.parseLong(fault.vars().getOrDefault("injectedMs", "0"));
    long[] first = new long[partitions + 1];
    java.util.Arrays.fill(first, Long.MAX_VALUE);
    for (Op op : history) {
      if (op.outcome() != Op.Outcome.OK
          || op.start() < from
          || nextFaultStart != null && op.end() > nextFaultStart) {
        continue;
      }
      long key =
          op.kind() == Kind.CREATE
              ? op.instanceKey()
              : op.kind() == Kind.COMPLETE ? op.jobKey() : 0;
      if (key <= 0) {
        continue;
      }
      int partition = io.tern.engine.record.Keys.partitionOf(key);
      if (partition >= 1 && partition <= partitions) {
        first[partition] = Math.min(first[partition], op.end());
      }
    }
    long slowest = 0;
    for (int partition = 1; partition <= partitions; partition++) {
      if (first[partition] == Long.MAX_VALUE) {
        return null;
      }
      slowest = Math.max(slowest, first[partition] - from);
    }
    return slowest;
  }

  /** min, median, max of {@code millis}, or "none". */
  static String distribution(List<Long> millis) {
    return distribution(millis, 0);
  }

  /**
   * min, median, max of {@code millis}, or "none"; {@link Long#MAX_VALUE} stands for a time over
   * the hold, shown as "&gt;hold" and counted (it is the slowest, not a missing one).
   */
  static String distribution(List<Long> millis, long holdMs) {
    if (millis.isEmpty()) {
      return "none";
    }
    List<Long> sorted = millis.stream().sorted().toList();
    long overHold = sorted.stream().filter(ms -> ms == Long.MAX_VALUE).count();
    return String.format(
        Locale.ROOT,
        "n=%d%s, min %s ms, median %s ms, max %s ms",
        sorted.size(),
        overHold == 0 ? "" : " (" + overHold + " over the " + holdMs + " ms hold)",
        millis(sorted.get(0), holdMs),
        millis(sorted.get(sorted.size() / 2), holdMs),
        millis(sorted.get(sorted.size() - 1), holdMs));
  }

  private static String millis(long ms, long holdMs) {
    return ms == Long.MAX_VALUE ? ">" + holdMs : Long.toString(ms);
  }
}
