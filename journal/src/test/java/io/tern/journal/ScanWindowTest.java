package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open-time scans read frames through {@link ScanWindow} (pread into a 1 MiB window): frames that
 * cross a window's end, frames larger than a window, and damage in either must be handled exactly
 * as reads through the mapping handle them.
 */
class ScanWindowTest {
  private static final int SEGMENT_BYTES = 8 * 1024 * 1024;
  private static final int MAX_ENTRY_BYTES = 3 * 1024 * 1024;

  /** Sizes cycled through: small, around a window, larger than a window. */
  private static final int[] SIZES = {
    100, 70 * 1024, ScanWindow.WINDOW_BYTES + 512 * 1024, 8, 900 * 1024 + 33, 1, 4096, 2_000_000
  };

  @TempDir Path directory;

  private JournalConfig config(JournalConfig.OpenVerification verification) {
    return JournalConfig.builder(directory)
        .segmentSizeBytes(SEGMENT_BYTES)
        .maxEntrySizeBytes(MAX_ENTRY_BYTES)
        .indexDensity(3)
        .openVerification(verification)
        .build();
  }

  private static byte[] entry(long index, int size) {
    byte[] bytes = new byte[size];
    new Random(index).nextBytes(bytes);
    return bytes;
  }

  /** Appends 40 entries of the cycled sizes (several segments), flushes and closes cleanly. */
  private List<Integer> writeJournal() {
    List<Integer> sizes = new ArrayList<>();
    try (SegmentedJournal journal =
        SegmentedJournal.open(config(JournalConfig.OpenVerification.TAIL))) {
      for (int i = 0; i < 40; i++) {
        int size = SIZES[i % SIZES.length];
        long index = journal.getLastIndex() + 1;
        journal.append(index * 10, new UnsafeBuffer(entry(index, size)));
        sizes.add(size);
      }
      journal.flush();
    }
    return sizes;
  }

  @Test
  void fullVerificationAcceptsFramesAcrossAndBeyondWindowsAndReadsThemBack() {
    List<Integer> sizes = writeJournal();
    try (SegmentedJournal journal =
            SegmentedJournal.open(config(JournalConfig.OpenVerification.FULL));
        JournalReader reader = journal.openReader()) {
      assertThat(journal.segmentCount()).isEqualTo(3);
      assertThat(journal.getLastIndex()).isEqualTo(sizes.size());
      for (long index = 1; index <= sizes.size(); index++) {
        JournalRecord record = reader.next();
        assertThat(record.index()).isEqualTo(index);
        assertThat(record.asqn()).isEqualTo(index * 10);
        byte[] data = new byte[record.data().capacity()];
        record.data().getBytes(0, data);
        assertThat(data).isEqualTo(entry(index, sizes.get((int) index - 1)));
      }
      // The sparse index built by the scan (asqn points every 3 entries) finds every entry.
      for (long index = sizes.size(); index >= 1; index--) {
        reader.seekToAsqn(index * 10 + 5);
        assertThat(reader.next().index()).isEqualTo(index);
      }
    }
  }

  @Test
  void anInterruptedThreadStillOpensAndIndexesSegments() {
    List<Integer> sizes = writeJournal();
    Thread.currentThread().interrupt(); // pread through an interruptible channel would fail
    try (SegmentedJournal journal =
            SegmentedJournal.open(config(JournalConfig.OpenVerification.TAIL));
        JournalReader reader = journal.openReader()) {
      assertThat(journal.getLastIndex()).isEqualTo(sizes.size());
      assertThat(Thread.currentThread().isInterrupted()).as("the flag is kept").isTrue();
      // Segment 1 was trusted by its hint: this seek builds its sparse index with a scan.
      reader.seekToAsqn(25);
      assertThat(reader.next().index()).isEqualTo(2);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void damageAtTheEndOfAFrameThatCrossesAWindowIsRefused() throws IOException {
    writeJournal();
    // The 900 KiB frame follows a 1.5 MiB and an 8 B one in the first segment: it starts inside
    // the window loaded for its header and ends beyond it.
    long damaged = damageLastDataByte(900 * 1024 + 33);
    assertThatThrownBy(
            () -> SegmentedJournal.open(config(JournalConfig.OpenVerification.FULL)).close())
        .isInstanceOf(JournalException.CorruptedJournal.class)
        .hasMessageContaining("journal-1.log")
        .hasMessageContaining("checksum mismatch");
    assertThat(damaged).isGreaterThan(ScanWindow.WINDOW_BYTES);
  }

  @Test
  void damageInAFrameLargerThanAWindowIsRefused() throws IOException {
    writeJournal();
    damageLastDataByte(ScanWindow.WINDOW_BYTES + 512 * 1024);
    assertThatThrownBy(
            () -> SegmentedJournal.open(config(JournalConfig.OpenVerification.FULL)).close())
        .isInstanceOf(JournalException.CorruptedJournal.class)
        .hasMessageContaining("checksum mismatch");
  }

  @Test
  void frameAtTellsMissingInvalidAndOversizedFrames() throws IOException {
    writeJournal();
    Path file = directory.resolve("journal-1.log");
    try (ScanWindow window = new ScanWindow(file, SEGMENT_BYTES)) {
      int first = SegmentDescriptor.LENGTH;
      assertThat(window.frameAt(first, 1, true)).isEqualTo(FrameLayout.frameLength(100));
      assertThat(window.asqnAt(first)).isEqualTo(10);
      assertThat(window.frameAt(first, 2, true)).isEqualTo(SegmentFrames.INVALID_FRAME);
      int third = first + FrameLayout.frameLength(100) + FrameLayout.frameLength(70 * 1024);
      assertThat(window.frameAt(third, 3, true)).isEqualTo(ScanWindow.TOO_LARGE);
      assertThat(window.frameAt(third, 3, false))
          .isEqualTo(FrameLayout.frameLength(ScanWindow.WINDOW_BYTES + 512 * 1024));
      assertThat(window.frameAt(SEGMENT_BYTES - 64, 99, true)).isEqualTo(SegmentFrames.NO_FRAME);
      assertThat(window.frameAt(SEGMENT_BYTES - 8, 99, true)).isEqualTo(SegmentFrames.NO_FRAME);
    }
  }

  /**
   * Flips the last data byte of the first frame in {@code journal-1.log} with {@code dataLength}
   * bytes; returns the damaged offset.
   */
  private long damageLastDataByte(int dataLength) throws IOException {
    Path file = directory.resolve("journal-1.log");
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer header = ByteBuffer.allocate(FrameLayout.HEADER_LENGTH);
      header.order(ByteOrder.LITTLE_ENDIAN);
      long position = SegmentDescriptor.LENGTH;
      while (true) {
        header.clear();
        channel.read(header, position);
        int length = header.getInt(FrameLayout.LENGTH_OFFSET);
        assertThat(header.getInt(FrameLayout.MARKER_OFFSET))
            .as("frame of %d bytes in journal-1.log", dataLength)
            .isEqualTo(FrameLayout.MARKER_V1);
        if (length == dataLength) {
          long offset = position + FrameLayout.DATA_OFFSET + length - 1;
          ByteBuffer one = ByteBuffer.allocate(1);
          channel.read(one, offset);
          one.put(0, (byte) (one.get(0) ^ 0x5A)).clear();
          channel.write(one, offset);
          return offset;
        }
        position += FrameLayout.frameLength(length);
      }
    }
  }
}
