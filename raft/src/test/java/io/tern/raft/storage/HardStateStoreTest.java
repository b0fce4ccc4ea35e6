package io.tern.raft.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

  private Path fileWithTwoStates() {
    Path file = directory.resolve("raft.state");
    try (HardStateStore store = new HardStateStore(file)) {
      store.load();
      store.store(new HardState(7, 3)); // slot 1
      store.store(new HardState(8, 2)); // slot 0
    }
    return file;
  }

  @Test
  void bothSlotsDamagedIsRefusedRatherThanForgettingTheVote() throws Exception {
    Path file = fileWithTwoStates();
    try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
      raw.seek(16);
      raw.writeLong(99); // slot 0's term
      raw.seek(32 + 16);
      raw.writeLong(99); // slot 1's term
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThatThrownBy(store::load)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("both slots damaged, 64 bytes");
    }
  }

  @Test
  void aTruncatedFileIsRefused() throws Exception {
    Path file = fileWithTwoStates();
    try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
      raw.setLength(20);
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThatThrownBy(store::load)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("20 bytes");
    }
  }

  @Test
  void aFileOfANewerFormatIsRefused() throws Exception {
    Path file = fileWithTwoStates();
    try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
      raw.seek(4);
      raw.writeInt(Integer.reverseBytes(2)); // little-endian format version
      raw.seek(32 + 4);
      raw.writeInt(Integer.reverseBytes(2));
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThatThrownBy(store::load)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("newer version (format 2; this build reads 1)");
    }
  }

  @Test
  void oneSlotOfANewerFormatBesideAValidOneIsRefusedToo() throws Exception {
    Path file = fileWithTwoStates();
    try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
      raw.seek(4); // slot 0, the newer state: a newer build rewrote it
      raw.writeInt(Integer.reverseBytes(2));
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThatThrownBy(store::load)
          .as("falling back to slot 1 (term 7) could forget the vote of term 8")
          .hasMessageContaining("newer version (format 2");
    }
  }

  @Test
  void aTornFirstStoreIsStillANewMember() throws Exception {
    Path file = directory.resolve("raft.state");
    try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
      raw.seek(32); // the first store goes to slot 1; slot 0 was never written
      raw.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThat(store.load()).isEqualTo(HardState.INITIAL);
      store.store(new HardState(1, 1));
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThat(store.load()).isEqualTo(new HardState(1, 1));
    }
  }

  @Test
  void anInterruptedThreadStillStoresAndKeepsItsInterrupt() {
    Path file = directory.resolve("raft.state");
    try (HardStateStore store = new HardStateStore(file)) {
      store.load();
      Thread.currentThread().interrupt();
      try {
        store.store(new HardState(2, 1));
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
      } finally {
        Thread.interrupted();
      }
      store.store(new HardState(3, 1)); // the channel is still open
    }
    try (HardStateStore store = new HardStateStore(file)) {
      assertThat(store.load()).isEqualTo(new HardState(3, 1));
    }
  }
}
