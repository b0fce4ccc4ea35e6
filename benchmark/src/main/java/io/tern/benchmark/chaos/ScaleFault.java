package io.tern.benchmark.chaos;

import io.tern.benchmark.common.Progress;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The scale fault's talk with the coordinator (docs/scaling.md): asks for a new set of brokers,
 * finds the moment and the broker for a kill in the middle of a move, and waits until a change
 * completed. {@link FaultInjector} does the killing, restarting and stopping.
 */
final class ScaleFault {
  /** Keys of the fault's history variables: the changes' ids, durations and the kill. */
  static final String UP_CHANGE = "scaleUpChange";

  static final String UP_MS = "scaleUpMs";
  static final String UP_STATUS = "scaleUpStatus";
  static final String DOWN_CHANGE = "scaleDownChange";
  static final String DOWN_MS = "scaleDownMs";
  static final String DOWN_STATUS = "scaleDownStatus";
  static final String KILLED = "scaleKilled";

  /** Steps of the growth not done yet right after the kill: more than 0 for a kill mid-move. */
  static final String PENDING_AT_KILL = "scalePendingAtKill";

  /** A step moves a small partition in a few hundred milliseconds: look often to catch one. */
  private static final Duration MOVE_POLL = Duration.ofMillis(20);

  private static final Duration CHANGE_POLL = Duration.ofMillis(100);

  /** A change the coordinator accepted; {@code acceptedNanos} on {@link System#nanoTime}. */
  record Change(long id, List<Integer> brokers, int steps, long acceptedNanos) {}

  /** The broker to kill, and where the change stood when it was picked. */
  record Victim(int node, int done, int pending, String nextStep) {}

  private final ClusterProbe probe;
  private final int coordinator;
  private final Duration timeout;
  private final Progress progress;

  /**
   * @param coordinator the lowest node id of the cluster, which coordinates changes
   * @param timeout the longest wait for a change to be accepted, to reach a step, to complete
   */
  ScaleFault(ClusterProbe probe, int coordinator, Duration timeout, Progress progress) {
    this.probe = probe;
    this.coordinator = coordinator;
    this.timeout = timeout;
    this.progress = progress;
  }

  /**
   * Asks the coordinator for the cluster of {@code brokers}; asks again while it refuses because it
   * has not heard of a new broker yet (a broker just started announces itself within moments).
   */
  Change request(List<Integer> brokers) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      HttpResponse<String> answer = probe.changeBrokers(coordinator, brokers);
      if (answer.statusCode() == 202) {
        Map<?, ?> plan = (Map<?, ?>) ClusterProbe.tree(answer.body());
        Change change =
            new Change(
                ((Number) plan.get("changeId")).longValue(),
                brokers,
                ((List<?>) plan.get("plannedChanges")).size(),
                System.nanoTime());
        progress.log(
            "scale: change %d to brokers %s accepted, %d steps",
            change.id(), brokers, change.steps());
        return change;
      }
      boolean notHeardOfYet = answer.statusCode() == 400 && answer.body().contains("not known");
      if (!notHeardOfYet || System.nanoTime() > deadline) {
        throw new IOException(
            "the coordinator (broker "
                + coordinator
                + ") answered "
                + answer.statusCode()
                + " to brokers "
                + brokers
                + ": "
                + answer.body());
      }
      Thread.sleep(CHANGE_POLL.toMillis());
    }
  }

  /**
   * Waits until {@code change} is partway, at least one step done and another to do, and returns
   * the broker to kill: the one of the next join to do (a broker being added, its replica not yet a
   * voter), else that of the next leave of a broker other than the coordinator (killing the
   * coordinator only pauses the change, see docs/scaling.md).
   */
  Victim awaitMidMove(Change change) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Map<?, ?> pending = pending(change);
      if (pending == null) {
        throw new IOException(
            "change "
                + change.id()
                + " ended before a broker could be killed in the middle of a move: "
                + probe.cluster(coordinator).get("lastChange"));
      }
      List<?> done = (List<?>) pending.get("completed");
      List<?> todo = (List<?>) pending.get("pending");
      if (!done.isEmpty()) {
        Victim victim = null;
        for (Object each : todo) {
          Map<?, ?> step = (Map<?, ?>) each;
          int broker = ((Number) step.get("brokerId")).intValue();
          boolean join = "PARTITION_JOIN".equals(step.get("operation"));
          if (join || (victim == null && broker != coordinator)) {
            victim = new Victim(broker, done.size(), todo.size(), describe(step));
          }
          if (join) {
            break;
          }
        }
        if (victim != null) {
          return victim;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "change " + change.id() + " did not reach its second step within " + timeout);
      }
      Thread.sleep(MOVE_POLL.toMillis());
    }
  }

  /** How many steps of {@code change} are still to do: 0 once it ended. */
  int stepsToDo(Change change) throws IOException {
    Map<?, ?> pending = pending(change);
    return pending == null ? 0 : ((List<?>) pending.get("pending")).size();
  }

  /**
   * Waits until the coordinator reports {@code change} COMPLETED; returns the milliseconds from its
   * acceptance. The coordinator not answering for a while (it may have been restarted) is waited
   * out; a change that ends otherwise, or not within the timeout, is an error.
   */
  long awaitCompleted(Change change) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer yet";
    while (System.nanoTime() < deadline) {
      Map<?, ?> lastChange = null;
      try {
        lastChange = (Map<?, ?>) probe.cluster(coordinator).get("lastChange");
        last = "last change " + lastChange;
      } catch (IOException e) {
        last = e.getMessage();
      }
      if (lastChange != null && ((Number) lastChange.get("id")).longValue() == change.id()) {
        if (!"COMPLETED".equals(lastChange.get("status"))) {
          throw new IOException("change " + change.id() + " ended so: " + lastChange);
        }
        long ms = (System.nanoTime() - change.acceptedNanos()) / 1_000_000;
        progress.log(
            "scale: change %d to brokers %s COMPLETED after %d ms",
            change.id(), change.brokers(), ms);
        return ms;
      }
      Thread.sleep(CHANGE_POLL.toMillis());
    }
    throw new IOException(
        "change " + change.id() + " did not complete within " + timeout + " (" + last + ")");
  }

  /** The coordinator's pending change if it is {@code change}, else null. */
  private Map<?, ?> pending(Change change) throws IOException {
    Map<?, ?> pending = (Map<?, ?>) probe.cluster(coordinator).get("pendingChange");
    return pending != null && ((Number) pending.get("id")).longValue() == change.id()
        ? pending
        : null;
  }

  private static String describe(Map<?, ?> step) {
    return step.get("operation") + " " + step.get("brokerId") + " " + step.get("partitionId");
  }
}
