package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.journal.JournalConfig;
import io.tern.journal.SegmentedJournal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The torn tail the chaos suite writes is one the journal recognises: a frame after the last one,
 * cut on open, with every entry before it intact. Were it written over a real frame, the reopened
 * journal would lose an entry or refuse to open.
 */
class TornTailTest {
  private static final int ENTRIES = 20;

  @TempDir Path dataDirectory;

  @Test
  void theTornFrameFollowsTheLastEntryAndTheJournalCutsIt() throws Exception {
    Path journalDirectory = dataDirectory.resolve("raft").resolve("partition-1");
    try (SegmentedJournal journal = SegmentedJournal.open(config(journalDirectory))) {
      UnsafeBuffer data = new UnsafeBuffer(new byte[100]);
      for (int i = 0; i < ENTRIES; i++) {
        data.putInt(0, i);
        journal.append(i + 1, data, 0, data.capacity());
      }
      journal.flush();
    }

    String torn = TornTail.tear(dataDirectory, 1, new Random(7));

    Matcher where = Pattern.compile("at offset (\\d+) of (.*)").matcher(torn);
    assertThat(where.find()).as(torn).isTrue();
    assertThat(markerAt(Path.of(where.group(2)), Long.parseLong(where.group(1))))
        .as("a frame marker where the last frame ended")
        .isNotZero();
    try (SegmentedJournal reopened = SegmentedJournal.open(config(journalDirectory))) {
      assertThat(reopened.getLastIndex()).isEqualTo(ENTRIES);
    }
    assertThat(markerAt(Path.of(where.group(2)), Long.parseLong(where.group(1))))
        .as("the torn frame was cut")
        .isZero();
  }

  private static JournalConfig config(Path directory) {
    return JournalConfig.builder(directory)
        .segmentSizeBytes(64 * 1024)
        .fitMaxEntrySizeToSegment()
        .build();
  }

  private static int markerAt(Path segment, long offset) throws Exception {
    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ)) {
      ByteBuffer marker = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      channel.read(marker, offset);
      return marker.getInt(0);
    }
  }
}
