package io.tern.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

class PartitionStateTest {
  private static final short JOBS = 1;
  private static final short TIMERS = 2;

  @TempDir Path dir;

  private final List<AutoCloseable> toClose = new ArrayList<>();

  private PartitionState open(Path directory, boolean disableWal) {
    StateResources resources =
        new StateResources(StateConfig.defaults().withDisableWal(disableWal).withMemoryLimitMb(64));
    PartitionState state = new PartitionState(directory, resources);
    toClose.add(resources);
    toClose.add(state);
    return state;
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  private static DbBytes bytes(String text) {
    return new DbBytes(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(DbBytes value) {
    return new String(value.toArray(), StandardCharsets.UTF_8);
  }

  @Test
  void writesAreVisibleToTheTransactionAtOnceAndRollbackForgetsThem() {
    PartitionState state = open(dir.resolve("s"), true);
    ColumnFamily<DbLong, DbBytes> jobs = state.columnFamily(JOBS, new DbLong(), new DbBytes());
    DbBytes read = new DbBytes();

    jobs.put(new DbLong(1), bytes("created"));
    assertThat(jobs.get(new DbLong(1), read)).isTrue();
    assertThat(text(read)).isEqualTo("created");
    state.transaction().commit();

    jobs.put(new DbLong(1), bytes("activated"));
    jobs.put(new DbLong(2), bytes("created"));
    jobs.delete(new DbLong(1));
    assertThat(jobs.exists(new DbLong(1))).isFalse();
    state.transaction().rollback();

    assertThat(jobs.get(new DbLong(1), read)).isTrue();
    assertThat(text(read)).isEqualTo("created");
    assertThat(jobs.exists(new DbLong(2))).isFalse();
    assertThat(state.transaction().isEmpty()).isTrue();
  }

  @ParameterizedTest(name = "disableWal={0}, rocksDbDefaults={1}")
  @org.junit.jupiter.params.provider.CsvSource({"true,false", "false,false", "true,true"})
  void committedStateSurvivesACleanRestart(boolean disableWal, boolean rocksDbDefaults)
      throws Exception {
    Path directory = dir.resolve("wal-" + disableWal + "-" + rocksDbDefaults);
    StateConfig config =
        rocksDbDefaults
            ? StateConfig.rocksDbDefaults(disableWal)
            : StateConfig.defaults().withDisableWal(disableWal);
    assertThat(config.rocksDbDefaults()).isEqualTo(rocksDbDefaults);
    try (StateResources resources = new StateResources(config);
        PartitionState state = new PartitionState(directory, resources)) {
      ColumnFamily<DbLong, DbBytes> jobs = state.columnFamily(JOBS, new DbLong(), new DbBytes());
      jobs.put(new DbLong(7), bytes("kept"));
      state.transaction().commit();
      jobs.put(new DbLong(8), bytes("not committed"));
    }
    PartitionState reopened = open(directory, disableWal);
    ColumnFamily<DbLong, DbBytes> jobs = reopened.columnFamily(JOBS, new DbLong(), new DbBytes());
    DbBytes read = new DbBytes();
    assertThat(jobs.get(new DbLong(7), read)).isTrue();
    assertThat(text(read)).isEqualTo("kept");
    assertThat(jobs.exists(new DbLong(8))).isFalse();
  }

  @Test
  void familiesAreSeparateAndIterateInNumericKeyOrder() {
    PartitionState state = open(dir.resolve("s"), true);
    ColumnFamily<DbLong, DbBytes> jobs = state.columnFamily(JOBS, new DbLong(), new DbBytes());
    ColumnFamily<DbLong, DbBytes> other = state.columnFamily(TIMERS, new DbLong(), new DbBytes());
    for (long key : new long[] {300, -5, 0, 1L << 40, 2, Long.MIN_VALUE, Long.MAX_VALUE}) {
      jobs.put(new DbLong(key), bytes("job " + key));
    }
    other.put(new DbLong(1), bytes("timer"));
    state.transaction().commit();
    other.put(new DbLong(3), bytes("uncommitted timer"));

    List<Long> keys = new ArrayList<>();
    jobs.forEach((key, value) -> keys.add(key.get()) && text(value).equals("job " + key.get()));
    List<Long> timers = new ArrayList<>();
    other.forEach((key, value) -> timers.add(key.get()));

    assertThat(keys).containsExactly(Long.MIN_VALUE, -5L, 0L, 2L, 300L, 1L << 40, Long.MAX_VALUE);
    assertThat(timers).as("the transaction's own write included").containsExactly(1L, 3L);
  }

  @Test
  void aPrefixsUpperBoundIsTheSmallestKeyAboveIt() {
    assertThat(ColumnFamily.upperBound(new byte[] {0, 16, 5})).containsExactly(0, 16, 6);
    assertThat(ColumnFamily.upperBound(new byte[] {0, 16, (byte) 0xFF})).containsExactly(0, 17);
    assertThat(ColumnFamily.upperBound(new byte[] {(byte) 0xFF, (byte) 0xFF})).isNull();
  }

  @Test
  void aScanFromAKeyStartsThereAndStopsAtTheEndOfItsFamily() {
    PartitionState state = open(dir.resolve("s"), true);
    ColumnFamily<DbLong, DbLong> timers = state.columnFamily(TIMERS, new DbLong(), new DbLong());
    ColumnFamily<DbLong, DbLong> after =
        state.columnFamily((short) (TIMERS + 1), new DbLong(), new DbLong());
    for (long due = 1; due <= 10; due++) {
      timers.put(new DbLong(due), new DbLong(due * 10));
      after.put(new DbLong(due), new DbLong(-1));
    }
    state.transaction().commit();
    List<Long> visited = new ArrayList<>();

    timers.forEachFrom(
        new DbLong(5),
        (key, value) -> {
          visited.add(key.get());
          timers.delete(key);
          return true;
        });

    assertThat(visited).containsExactly(5L, 6L, 7L, 8L, 9L, 10L);
    assertThat(timers.exists(new DbLong(4))).isTrue();
    assertThat(timers.exists(new DbLong(5))).isFalse();
  }

  @Test
  void aScanSeesDeletesAndUpdatesMadeDuringIt() {
    PartitionState state = open(dir.resolve("s"), true);
    DbCompositeKey<DbLong, DbLong> timerKey = new DbCompositeKey<>(new DbLong(), new DbLong());
    ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbLong> timers =
        state.columnFamily(TIMERS, timerKey, new DbLong());
    ColumnFamily<DbLong, DbBytes> jobs = state.columnFamily(JOBS, new DbLong(), new DbBytes());
    // Timers by (due date, job key); the job it times out is the value.
    for (long job = 1; job <= 5; job++) {
      timers.put(new DbCompositeKey<>(new DbLong(100), new DbLong(job)), new DbLong(job));
      jobs.put(new DbLong(job), bytes("activated"));
    }
    timers.put(new DbCompositeKey<>(new DbLong(200), new DbLong(9)), new DbLong(9));
    state.transaction().commit();

    List<Long> visited = new ArrayList<>();
    timers.forEachWithPrefix(
        new DbLong(100),
        (key, job) -> {
          visited.add(key.second().get());
          // Time the job out, drop its timer, and drop the timer of job 4 before it is reached.
          jobs.put(new DbLong(job.get()), bytes("timed out"));
          timers.delete(new DbCompositeKey<>(new DbLong(100), new DbLong(key.second().get())));
          if (key.second().get() == 2) {
            timers.delete(new DbCompositeKey<>(new DbLong(100), new DbLong(4)));
          }
          return true;
        });
    state.transaction().commit();

    assertThat(visited).containsExactly(1L, 2L, 3L, 5L);
    List<Long> left = new ArrayList<>();
    timers.forEach((key, job) -> left.add(key.second().get()));
    assertThat(left).containsExactly(9L);
    DbBytes read = new DbBytes();
    jobs.get(new DbLong(3), read);
    assertThat(text(read)).isEqualTo("timed out");
    jobs.get(new DbLong(4), read);
    assertThat(text(read))
        .as("its timer was deleted before the scan reached it")
        .isEqualTo("activated");
  }

  @Test
  void aScanVisitsUpdatedEntriesWithTheirNewValueButNotInsertedOnes() {
    PartitionState state = open(dir.resolve("s"), true);
    ColumnFamily<DbLong, DbLong> counters = state.columnFamily(JOBS, new DbLong(), new DbLong());
    for (long key = 1; key <= 3; key++) {
      counters.put(new DbLong(key), new DbLong(key * 10));
    }
    state.transaction().commit();

    List<String> visited = new ArrayList<>();
    counters.forEach(
        (key, value) -> {
          visited.add(key.get() + "=" + value.get());
          if (key.get() == 1) {
            counters.put(new DbLong(3), new DbLong(33)); // ahead of the scan
            counters.put(new DbLong(2), new DbLong(22));
            counters.put(new DbLong(4), new DbLong(40)); // inserted: not visited
          }
          return true;
        });

    assertThat(visited).containsExactly("1=10", "2=22", "3=33");
    assertThat(counters.exists(new DbLong(4))).isTrue();
  }

  @Test
  void aVisitorThatReturnsFalseStopsTheScan() {
    PartitionState state = open(dir.resolve("s"), true);
    ColumnFamily<DbString, DbLong> byName = state.columnFamily(JOBS, new DbString(), new DbLong());
    for (String name : List.of("a", "b", "c")) {
      byName.put(new DbString(name), new DbLong(name.charAt(0)));
    }
    List<String> visited = new ArrayList<>();
    byName.forEach((key, value) -> visited.add(key.get()) && !key.get().equals("b"));
    assertThat(visited).containsExactly("a", "b");
  }

  @Test
  void aCheckpointHoldsTheCommittedStateOnly() {
    PartitionState state = open(dir.resolve("s"), true);
    ColumnFamily<DbLong, DbBytes> jobs = state.columnFamily(JOBS, new DbLong(), new DbBytes());
    jobs.put(new DbLong(1), bytes("committed"));
    state.transaction().commit();
    jobs.put(new DbLong(2), bytes("in flight"));

    state.checkpoint(dir.resolve("checkpoint"));

    PartitionState copy = open(dir.resolve("checkpoint"), true);
    ColumnFamily<DbLong, DbBytes> copied = copy.columnFamily(JOBS, new DbLong(), new DbBytes());
    assertThat(copied.exists(new DbLong(1))).isTrue();
    assertThat(copied.exists(new DbLong(2))).isFalse();
  }

  @Test
  void badSettingsAndIdsAreRefusedWithTheirName() {
    PartitionState state = open(dir.resolve("s"), true);
    state.columnFamily(JOBS, new DbLong(), new DbBytes());
    assertThatThrownBy(() -> state.columnFamily(JOBS, new DbLong(), new DbBytes()))
        .hasMessageContaining("id 1 is already in use");
    assertThatThrownBy(() -> StateConfig.defaults().withMemoryLimitMb(8))
        .hasMessageContaining("state.rocksdb.memoryLimitMb must be at least 32");
  }
}
