package io.tern.benchmark.chaos;

import java.util.Arrays;
import java.util.List;

/** The faults a chaos run injects, by the names {@code --faults} takes. */
enum Fault {
  /** kill -9 of a broker picked at random, restarted at the heal. */
  KILL_RANDOM("kill-random", true),
  /** kill -9 of the leader of a partition picked at random, restarted at the heal. */
  KILL_LEADER("kill-leader", true),
  /** kill -9 of every broker at once, all restarted at the heal. */
  KILL_ALL("kill-all", false),
  /**
   * SIGSTOP of a partition leader for the hold (longer than the election timeout), then SIGCONT.
   */
  PAUSE("pause", true),
  /** kill -9 of a broker, a torn frame after its newest journal segment's end, then restart. */
  TORN_TAIL("torn-tail", true),
  /**
   * A partition leader's Raft links to every other broker cut both ways (a minority of one), by the
   * brokers' fault injection ({@code experimental.faultInjection.enabled}), healed at the end.
   */
  PARTITION("partition", true),
  /**
   * A majority/minority split: a minority of the brokers (one of three, two of five), a partition
   * leader among them, cut from the majority both ways; the minority still reach each other.
   */
  SPLIT("split", true),
  /**
   * Slow links: every Raft message between a partition leader and the other brokers delayed by
   * {@code --slow-link-delay}, both ways; nothing is lost and no election is needed.
   */
  SLOW("slow", true),
  /**
   * Disk full: the file system of one broker's data ({@code --disk-full-dir}, the last broker's)
   * filled to the last byte for the hold, then emptied again.
   */
  DISK_FULL("disk-full", true),
  /**
   * Wipe and restore: a backup taken through {@code /actuator/backups} (the brokers need a backup
   * store: {@code --config data.backup.store=...}), load held on after its checkpoint, then every
   * broker killed, its data deleted, restored from the backup by {@code bin/restore} and started
   * again. What was acknowledged before the checkpoint must survive; what came after may be lost,
   * but never in part (the {@link Checker}'s checkpoint mode).
   */
  RESTORE("restore", false),
  /**
   * Scaling under load: the cluster grows by its spare brokers (started outside it at the run's
   * start), a broker is killed with SIGKILL in the middle of a move and restarted at the heal, the
   * growth completes, the cluster shrinks back and the spares stop (docs/scaling.md).
   */
  SCALE("scale", true);

  private final String label;
  private final boolean majorityStaysUp;

  Fault(String label, boolean majorityStaysUp) {
    this.label = label;
    this.majorityStaysUp = majorityStaysUp;
  }

  /** The name on the command line and in the report. */
  String label() {
    return label;
  }

  /** Whether the others can elect new leaders while it lasts (then failover time is measured). */
  boolean majorityStaysUp() {
    return majorityStaysUp;
  }

  static List<String> labels() {
    return Arrays.stream(values()).map(Fault::label).toList();
  }

  static Fault of(String label) {
    return Arrays.stream(values())
        .filter(fault -> fault.label.equals(label))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown fault " + label));
  }
}
