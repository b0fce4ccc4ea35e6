package io.tern.benchmark.chaos;

import io.tern.benchmark.chaos.Checker.Result;
import io.tern.benchmark.chaos.Checker.Type;
import io.tern.benchmark.chaos.Checker.Violation;
import io.tern.benchmark.chaos.MessageProcesses.Way;
import io.tern.benchmark.chaos.Op.Kind;
import io.tern.benchmark.chaos.Op.Outcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Checks the history of the message mode ({@link MessageWorkload}) against Zeebe's rule that a
 * message correlates at most once per process id: each message id, read by the "took" jobs (and the
 * non-interrupting process's "done" jobs, which read every message its boundary event took), was
 * taken by one instance of its process at most, and once by that instance. Also: what a took job
 * read was published, for certain or perhaps, under that message name and (except for message start
 * events, which have no key variable) the instance's correlation key; every way of taking a message
 * took at least one; every fault healed into a recovered cluster. A message taken by no instance is
 * allowed: it may have expired, or its publication may never have taken effect.
 */
final class MessageChecker {
  /** What the summary says of one way of taking a message. */
  record Counts(int published, int taken, int takenTwice, int stillActive) {}

  /** One instance took one message, as a job read it ({@code messageId} null: read none). */
  record Reading(Way way, long instance, String messageId, Op op) {}

  private final List<Op> ops;
  private final List<Violation> violations = new ArrayList<>();

  private MessageChecker(List<Op> ops) {
    this.ops = ops;
  }

  static Result check(List<Op> history) {
    return new MessageChecker(history).run();
  }

  private Result run() {
    Map<String, Op> published = published();
    Map<Way, Map<String, Set<Long>>> taken = taken();
    int twice = 0;
    for (Map.Entry<Way, Map<String, Set<Long>>> way : taken.entrySet()) {
      for (Map.Entry<String, Set<Long>> message : way.getValue().entrySet()) {
        String messageId = message.getKey();
        Set<Long> instances = message.getValue();
        if (instances.size() > 1) {
          twice++;
          violate(
              Type.MESSAGE_TWICE,
              "message "
                  + messageId
                  + " was taken by "
                  + instances.size()
                  + " instances of process "
                  + way.getKey().processId
                  + ": "
                  + instances,
              op -> messageId.equals(op.vars().get(MessageProcesses.MESSAGE_ID)));
        }
      }
    }
    for (Reading repeated : repeatedInOneInstance()) {
      twice++;
      violate(
          Type.MESSAGE_TWICE,
          "message "
              + repeated.messageId()
              + " was taken twice by instance "
              + repeated.instance()
              + " of process "
              + repeated.way().processId
              + " ("
              + MessageProcesses.TAKEN
              + "="
              + repeated.op().vars().get(MessageProcesses.TAKEN)
              + ")",
          op ->
              op == repeated.op()
                  || repeated.messageId().equals(op.vars().get(MessageProcesses.MESSAGE_ID)));
    }
    for (Reading reading : readings()) {
      checkRead(reading, published);
    }
    for (Way way : Way.values()) {
      if (taken.get(way).isEmpty()) {
        violate(
            Type.NOT_EXERCISED,
            "no instance of "
                + way.processId
                + " took a message by its "
                + way.description
                + ": that way was not tested",
            op -> way.messageName().equals(op.detail()));
      }
    }
    for (Op op : ops) {
      if (op.kind() == Kind.FAULT && op.outcome() != Outcome.OK) {
        violate(
            Type.NOT_RECOVERED,
            "the cluster did not recover after " + op.detail() + ": " + op.error(),
            other -> other == op);
      }
    }
    return Checker.tally(ops, violations, 0, twice);
  }

  /** A job read a message that was published, with its name and the instance's key. */
  private void checkRead(Reading reading, Map<String, Op> published) {
    Op read = reading.op();
    Way way = reading.way();
    String messageId = reading.messageId();
    Op publication = messageId == null ? null : published.get(messageId);
    String wrong = null;
    Type type = Type.WRONG_VARIABLE;
    if (publication == null) {
      wrong = "read " + MessageProcesses.MESSAGE_ID + "=" + messageId + ", never published";
    } else if (publication.outcome() == Outcome.FAIL
        && !ChaosWorkload.ALREADY_EXISTS.equals(publication.error())) {
      type = Type.UNREQUESTED;
      wrong = "took message " + messageId + ", whose every publication was refused";
    } else if (!way.messageName().equals(publication.detail())) {
      wrong = "took message " + messageId + " published as " + publication.detail();
    } else if (way != Way.START
        && !publication.biz().equals(read.vars().get(MessageProcesses.KEY))) {
      wrong =
          "with "
              + MessageProcesses.KEY
              + "="
              + read.vars().get(MessageProcesses.KEY)
              + " took message "
              + messageId
              + " published for key "
              + publication.biz();
    }
    if (wrong != null) {
      violate(
          type,
          "job "
              + read.jobKey()
              + " of instance "
              + read.instanceKey()
              + " of "
              + way.processId
              + " "
              + wrong,
          op ->
              op.jobKey() == read.jobKey()
                  || messageId != null
                      && messageId.equals(op.vars().get(MessageProcesses.MESSAGE_ID)));
    }
  }

  /**
   * Each message id's publication: the one that went through if any did (acknowledged, unknown or
   * refused as a duplicate of one that did), else the last refusal.
   */
  private Map<String, Op> published() {
    Map<String, Op> published = new HashMap<>();
    for (Op op : ops) {
      String messageId = op.vars().get(MessageProcesses.MESSAGE_ID);
      if (op.kind() != Kind.PUBLISH || messageId == null) {
        continue;
      }
      Op before = published.get(messageId);
      if (before == null || !wentThrough(before)) {
        published.put(messageId, op);
      }
    }
    return published;
  }

  private static boolean wentThrough(Op publication) {
    return publication.outcome() != Outcome.FAIL
        || ChaosWorkload.ALREADY_EXISTS.equals(publication.error());
  }

  /**
   * What the jobs read: a took job the message its instance took (for the non-interrupting boundary
   * event, the last one taken when the job was activated), the non-interrupting process's done job
   * every message its boundary event took.
   */
  private List<Reading> readings() {
    List<Reading> readings = new ArrayList<>();
    for (Op op : ops) {
      if (op.kind() != Kind.ACTIVATE || op.outcome() != Outcome.OK || op.task() == null) {
        continue;
      }
      Way way = Way.ofTookJobType(op.task());
      if (way != null) {
        readings.add(
            new Reading(way, op.instanceKey(), op.vars().get(MessageProcesses.MESSAGE_ID), op));
      } else if (op.task().equals(Way.NON_INTERRUPTING.doneJobType())) {
        for (String messageId : takenList(op)) {
          readings.add(new Reading(Way.NON_INTERRUPTING, op.instanceKey(), messageId, op));
        }
      }
    }
    return readings;
  }

  /** The message ids of a done job's {@code taken} list, as the client printed it: [m-1, m-5]. */
  static List<String> takenList(Op done) {
    String list = done.vars().getOrDefault(MessageProcesses.TAKEN, "[]").trim();
    if (list.startsWith("[")) {
      list = list.substring(1, list.endsWith("]") ? list.length() - 1 : list.length());
    }
    List<String> ids = new ArrayList<>();
    for (String id : list.split(",")) {
      if (!id.isBlank()) {
        ids.add(id.trim());
      }
    }
    return ids;
  }

  /** A message id that one done job's list holds twice: one instance took that message twice. */
  private List<Reading> repeatedInOneInstance() {
    List<Reading> repeated = new ArrayList<>();
    Set<String> reported = new HashSet<>();
    for (Reading reading : readings()) {
      if (reading.messageId() == null
          || !reading.op().task().equals(Way.NON_INTERRUPTING.doneJobType())) {
        continue;
      }
      long times = takenList(reading.op()).stream().filter(reading.messageId()::equals).count();
      if (times > 1 && reported.add(reading.instance() + "/" + reading.messageId())) {
        repeated.add(reading);
      }
    }
    return repeated;
  }

  /** Per way, each message id taken and the instances that took it. */
  private Map<Way, Map<String, Set<Long>>> taken() {
    Map<Way, Map<String, Set<Long>>> taken = new EnumMap<>(Way.class);
    for (Way way : Way.values()) {
      taken.put(way, new HashMap<>());
    }
    for (Reading reading : readings()) {
      if (reading.messageId() != null) {
        taken
            .get(reading.way())
            .computeIfAbsent(reading.messageId(), id -> new TreeSet<>())
            .add(reading.instance());
      }
    }
    return taken;
  }

  /** Per way: messages that went through, messages taken, taken twice, instances left active. */
  static Map<Way, Counts> counts(List<Op> history) {
    MessageChecker checker = new MessageChecker(history);
    Map<String, Op> published = checker.published();
    Map<Way, Map<String, Set<Long>>> taken = checker.taken();
    Map<Long, Way> instances = new HashMap<>();
    for (Reading reading : checker.readings()) {
      instances.put(reading.instance(), reading.way());
    }
    for (Op op : history) {
      Way way = Way.ofTookJobType(op.task());
      if (op.kind() == Kind.ACTIVATE && way != null) {
        instances.put(op.instanceKey(), way);
      } else if (op.kind() == Kind.CREATE && op.outcome() == Outcome.OK) {
        for (Way each : Way.values()) {
          if (each.processId.equals(op.vars().get("process"))) {
            instances.put(op.instanceKey(), each);
          }
        }
      }
    }
    Map<Way, Counts> counts = new EnumMap<>(Way.class);
    for (Way way : Way.values()) {
      int sent = 0;
      for (Op publication : published.values()) {
        if (way.messageName().equals(publication.detail()) && wentThrough(publication)) {
          sent++;
        }
      }
      Set<Long> active = new HashSet<>();
      for (Op op : history) {
        if (op.kind() == Kind.ENDED
            && op.outcome() != Outcome.OK
            && instances.get(op.instanceKey()) == way) {
          active.add(op.instanceKey());
        }
      }
      int twice = (int) taken.get(way).values().stream().filter(i -> i.size() > 1).count();
      twice +=
          (int) checker.repeatedInOneInstance().stream().filter(r -> r.way().equals(way)).count();
      counts.put(way, new Counts(sent, taken.get(way).size(), twice, active.size()));
    }
    return counts;
  }

  /** The summary's table of the ways of taking a message. */
  static String table(List<Op> history) {
    StringBuilder out = new StringBuilder();
    out.append("| way | process | messages published | taken | taken twice | still active |\n");
    out.append("|---|---|---:|---:|---:|---:|\n");
    counts(history)
        .forEach(
            (way, counts) ->
                out.append(
                    String.format(
                        Locale.ROOT,
                        "| %s | %s | %d | %d | %d | %d |%n",
                        way.description,
                        way.processId,
                        counts.published(),
                        counts.taken(),
                        counts.takenTwice(),
                        counts.stillActive())));
    return out.append('\n').toString();
  }

  private void violate(Type type, String message, Predicate<Op> concerned) {
    List<Op> excerpt = ops.stream().filter(concerned).limit(Checker.EXCERPT_OPS).toList();
    violations.add(new Violation(type, message, excerpt));
  }
}
