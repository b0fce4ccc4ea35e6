package io.tern.raft.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tern.journal.SegmentedJournal;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.snapshot.FileSnapshotStore;
import io.tern.raft.storage.HardStateStore;
import io.tern.raft.storage.JournalRaftLog;
import java.nio.file.Path;

/**
 * What one partition keeps on disk, under {@code <dataDirectory>/partition-<id>/}: the journal
 * ({@code journal/}), snapshots ({@code snapshots/}) and the durable term and vote ({@code
 * hard-state}).
 */
final class PartitionStorage implements AutoCloseable {
  final Path directory;
  final FileSnapshotStore snapshots;
  final SegmentedJournal journal;
  final JournalRaftLog log;
  final HardStateStore hardState;

  PartitionStorage(RaftServerConfig config, int partitionId, MeterRegistry registry, Tags tags) {
    directory = config.dataDirectory().resolve("partition-" + partitionId);
    snapshots = new FileSnapshotStore(directory.resolve("snapshots"), config.snapshotChunkBytes());
    journal =
        SegmentedJournal.open(
            config
                .journalConfig(directory.resolve("journal"))
                .meterRegistry(registry)
                .metricTags(tags)
                .build());
    // Entries that survived a process crash may sit only in the page cache: make them durable
    // before this member counts them as persisted.
    journal.flush();
    SnapshotMeta snapshot = snapshots.latest();
    log =
        new JournalRaftLog(
            journal,
            snapshot == null ? 0 : snapshot.index(),
            snapshot == null ? 0 : snapshot.term());
    hardState = new HardStateStore(directory.resolve("hard-state"));
  }

  long snapshotIndex() {
    SnapshotMeta snapshot = snapshots.latest();
    return snapshot == null ? 0 : snapshot.index();
  }

  @Override
  public void close() {
    journal.close();
    hardState.close();
    snapshots.close();
  }
}
