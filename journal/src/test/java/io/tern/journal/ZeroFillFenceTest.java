package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fence between a segment's writer and the flushing thread that writes zeros ahead of it
 * ({@code journal.preallocation = zero-on-flush}); {@link ZeroOnFlushTest} drives it through the
 * journal.
 */
class ZeroFillFenceTest {
  private static final int SEGMENT_BYTES = 1024 * 1024;

  @TempDir Path directory;

  @Test
  void zerosGoInWholePagesBeyondTheWritersClaimAndStopOnceOvertaken() throws Exception {
    Path file = directory.resolve("segment");
    Files.write(file, filled(SEGMENT_BYTES, (byte) 7));
    int chunk = ZeroOnFlush.REFILL_BYTES;
    int page = ZeroFillFence.PAGE_BYTES;
    ZeroFillFence fence = new ZeroFillFence(SEGMENT_BYTES, 1000);
    ByteBuffer zeros = ByteBuffer.allocateDirect(chunk);
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE)) {
      // Nothing claimed beyond 1000 yet: zeros start at the next page.
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(page);
      // The writer claims into the zeros (a step beyond what it needs): zeros go on after the last
      // chunk. A smaller claim later changes nothing.
      fence.beforeWrite(2 * page);
      fence.beforeWrite(1500);
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(page + chunk);
      // The writer overtakes the zeros: none are written into this segment again.
      fence.beforeWrite(page + 2 * chunk + 10);
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(ZeroFillFence.DONE);
      assertThat(fence.wasOvertaken()).isTrue();
      fence.beforeWrite(SEGMENT_BYTES / 2);
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(ZeroFillFence.DONE);
    }
    byte[] bytes = Files.readAllBytes(file);
    for (int i = 0; i < SEGMENT_BYTES; i++) {
      boolean zeroed = i >= page && i < page + 2 * chunk;
      assertThat(bytes[i]).as("byte %d", i).isEqualTo(zeroed ? (byte) 0 : (byte) 7);
    }
  }

  @Test
  void aClaimBelowTheChunkBeingWrittenDoesNotWaitForIt() throws Exception {
    Path file = directory.resolve("segment");
    Files.write(file, filled(SEGMENT_BYTES, (byte) 7));
    int chunk = ZeroOnFlush.REFILL_BYTES;
    ZeroFillFence fence = new ZeroFillFence(SEGMENT_BYTES, 0);
    ByteBuffer zeros = ByteBuffer.allocateDirect(chunk);
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE);
        BlockingWriteChannel held =
            new BlockingWriteChannel(FileChannel.open(file, StandardOpenOption.WRITE));
        InterruptSafeChannel blocking =
            new InterruptSafeChannel(file, held, StandardOpenOption.WRITE)) {
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(0);
      // The second chunk, [chunk, 2 chunk), is held in the middle of its write.
      CompletableFuture<Integer> second =
          CompletableFuture.supplyAsync(() -> zeroNextChunk(fence, blocking, zeros));
      assertThat(held.writing.await(10, TimeUnit.SECONDS)).isTrue();
      // A claim that ends below the chunk returns at once (it used to wait for the whole write).
      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> fence.beforeWrite(100));
      held.release.countDown();
      assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(chunk);
    }
  }

  @Test
  void aClaimReachingTheChunkBeingWrittenWaitsUntilItsZerosAreWritten() throws Exception {
    Path file = directory.resolve("segment");
    Files.write(file, filled(SEGMENT_BYTES, (byte) 7));
    int page = ZeroFillFence.PAGE_BYTES;
    ZeroFillFence fence = new ZeroFillFence(SEGMENT_BYTES, 1000);
    ByteBuffer zeros = ByteBuffer.allocateDirect(ZeroOnFlush.REFILL_BYTES);
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE);
        BlockingWriteChannel held =
            new BlockingWriteChannel(FileChannel.open(file, StandardOpenOption.WRITE));
        InterruptSafeChannel blocking =
            new InterruptSafeChannel(file, held, StandardOpenOption.WRITE)) {
      CompletableFuture<Integer> chunk =
          CompletableFuture.supplyAsync(() -> zeroNextChunk(fence, blocking, zeros));
      assertThat(held.writing.await(10, TimeUnit.SECONDS)).isTrue();
      // The writer's claim reaches into [page, page + chunk), whose zeros are not written yet.
      CompletableFuture<Void> claim = new CompletableFuture<>();
      Thread claimer = runOnOwnThread(() -> fence.beforeWrite(2000), claim);
      awaitWaitingInTheFence(claimer);
      assertThat(claim).isNotDone();
      CompletableFuture<Void> stop = new CompletableFuture<>();
      Thread stopper = runOnOwnThread(fence::stop, stop);
      awaitWaitingInTheFence(stopper);
      assertThat(stop).as("stop waits for the chunk being written").isNotDone();
      held.release.countDown();
      claim.get(10, TimeUnit.SECONDS);
      stop.get(10, TimeUnit.SECONDS);
      assertThat(chunk.get()).isEqualTo(page);
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(ZeroFillFence.DONE);
    }
  }

  /** Runs {@code action} on a thread of its own (whose state shows where it waits). */
  private static Thread runOnOwnThread(Runnable action, CompletableFuture<Void> done) {
    Thread thread =
        new Thread(
            () -> {
              try {
                action.run();
                done.complete(null);
              } catch (Throwable t) {
                done.completeExceptionally(t);
              }
            });
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** The fence's waits are Object.wait(): WAITING is the thread parked on the fence's monitor. */
  private static void awaitWaitingInTheFence(Thread thread) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(1))
        .until(() -> thread.getState() == Thread.State.WAITING || !thread.isAlive());
  }

  private static int zeroNextChunk(
      ZeroFillFence fence, InterruptSafeChannel channel, ByteBuffer zeros) {
    try {
      return fence.zeroNextChunk(channel, zeros);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aStoppedFenceWritesNothing() throws Exception {
    Path file = directory.resolve("segment");
    Files.write(file, filled(SEGMENT_BYTES, (byte) 7));
    ZeroFillFence fence = new ZeroFillFence(SEGMENT_BYTES, 0);
    fence.stop();
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE)) {
      assertThat(fence.zeroNextChunk(channel, ByteBuffer.allocateDirect(4096)))
          .isEqualTo(ZeroFillFence.DONE);
    }
    assertThat(Files.readAllBytes(file)).containsOnly((byte) 7);
  }

  private static byte[] filled(int length, byte value) {
    byte[] bytes = new byte[length];
    java.util.Arrays.fill(bytes, value);
    return bytes;
  }
}
