package io.tern.benchmark.chaos;

import io.tern.benchmark.chaos.Op.Kind;
import io.tern.benchmark.chaos.Op.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Checks a chaos run's history against what clients were promised. A creation that was acknowledged
 * must reach its end (once a publication of its message went through); nothing that was not
 * requested (or was refused) may appear; each service task of an instance yields exactly one job,
 * and a job whose completion was acknowledged is never handed out again; task B reads exactly what
 * task A wrote and what a publication for its business id brought; a publication reaches at most
 * one instance; every fault healed into a recovered cluster. Operations with unknown outcomes may
 * have taken effect or not; either is allowed.
 *
 * <p>Checkpoint mode, for a history with restore faults ({@link Fault#RESTORE}: a backup, then
 * every broker wiped and restored from it): what was acknowledged before the checkpoint was asked
 * for must survive the restore whole; what was acknowledged after it and before the wipe may have
 * been lost with everything after it (an instance whose creation or publication was, need not end;
 * a job whose completion was, may be handed out again after the restore), but never in part: the
 * variables rules hold throughout, a completion acknowledged before the checkpoint is never undone,
 * and an instance created only after the checkpoint was answered (after every partition wrote it)
 * must not appear after the restore.
 */
final class Checker {
  /** Operations of the history shown with a violation, at most. */
  static final int EXCERPT_OPS = 25;

  /** A broken promise, with the operations that show it. */
  record Violation(Type type, String message, List<Op> excerpt) {}

  /** The kinds of broken promises. */
  enum Type {
    LOST,
    UNREQUESTED,
    DUPLICATED_INSTANCE,
    DUPLICATED_JOB,
    REACTIVATED_AFTER_COMPLETION,
    WRONG_VARIABLE,
    MESSAGE_TWICE,
    NOT_RECOVERED,
    /** Message mode: a way of taking a message that no instance took a message by. */
    NOT_EXERCISED,
    /** Checkpoint mode: an instance created after the checkpoint is there after the restore. */
    AFTER_CHECKPOINT
  }

  /**
   * A restore of the history (checkpoint mode), in ms on the history's clock: when the backup was
   * asked for, when every partition had written its checkpoint, and when the brokers were killed to
   * be wiped and restored.
   */
  record Restore(long asked, long answered, long wiped) {}

  /** The verdict and the counts of the summary. */
  record Result(
      List<Violation> violations,
      int operations,
      int acknowledged,
      int unknown,
      int refused,
      int lost,
      int duplicated) {
    boolean valid() {
      return violations.isEmpty();
    }
  }

  private final List<Op> ops;

  /** The operations of each business id: looked up per instance, so a long run stays linear. */
  private final Map<String, List<Op>> byBiz = new java.util.HashMap<>();

  private final List<Violation> violations = new ArrayList<>();

  /** The restores in the history, if any: checkpoint mode. */
  private final List<Restore> restores;

  private Checker(List<Op> ops) {
    this.ops = ops;
    this.restores = restores(ops);
    for (Op op : ops) {
      if (op.biz() != null) {
        byBiz.computeIfAbsent(op.biz(), biz -> new ArrayList<>()).add(op);
      }
    }
  }

  private List<Op> opsOf(String biz) {
    return byBiz.getOrDefault(biz, List.of());
  }

  static Result check(List<Op> history) {
    return new Checker(history).run();
  }

  /**
   * Checkpoint mode: the instances of the history so far that need not end, because a restore may
   * have undone their creation or every publication for them (they wait for a message for good);
   * the settle does not wait for them. Empty without a restore.
   */
  static Set<Long> mayNeverEnd(List<Op> history) {
    Checker checker = new Checker(history);
    Set<Long> exempt = new TreeSet<>();
    if (checker.restores.isEmpty()) {
      return exempt;
    }
    for (Map.Entry<String, List<Op>> each : checker.group(Kind.CREATE, Op::biz).entrySet()) {
      Op acknowledged = first(each.getValue(), op -> op.outcome() == Outcome.OK);
      if (acknowledged != null
          && (checker.mayBeUndone(acknowledged) || !checker.published(each.getKey()))) {
        exempt.add(acknowledged.instanceKey());
      }
    }
    return exempt;
  }

  /** The restore faults of a history, from the times their FAULT operations record. */
  static List<Restore> restores(List<Op> ops) {
    List<Restore> restores = new ArrayList<>();
    for (Op op : ops) {
      String wiped = op.vars().get(FaultInjector.WIPED);
      if (op.kind() == Kind.FAULT && wiped != null) {
        restores.add(
            new Restore(
                Long.parseLong(op.vars().get(FaultInjector.CHECKPOINT_ASKED)),
                Long.parseLong(op.vars().get(FaultInjector.CHECKPOINT_ANSWERED)),
                Long.parseLong(wiped)));
      }
    }
    return restores;
  }

  /**
   * Whether a restore may have undone {@code op}: it was answered once the checkpoint had been
   * asked for and sent before the wipe. (An operation answered before the checkpoint was asked for
   * is before it on its partition: it must survive.)
   */
  private boolean mayBeUndone(Op op) {
    return undoneBy(op) != null;
  }

  /** How many restores wiped the brokers before {@code op} was sent. */
  private int era(Op op) {
    return (int) restores.stream().filter(restore -> restore.wiped() <= op.start()).count();
  }

  private Restore undoneBy(Op op) {
    for (Restore restore : restores) {
      if (op.end() >= restore.asked() && op.start() < restore.wiped()) {
        return restore;
      }
    }
    return null;
  }

  private Result run() {
    Map<String, List<Op>> creates = group(Kind.CREATE, Op::biz);
    Map<String, List<Op>> activations = group(Kind.ACTIVATE, Op::biz);
    int lost = lost(creates, activations);
    unrequested(creates, activations);
    int duplicated = duplicatedInstances(creates, activations) + duplicatedJobs(activations);
    duplicated += reactivated();
    afterCheckpoint(creates);
    variables(activations);
    messages();
    recovered();
    return tally(ops, violations, lost, duplicated);
  }

  /** The result: the counts of client operations by outcome (faults and ends are not any). */
  static Result tally(List<Op> ops, List<Violation> violations, int lost, int duplicated) {
    int operations = 0;
    int acknowledged = 0;
    int unknown = 0;
    int refused = 0;
    for (Op op : ops) {
      if (op.kind() == Kind.FAULT || op.kind() == Kind.ENDED) {
        continue;
      }
      operations++;
      switch (op.outcome()) {
        case OK -> acknowledged++;
        case UNKNOWN -> unknown++;
        case FAIL -> refused++;
      }
    }
    return new Result(
        List.copyOf(violations), operations, acknowledged, unknown, refused, lost, duplicated);
  }

  private int lost(Map<String, List<Op>> creates, Map<String, List<Op>> activations) {
    Map<Long, Op> ended = new HashMap<>();
    for (Op op : ops) {
      if (op.kind() == Kind.ENDED) {
        ended.put(op.instanceKey(), op);
      }
    }
    int lost = 0;
    for (Map.Entry<String, List<Op>> each : creates.entrySet()) {
      Op acknowledged = first(each.getValue(), op -> op.outcome() == Outcome.OK);
      if (acknowledged == null) {
        continue;
      }
      if (mayBeUndone(acknowledged)) {
        continue; // created after the checkpoint: a restore may have taken it away whole
      }
      if (!published(each.getKey())) {
        continue; // it waits for a message that never went through: not lost, never sent
      }
      List<Op> jobs = activations.getOrDefault(each.getKey(), List.of());
      List<String> missing = new ArrayList<>();
      for (String task : List.of(ChaosProcess.TASK_A, ChaosProcess.TASK_B)) {
        if (first(jobs, op -> task.equals(op.task())) == null) {
          missing.add("no job of " + task + " was activated");
        }
      }
      boolean taskBCompleted =
          opsOf(each.getKey()).stream()
              .anyMatch(
                  op ->
                      op.kind() == Kind.COMPLETE
                          && ChaosProcess.TASK_B.equals(op.task())
                          && each.getKey().equals(op.biz())
                          && op.outcome() != Outcome.FAIL);
      if (!taskBCompleted) {
        missing.add("no completion of " + ChaosProcess.TASK_B + " went through");
      }
      Op end = ended.get(acknowledged.instanceKey());
      if (end == null) {
        missing.add("its end was never checked");
      } else if (end.outcome() != Outcome.OK) {
        missing.add("it is still active after the settle (" + end.detail() + ")");
      }
      if (!missing.isEmpty()) {
        lost++;
        violate(
            Type.LOST,
            "instance "
                + each.getKey()
                + " (key "
                + acknowledged.instanceKey()
                + ") was acknowledged but did not reach its end: "
                + String.join("; ", missing),
            op ->
                each.getKey().equals(op.biz())
                    || (op.instanceKey() != 0 && op.instanceKey() == acknowledged.instanceKey()));
      }
    }
    return lost;
  }

  /**
   * Whether a publication for {@code biz} went through: acknowledged, unknown, or refused as a
   * duplicate of an earlier one; and no restore may have undone it.
   */
  private boolean published(String biz) {
    return opsOf(biz).stream()
        .anyMatch(
            op ->
                op.kind() == Kind.PUBLISH
                    && biz.equals(op.biz())
                    && (op.outcome() != Outcome.FAIL || "ALREADY_EXISTS".equals(op.error()))
                    && !mayBeUndone(op));
  }

  private void unrequested(Map<String, List<Op>> creates, Map<String, List<Op>> activations) {
    for (Map.Entry<String, List<Op>> each : activations.entrySet()) {
      String biz = each.getKey();
      List<Op> requested = creates.get(biz);
      if (requested == null) {
        violate(
            Type.UNREQUESTED,
            "jobs of an instance " + biz + " that was never requested",
            op -> Objects.equals(biz, op.biz()));
      } else if (requested.stream().allMatch(op -> op.outcome() == Outcome.FAIL)) {
        violate(
            Type.UNREQUESTED,
            "jobs of an instance " + biz + " whose creation was refused",
            op -> Objects.equals(biz, op.biz()));
      }
    }
  }

  private int duplicatedInstances(
      Map<String, List<Op>> creates, Map<String, List<Op>> activations) {
    int duplicated = 0;
    for (Map.Entry<String, List<Op>> each : activations.entrySet()) {
      Set<Long> instances = new TreeSet<>();
      each.getValue().forEach(op -> instances.add(op.instanceKey()));
      creates.getOrDefault(each.getKey(), List.of()).stream()
          .filter(op -> op.outcome() == Outcome.OK)
          .forEach(op -> instances.add(op.instanceKey()));
      if (instances.size() > 1) {
        duplicated++;
        violate(
            Type.DUPLICATED_INSTANCE,
            "business id " + each.getKey() + " has several instances: " + instances,
            op -> each.getKey().equals(op.biz()));
      }
    }
    return duplicated;
  }

  /**
   * Each task of an instance yields one job. Checkpoint mode: within each stretch between restores
   * (an era), and among the activations no restore may have undone; a job handed out after the
   * checkpoint may be undone, and the restored instance's task then yields a job of another key.
   */
  private int duplicatedJobs(Map<String, List<Op>> activations) {
    int duplicated = 0;
    for (Map.Entry<String, List<Op>> each : activations.entrySet()) {
      Map<String, Set<Long>> jobsPerTask = new LinkedHashMap<>();
      Map<String, Set<Long>> durablePerTask = new LinkedHashMap<>();
      Map<String, Map<Integer, Set<Long>>> perEra = new LinkedHashMap<>();
      for (Op op : each.getValue()) {
        jobsPerTask.computeIfAbsent(op.task(), task -> new TreeSet<>()).add(op.jobKey());
        if (!mayBeUndone(op)) {
          durablePerTask.computeIfAbsent(op.task(), task -> new TreeSet<>()).add(op.jobKey());
        }
        perEra
            .computeIfAbsent(op.task(), task -> new HashMap<>())
            .computeIfAbsent(era(op), era -> new TreeSet<>())
            .add(op.jobKey());
      }
      for (Map.Entry<String, Set<Long>> task : jobsPerTask.entrySet()) {
        boolean several =
            restores.isEmpty()
                ? task.getValue().size() > 1
                : durablePerTask.getOrDefault(task.getKey(), Set.of()).size() > 1
                    || perEra.get(task.getKey()).values().stream()
                        .anyMatch(keys -> keys.size() > 1);
        if (several) {
          duplicated++;
          violate(
              Type.DUPLICATED_JOB,
              "task "
                  + task.getKey()
                  + " of instance "
                  + each.getKey()
                  + " produced several jobs: "
                  + task.getValue(),
              op -> each.getKey().equals(op.biz()));
        }
      }
    }
    return duplicated;
  }

  /** An activation sent after a completion of the same job was acknowledged: run twice. */
  private int reactivated() {
    Map<Long, Op> completed = new HashMap<>();
    for (Op op : ops) {
      if (op.kind() == Kind.COMPLETE && op.outcome() == Outcome.OK) {
        completed.merge(op.jobKey(), op, (a, b) -> a.end() <= b.end() ? a : b);
      }
    }
    int duplicated = 0;
    Set<Long> reported = new HashSet<>();
    for (Op op : ops) {
      Op completion = completed.get(op.jobKey());
      if (op.kind() == Kind.ACTIVATE
          && completion != null
          && op.start() > completion.end()
          && !undoneBefore(completion, op)
          && reported.add(op.jobKey())) {
        duplicated++;
        violate(
            Type.REACTIVATED_AFTER_COMPLETION,
            "job "
                + op.jobKey()
                + " was activated again (request sent at "
                + op.start()
                + " ms) after its completion was acknowledged at "
                + completion.end()
                + " ms",
            other -> other.jobKey() == op.jobKey());
      }
    }
    return duplicated;
  }

  /**
   * Whether a restore between them may have undone {@code earlier} before {@code later} was sent: a
   * completion after the checkpoint is undone, and its job (or, keys being handed out again from
   * the checkpoint on, another with its key) may be activated after the restore.
   */
  private boolean undoneBefore(Op earlier, Op later) {
    Restore restore = undoneBy(earlier);
    return restore != null && later.start() >= restore.wiped();
  }

  /**
   * Checkpoint mode: an instance created only after the checkpoint was answered (every partition
   * had written it) is not in the backup: none of its jobs may be handed out after the restore.
   */
  private void afterCheckpoint(Map<String, List<Op>> creates) {
    for (Restore restore : restores) {
      for (Map.Entry<String, List<Op>> each : creates.entrySet()) {
        String biz = each.getKey();
        boolean createdAfter =
            each.getValue().stream()
                .allMatch(op -> op.start() > restore.answered() && op.start() < restore.wiped());
        if (!createdAfter) {
          continue;
        }
        Op seen =
            first(
                opsOf(biz),
                op ->
                    op.kind() == Kind.ACTIVATE
                        && op.start() >= restore.wiped()
                        && op.outcome() == Outcome.OK);
        if (seen != null) {
          violate(
              Type.AFTER_CHECKPOINT,
              "instance "
                  + biz
                  + " was created after the checkpoint (answered at "
                  + restore.answered()
                  + " ms), but its job "
                  + seen.jobKey()
                  + " was activated after the restore (at "
                  + seen.start()
                  + " ms)",
              op -> biz.equals(op.biz()));
        }
      }
    }
  }

  private void variables(Map<String, List<Op>> activations) {
    Map<Long, String> createdBiz = new HashMap<>();
    for (Op op : ops) {
      // A creation a restore may have undone had a key that is handed out again after it.
      if (op.kind() == Kind.CREATE && op.outcome() == Outcome.OK && !mayBeUndone(op)) {
        createdBiz.put(op.instanceKey(), op.biz());
      }
    }
    for (Map.Entry<String, List<Op>> each : activations.entrySet()) {
      String biz = each.getKey();
      Set<String> written = new HashSet<>();
      Set<String> published = new HashSet<>();
      for (Op op : opsOf(biz)) {
        if (op.outcome() == Outcome.FAIL) {
          continue;
        }
        if (op.kind() == Kind.COMPLETE && ChaosProcess.TASK_A.equals(op.task())) {
          written.add(op.vars().get(ChaosProcess.A_OUT));
        } else if (op.kind() == Kind.PUBLISH) {
          published.add(op.vars().get(ChaosProcess.MESSAGE_ID));
        }
      }
      for (Op read : each.getValue()) {
        String created = createdBiz.get(read.instanceKey());
        if (created != null && !created.equals(biz) && !mayBeUndone(read)) {
          violate(
              Type.WRONG_VARIABLE,
              "job " + read.jobKey() + " of instance " + created + " read biz=" + biz,
              op -> biz.equals(op.biz()) || created.equals(op.biz()));
        }
        if (!ChaosProcess.TASK_B.equals(read.task())) {
          continue;
        }
        String aOut = read.vars().get(ChaosProcess.A_OUT);
        if (!written.contains(aOut)) {
          violate(
              Type.WRONG_VARIABLE,
              "task B of "
                  + biz
                  + " read "
                  + ChaosProcess.A_OUT
                  + "="
                  + aOut
                  + ", written were "
                  + written,
              op -> biz.equals(op.biz()));
        }
        String messageId = read.vars().get(ChaosProcess.MESSAGE_ID);
        if (!published.contains(messageId)) {
          violate(
              Type.WRONG_VARIABLE,
              "task B of "
                  + biz
                  + " read "
                  + ChaosProcess.MESSAGE_ID
                  + "="
                  + messageId
                  + ", published were "
                  + published,
              op -> biz.equals(op.biz()));
        }
      }
    }
  }

  /** Each publication (its own id, read by task B) reached one instance at most. */
  private void messages() {
    Map<String, Set<Long>> reached = new HashMap<>();
    for (Op op : ops) {
      String messageId = op.vars().get(ChaosProcess.MESSAGE_ID);
      if (op.kind() == Kind.ACTIVATE && messageId != null) {
        reached.computeIfAbsent(messageId, id -> new TreeSet<>()).add(op.instanceKey());
      }
    }
    reached.forEach(
        (messageId, instances) -> {
          if (instances.size() > 1) {
            violate(
                Type.MESSAGE_TWICE,
                "publication " + messageId + " was correlated to instances " + instances,
                op -> messageId.equals(op.vars().get(ChaosProcess.MESSAGE_ID)));
          }
        });
  }

  private void recovered() {
    for (Op op : ops) {
      if (op.kind() == Kind.FAULT && op.outcome() != Outcome.OK) {
        violate(
            Type.NOT_RECOVERED,
            "the cluster did not recover after " + op.detail() + ": " + op.error(),
            other -> other == op);
      }
    }
  }

  private Map<String, List<Op>> group(Kind kind, java.util.function.Function<Op, String> by) {
    Map<String, List<Op>> groups = new LinkedHashMap<>();
    for (Op op : ops) {
      if (op.kind() == kind && by.apply(op) != null) {
        groups.computeIfAbsent(by.apply(op), key -> new ArrayList<>()).add(op);
      }
    }
    return groups;
  }

  private static Op first(List<Op> ops, Predicate<Op> matching) {
    return ops.stream().filter(matching).findFirst().orElse(null);
  }

  private void violate(Type type, String message, Predicate<Op> concerned) {
    List<Op> excerpt = ops.stream().filter(concerned).limit(EXCERPT_OPS).toList();
    violations.add(new Violation(type, message, excerpt));
  }
}
