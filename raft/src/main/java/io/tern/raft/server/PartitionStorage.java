package io.tern.raft.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tern.journal.DirectorySync;
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
    SegmentedJournal openedJournal = null;
    JournalRaftLog openedLog = null;
    HardStateStore openedHardState = null;
    try {
      openedJournal =
          SegmentedJournal.open(
              config
                  .journalConfig(directory.resolve("journal"))
                  .meterRegistry(registry)
                  .metricTags(tags)
                  .build());
      // Entries that survived a process crash may sit only in the page cache: make them durable
      // before this member counts them as persisted.
      openedJournal.flush();
      SnapshotMeta snapshot = snapshots.latest();
      openedLog =
          new JournalRaftLog(
              openedJournal,
              snapshot == null ? 0 : snapshot.index(),
              snapshot == null ? 0 : snapshot.term());
      openedHardState = new HardStateStore(directory.resolve("hard-state"));
      // The entries of journal/, snapshots/ and hard-state in this directory, and of this
      // directory in the data directory, must survive a power loss as the files in them do.
      DirectorySync.sync(directory);
      DirectorySync.sync(config.dataDirectory());
    } catch (RuntimeException e) {
      // Release what was opened (the journal's directory lock above all), so that a corrected
      // retry in this process can open the partition again; the first failure is the one thrown.
      closeAll(e, openedLog, openedJournal, openedHardState, snapshots);
      throw e;
    }
    journal = openedJournal;
    log = openedLog;
    hardState = openedHardState;
  }

  /** Closes each non-null resource, even if one fails; failures are added to {@code primary}. */
  private static void closeAll(RuntimeException primary, AutoCloseable... resources) {
    for (AutoCloseable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (Exception e) {
        primary.addSuppressed(e);
      }
    }
  }

  long snapshotIndex() {
    SnapshotMeta snapshot = snapshots.latest();
    return snapshot == null ? 0 : snapshot.index();
  }

  @Override
  public void close() {
    RuntimeException failure = new IllegalStateException("Closing partition storage failed");
    closeAll(failure, log, journal, hardState, snapshots);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }
}
