package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InterruptSafeChannelTest {
  @TempDir Path dir;

  @Test
  void anInterruptedCallerStillWritesAndKeepsItsFlag() throws Exception {
    Path file = dir.resolve("f");
    try (InterruptSafeChannel channel =
        InterruptSafeChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      Thread.currentThread().interrupt();
      try {
        channel.writeFully(ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII)), 3);
        channel.force(true);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
      } finally {
        Thread.interrupted();
      }
      // A plain FileChannel would now be closed for good; this one still reads.
      ByteBuffer read = ByteBuffer.allocate(8);
      assertThat(channel.readFully(read, 3)).isEqualTo(5);
      assertThat(new String(read.array(), 0, 5, StandardCharsets.US_ASCII)).isEqualTo("hello");
    }
    assertThat(Files.size(file)).isEqualTo(8);
  }

  @Test
  void aChannelClosedUnderItIsReopenedAndTheOperationRepeated() throws Exception {
    Path file = dir.resolve("f");
    Files.write(file, new byte[] {1, 2, 3, 4});
    java.nio.channels.FileChannel inner =
        java.nio.channels.FileChannel.open(file, StandardOpenOption.READ);
    InterruptSafeChannel channel = new InterruptSafeChannel(file, inner, StandardOpenOption.READ);
    inner.close(); // what another thread's interrupt does to a shared channel

    ByteBuffer read = ByteBuffer.allocate(4);
    assertThat(channel.readFully(read, 0)).isEqualTo(4);
    assertThat(read.array()).containsExactly(1, 2, 3, 4);
    assertThat(channel.size()).isEqualTo(4);

    channel.close();
    assertThatThrownBy(() -> channel.size()).isInstanceOf(ClosedChannelException.class);
  }

  @Test
  void readStopsAtTheEndOfTheFile() throws Exception {
    Path file = dir.resolve("f");
    Files.write(file, new byte[] {7, 8});
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer read = ByteBuffer.allocate(16);
      assertThat(channel.readFully(read, 1)).isEqualTo(1);
      assertThat(read.get(0)).isEqualTo((byte) 8);
    }
  }

  @Test
  void deferringInterruptRunsWithTheFlagClearAndSetsItAgain() {
    Thread.currentThread().interrupt();
    try {
      boolean seenInside =
          InterruptSafeChannel.deferringInterrupt(() -> Thread.currentThread().isInterrupted());
      assertThat(seenInside).isFalse();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
