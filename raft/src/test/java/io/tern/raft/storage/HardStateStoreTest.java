package io.tern.raft.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.HardState;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HardStateStoreTest {
  @TempDir Path directory;

  @Test
  void aNewMemberStartsFromTheInitialState() {
    try (HardStateStore store = new HardStateStore(directory.resolve("raft.state"))) {
      assertThat(store.load()).isEqualTo(HardState.INITIAL);
    }
  }

  @Test
  void theLastStoredStateSurvivesReopen() {
    Path file = directory.resolve("raft.state");
    try (HardStateStore store = new HardStateStore(file)) {
      store.load();
      store.store(new HardState(3, 2));
      store.store(new HardState(4, HardState.NO_VOTE));
      store.store(new HardState(4, 1));
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThat(store.load()).isEqualTo(new HardState(4, 1));
    }
  }

  @Test
  void aTornSlotFallsBackToThePreviousState() throws Exception {
    Path file = directory.resolve("raft.state");
    try (HardStateStore store = new HardStateStore(file)) {
      store.load();
      store.store(new HardState(5, 1)); // sequence 1: slot 1
      store.store(new HardState(6, 2)); // sequence 2: slot 0
    }
    try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
      raw.seek(16); // the term of slot 0
      raw.writeLong(0x0102030405060708L);
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThat(store.load()).isEqualTo(new HardState(5, 1));
      store.store(new HardState(7, 3)); // continues after the newest valid sequence
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThat(store.load()).isEqualTo(new HardState(7, 3));
    }
  }
}
