package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code journal.preallocation = zero-fill} experiment: zeros written ahead of the writer. */
class ZeroFillPreallocationTest {
  private static final int SEGMENT_BYTES = 1024 * 1024;

  @TempDir Path directory;

  @Test
  void theFillerWritesWholePagesBeyondTheWritersClaimAndGivesUpOnceOvertaken() throws Exception {
    Path file = directory.resolve("segment");
    Files.write(file, filled(SEGMENT_BYTES, (byte) 7));
    int chunk = ZeroFiller.CHUNK_BYTES;
    int page = ZeroFillFence.PAGE_BYTES;
    ZeroFillFence fence = new ZeroFillFence(SEGMENT_BYTES, 1000);
    ByteBuffer zeros = ByteBuffer.allocateDirect(chunk);
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE)) {
      assertThat(fence.startFilling(() -> {})).isTrue();
      // Nothing claimed beyond 1000 yet: zeros start at the next page.
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(page);
      // The writer claims into the zeros (a step beyond what it needs): the filler goes on after
      // its last chunk. A smaller claim later changes nothing.
      fence.beforeWrite(2 * page);
      fence.beforeWrite(1500);
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(page + chunk);
      // The writer overtakes the zeros: the filler gives up on this segment for good.
      fence.beforeWrite(page + 2 * chunk + 10);
      assertThat(fence.zeroNextChunk(channel, zeros)).isEqualTo(-1);
      assertThat(fence.wasOvertaken()).isTrue();
      fence.stopFilling();
      assertThat(fence.startFilling(() -> {})).isFalse();
    }
    byte[] bytes = Files.readAllBytes(file);
    for (int i = 0; i < SEGMENT_BYTES; i++) {
      boolean zeroed = i >= page && i < page + 2 * chunk;
      assertThat(bytes[i]).as("byte %d", i).isEqualTo(zeroed ? (byte) 0 : (byte) 7);
    }
  }

  @Test
  void theFillerPausesFarAheadOfTheWriterAndTheWritersClaimsResumeIt() throws Exception {
    int size = 4 * ZeroFillFence.MAX_LEAD_BYTES;
    Path file = directory.resolve("segment");
    try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(size);
    }
    ZeroFillFence fence = new ZeroFillFence(size, 0);
    int[] resumed = new int[1];
    ByteBuffer zeros = ByteBuffer.allocateDirect(ZeroFiller.CHUNK_BYTES);
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE)) {
      assertThat(fence.startFilling(() -> resumed[0]++)).isTrue();
      int lastFrom = 0;
      int result;
      while ((result = fence.zeroNextChunk(channel, zeros)) >= 0) {
        lastFrom = result;
      }
      assertThat(result).isEqualTo(ZeroFillFence.PAUSED);
      assertThat(lastFrom + ZeroFiller.CHUNK_BYTES)
          .isBetween(
              ZeroFillFence.MAX_LEAD_BYTES, ZeroFillFence.MAX_LEAD_BYTES + ZeroFiller.CHUNK_BYTES);
      fence.stopFilling();
      // The writer moves on, but the lead is still more than half: no resume yet.
      fence.beforeWrite(ZeroFillFence.MAX_LEAD_BYTES / 4);
      assertThat(resumed[0]).isZero();
      // Less than half the lead left: the writer's claim resumes the filler, once.
      fence.beforeWrite(ZeroFillFence.MAX_LEAD_BYTES * 3 / 4);
      fence.beforeWrite(ZeroFillFence.MAX_LEAD_BYTES * 3 / 4 + 128 * 1024);
      assertThat(resumed[0]).isEqualTo(1);
    }
  }

  @Test
  void aClaimBelowTheChunkBeingWrittenDoesNotWaitForIt() throws Exception {
    Path file = directory.resolve("segment");
    Files.write(file, filled(SEGMENT_BYTES, (byte) 7));
    int chunk = ZeroFiller.CHUNK_BYTES;
    ZeroFillFence fence = new ZeroFillFence(SEGMENT_BYTES, 0);
    ByteBuffer zeros = ByteBuffer.allocateDirect(chunk);
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE);
        BlockingWriteChannel held =
            new BlockingWriteChannel(FileChannel.open(file, StandardOpenOption.WRITE));
        InterruptSafeChannel blocking =
            new InterruptSafeChannel(file, held, StandardOpenOption.WRITE)) {
      assertThat(fence.startFilling(() -> {})).isTrue();
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
    ByteBuffer zeros = ByteBuffer.allocateDirect(ZeroFiller.CHUNK_BYTES);
    try (InterruptSafeChannel channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE);
        BlockingWriteChannel held =
            new BlockingWriteChannel(FileChannel.open(file, StandardOpenOption.WRITE));
        InterruptSafeChannel blocking =
            new InterruptSafeChannel(file, held, StandardOpenOption.WRITE)) {
      assertThat(fence.startFilling(() -> {})).isTrue();
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
      assertThat(fence.zeroNextChunk(channel, ByteBuffer.allocateDirect(4096))).isEqualTo(-1);
    }
    assertThat(fence.startFilling(() -> {})).isFalse();
    assertThat(Files.readAllBytes(file)).containsOnly((byte) 7);
  }

  @Test
  void theFillerZeroesTheRestOfTheWritersSegmentAndForcesIt() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    JournalConfig config =
        JournalConfig.builder(directory)
            .segmentSizeBytes(SEGMENT_BYTES)
            .fitMaxEntrySizeToSegment()
            .preallocation(JournalConfig.Preallocation.ZERO_FILL)
            .meterRegistry(registry)
            .build();
    try (SegmentedJournal journal = SegmentedJournal.open(config)) {
      journal.append(1, new UnsafeBuffer(filled(100, (byte) 1)));
      journal.flush();
      // Everything after the writer's first claim, rounded to pages; more if the filler started
      // before the writer claimed (its first chunk then lies under the writer's first frame).
      long atLeast =
          SEGMENT_BYTES
              - roundUpToPage(
                  SegmentDescriptor.LENGTH
                      + FrameLayout.frameLength(100)
                      + ZeroFillFence.WRITER_CLAIM_STEP_BYTES);
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(5))
          .until(() -> zeroFilledBytes(registry) >= atLeast);
      assertThat(zeroFilledBytes(registry))
          .isBetween((double) atLeast, (double) SEGMENT_BYTES - SegmentDescriptor.LENGTH);
    }
  }

  @Test
  void zerosNeverOverwriteWhatTheWriterWrote() {
    // Small segments and fast appends: the writer runs into the filler's chunks again and again,
    // across many rolls. Any zero written over a frame fails its checksum or loses the entry.
    JournalConfig config =
        JournalConfig.builder(directory)
            .segmentSizeBytes(SEGMENT_BYTES)
            .fitMaxEntrySizeToSegment()
            .preallocation(JournalConfig.Preallocation.ZERO_FILL)
            .build();
    Random random = new Random(42);
    int entries = 6_000; // about 50 MiB: ~50 segments
    byte[] payload = new byte[16 * 1024];
    try (SegmentedJournal journal = SegmentedJournal.open(config)) {
      for (int i = 1; i <= entries; i++) {
        int length = 1 + random.nextInt(payload.length);
        java.util.Arrays.fill(payload, 0, length, (byte) i);
        journal.append(i, new UnsafeBuffer(payload, 0, length));
        if (i % 500 == 0) {
          journal.flush();
        }
      }
      journal.flush();
    }
    random = new Random(42);
    try (SegmentedJournal journal = SegmentedJournal.open(config);
        JournalReader reader = journal.openReader()) {
      assertThat(journal.getLastIndex()).isEqualTo(entries);
      reader.seekToFirst();
      for (int i = 1; i <= entries; i++) {
        int length = 1 + random.nextInt(payload.length);
        JournalRecord record = reader.next();
        assertThat(record.index()).isEqualTo(i);
        assertThat(record.data().capacity()).isEqualTo(length);
        assertThat(record.data().getByte(length - 1)).isEqualTo((byte) i);
      }
      assertThat(reader.hasNext()).isFalse();
    }
  }

  private static double zeroFilledBytes(SimpleMeterRegistry registry) {
    var counter = registry.find("tern.journal.zero.fill.bytes").counter();
    return counter == null ? 0 : counter.count();
  }

  private static long roundUpToPage(long value) {
    return (value + ZeroFillFence.PAGE_BYTES - 1)
        / ZeroFillFence.PAGE_BYTES
        * ZeroFillFence.PAGE_BYTES;
  }

  private static byte[] filled(int length, byte value) {
    byte[] bytes = new byte[length];
    java.util.Arrays.fill(bytes, value);
    return bytes;
  }
}
