package io.tern.raft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deterministic simulation of 3- and 5-member groups under faults, in every flush mode, whose
 * membership changes as they run (members added as learners and promoted, removed, replaced, given
 * new priorities; see {@link Simulation}). Each seed runs a fault phase (safety checked after every
 * step) and a healed phase that must elect a leader, commit, and converge.
 *
 * <p>Knobs: {@code -Draft.sim.seeds=N} (default 5000 per run, split across group sizes and modes;
 * about a minute on 2 cores: 1000 seeds missed a deliberately planted early-ack bug that 5000
 * found), {@code -Draft.sim.seed=S} to replay one seed, {@code -Draft.sim.steps=N} fault steps per
 * seed, {@code -Draft.sim.trace=true} (with one seed) to print every message, flush, crash and
 * restart to the test's output file. The long run is {@code ./mvnw -pl raft test
 * -Dtest=RaftSimulationTest -Draft.sim.seeds=100000}. Seeds run from {@code -Draft.sim.first=S}
 * (default 0; {@code random}, as in {@code -Pquick}, picks a new first seed each run and prints it,
 * so that quick runs cover different seeds over time).
 */
class RaftSimulationTest {
  private static final int SEEDS = Integer.getInteger("raft.sim.seeds", 5000);
  private static final Long ONLY_SEED = Long.getLong("raft.sim.seed");
  private static final String FIRST_SEED = System.getProperty("raft.sim.first", "0");
  private static final int FAULT_STEPS = Integer.getInteger("raft.sim.steps", 2000);
  private static final int CONVERGE_TICKS = 2000;

  @Test
  void safeUnderFaultsAndLiveAfterHealing() {
    List<String> failures = new ArrayList<>();
    long committed = 0;
    long installs = 0;
    long configChanges = 0;
    long priorityChanges = 0;
    int unsafeLosses = 0;
    long first = ONLY_SEED != null ? ONLY_SEED : firstSeed();
    long count = ONLY_SEED != null ? 1 : SEEDS;
    System.out.printf(
        "RaftSimulationTest: seeds %d to %d (again: -Draft.sim.first=%d -Draft.sim.seeds=%d)%n",
        first, first + count - 1, first, count);
    for (long seed = first; seed < first + count; seed++) {
      int size = seed % 2 == 0 ? 3 : 5;
      Simulation.FlushMode mode =
          Simulation.FlushMode.values()[(int) ((seed / 2) % Simulation.FlushMode.values().length)];
      try {
        Simulation simulation = new Simulation(seed, size, mode);
        for (int i = 0; i < FAULT_STEPS; i++) {
          simulation.step();
        }
        simulation.heal();
        String stuck = simulation.runUntilConverged(CONVERGE_TICKS);
        if (simulation.committedEntryLost()) {
          // The documented risk of async/off: a majority crash lost acknowledged entries, and a
          // member still holding them can never agree with the new leader. Not a failure.
          unsafeLosses++;
        } else if (stuck != null) {
          failures.add(describe(seed, size, mode, stuck));
        }
        committed += simulation.committedEntries();
        installs += simulation.snapshotInstalls();
        configChanges += simulation.configChangesCommitted();
        priorityChanges += simulation.priorityChangesCommitted();
      } catch (RuntimeException | AssertionError e) {
        if (ONLY_SEED != null) {
          e.printStackTrace(); // replaying one seed: show where it broke
        }
        failures.add(describe(seed, size, mode, e.toString()));
      }
      if (failures.size() >= 5) {
        break;
      }
    }
    System.out.printf(
        "%d seeds, %d committed entries, %d snapshot installs, %d committed membership changes (%d"
            + " of a priority), %d unsafe-mode runs lost acknowledged entries%n",
        count, committed, installs, configChanges, priorityChanges, unsafeLosses);
    assertThat(failures).as("failing seeds").isEmpty();
    assertThat(committed).as("the fault phase still commits entries").isPositive();
    if (ONLY_SEED == null) {
      assertThat(installs).as("lagging members catch up through snapshots").isPositive();
      assertThat(configChanges).as("the schedule changes the membership").isPositive();
      assertThat(priorityChanges).as("the schedule changes priorities").isPositive();
    }
  }

  /** {@code raft.sim.first}: a seed, or {@code random} for a new one (kept small to read). */
  private static long firstSeed() {
    if (FIRST_SEED.equals("random")) {
      return new java.util.Random().nextInt(1_000_000_000);
    }
    return Long.parseLong(FIRST_SEED);
  }

  private static String describe(long seed, int size, Simulation.FlushMode mode, String what) {
    return "seed "
        + seed
        + " ("
        + size
        + " members, flush "
        + mode
        + "): "
        + what
        + "\n  replay: ./mvnw -pl raft test -Dtest=RaftSimulationTest -Draft.sim.seed="
        + seed;
  }
}
