package io.tern.raft.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.journal.JournalConfig;
import io.tern.journal.SegmentedJournal;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Random appends, truncations, resets and reads against a list: whatever the log remembers in
 * memory ({@link RecentEntries}) and whatever it reads back from the journal, reads return exactly
 * the entries the list holds.
 */
class JournalRaftLogPropertyTest {

  /** Entries the log should put in one batch: at least one, then while they fit. */
  private static int expectedBatchSize(List<RaftEntry> from, int maxBytes) {
    int count = 0;
    long bytes = 0;
    for (RaftEntry entry : from) {
      int size = JournalRaftLog.HEADER_LENGTH + entry.data().length;
      if (count > 0 && (bytes + size > maxBytes || count >= RaftLog.MAX_BATCH_ENTRIES)) {
        break;
      }
      count++;
      bytes += size;
    }
    return count;
  }

  @Property(tries = 20)
  void readsReturnWhatWasLastAppendedAtEachIndex(@ForAll long seed) throws IOException {
    Random random = new Random(seed);
    Path directory = Files.createTempDirectory("raft-log-property");
    try (SegmentedJournal journal =
        SegmentedJournal.open(
            JournalConfig.builder(directory)
                .segmentSizeBytes(64 * 1024)
                .fitMaxEntrySizeToSegment()
                .build())) {
      // A small budget, so that what is remembered often ends inside a batch.
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0, 16 * 1024);
      List<RaftEntry> model = new ArrayList<>(); // model.get(i) has index firstIndex + i
      long firstIndex = 1;
      long term = 1;
      for (int step = 0; step < 6_000; step++) {
        int choice = random.nextInt(1_000); // rare cuts, so that runs outgrow what is remembered
        long lastIndex = firstIndex + model.size() - 1;
        if (choice >= 300) {
          int bytes = random.nextInt(10) == 0 ? 2_000 + random.nextInt(6_000) : random.nextInt(64);
          byte[] data = new byte[bytes];
          random.nextBytes(data);
          RaftEntry entry =
              new RaftEntry(lastIndex + 1, term, RaftEntry.Type.APPLICATION, lastIndex + 1, data);
          log.append(entry);
          model.add(entry);
        } else if (choice < 4 && log.firstIndex() <= lastIndex) {
          // Mostly a short tail, as a new leader cuts; now and then much more.
          int cut = random.nextInt(8) == 0 ? random.nextInt(model.size() + 1) : random.nextInt(20);
          // Never below what compaction dropped: Raft never cuts committed entries.
          long keep = Math.max(Math.max(firstIndex - 1, log.firstIndex()), lastIndex - cut);
          log.truncateAfter(keep);
          model.subList((int) (keep - firstIndex + 1), model.size()).clear();
          term++; // a new leader rewrites the cut entries
        } else if (choice < 5) {
          long snapshotIndex = lastIndex + random.nextInt(50);
          log.reset(snapshotIndex, term);
          model.clear();
          firstIndex = snapshotIndex + 1;
        } else if (choice < 8 && !model.isEmpty()) {
          // Compaction: the journal drops whole segments below; reads then start at its first.
          long snapshotIndex = firstIndex + random.nextInt(model.size());
          log.compact(
              snapshotIndex, model.get((int) (snapshotIndex - firstIndex)).term(), snapshotIndex);
        } else if (log.firstIndex() <= lastIndex) {
          long readable = Math.max(firstIndex, log.firstIndex());
          long from = readable + random.nextInt((int) (lastIndex - readable + 1));
          int maxBytes = random.nextInt(8) == 0 ? Integer.MAX_VALUE : random.nextInt(50_000);
          List<RaftEntry> batch = log.entries(from, maxBytes);
          assertThat(batch).as("seed %d step %d: batch from %d", seed, step, from).isNotEmpty();
          int offset = (int) (from - firstIndex);
          assertThat(batch)
              .as("seed %d step %d: batch from %d", seed, step, from)
              .containsExactlyElementsOf(model.subList(offset, offset + batch.size()));
          assertThat(batch.size())
              .as("seed %d step %d: entries in a batch of at most %d bytes", seed, step, maxBytes)
              .isEqualTo(expectedBatchSize(model.subList(offset, model.size()), maxBytes));
          long one = readable + random.nextInt((int) (lastIndex - readable + 1));
          assertThat(log.entry(one))
              .as("seed %d step %d: entry %d", seed, step, one)
              .isEqualTo(model.get((int) (one - firstIndex)));
        }
        assertThat(log.lastIndex()).isEqualTo(firstIndex + model.size() - 1);
      }
      log.close();
    } finally {
      try (Stream<Path> files = Files.walk(directory)) {
        for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      }
    }
  }
}
