package io.tern.engine.backup;

import io.tern.engine.backup.BackupManifest.BackupFile;
import io.tern.engine.backup.BackupManifest.State;
import io.tern.journal.DirectorySync;
import io.tern.journal.JournalConfig;
import io.tern.journal.SegmentedJournal;
import io.tern.raft.HardState;
import io.tern.raft.storage.HardStateStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills an empty data directory from a backup, for the partitions this broker hosts, before it
 * starts ({@code bin/restore}). Each partition becomes what its Raft member finds after a clean
 * stop: {@code raft/partition-<id>/} with the backup's snapshot under {@code snapshots/}, its
 * journal segments under {@code journal/} cut after the checkpoint's entry, and a {@code
 * hard-state} in the checkpoint entry's term without a vote. Every replica of a partition gets the
 * same log, so they elect a leader among them as after any restart; the leader processes what
 * follows its snapshot up to the checkpoint again, and commands written before the checkpoint but
 * not processed then are processed now, whole.
 *
 * <p>It refuses, naming what is wrong: a backup that does not exist or is not complete (every
 * partition's part COMPLETED; an INCOMPLETE one names the partitions without a part), a cluster
 * configured with another topology than the backup's, a data directory that is not empty. Files are
 * downloaded into a directory beside the target and checked (size, CRC32C) before anything is moved
 * into place, so a failed restore leaves the data directory as it was.
 */
public final class BackupRestore {
  private static final Logger LOG = LoggerFactory.getLogger(BackupRestore.class);
  static final String WORK_DIRECTORY = ".restore-in-progress";

  /**
   * Left in the data directory by a restore that succeeded, holding the backup's id: an init
   * container that runs again once the broker has started knows its work is done ({@link
   * #restoredAlready}).
   */
  public static final String MARKER = ".restored-backup";

  /** A restore that cannot be done, and why. */
  public static final class RestoreException extends Exception {
    private static final long serialVersionUID = 1L;

    public RestoreException(String message) {
      super(message);
    }

    public RestoreException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The broker restored to.
   *
   * @param dataDirectory its {@code data.directory}
   * @param partitionIds the partitions it hosts
   * @param journalConfig the journal configuration its Raft server uses for a directory
   */
  public record Target(
      Path dataDirectory,
      int nodeId,
      int clusterSize,
      int partitionsCount,
      int replicationFactor,
      List<Integer> partitionIds,
      Function<Path, JournalConfig> journalConfig) {}

  /** What was restored: per partition, the checkpoint position and bytes downloaded. */
  public record Restored(long backupId, Map<Integer, Long> checkpointPositions, long bytes) {}

  private BackupRestore() {}

  public static Restored restore(BackupStore store, long backupId, Target target)
      throws RestoreException {
    checkEmpty(target.dataDirectory());
    Map<Integer, BackupManifest> parts = completeParts(store, backupId, target);
    Path work = target.dataDirectory().resolve(WORK_DIRECTORY);
    Map<Integer, Long> positions = new TreeMap<>();
    long bytes = 0;
    try {
      Files.createDirectories(work);
      for (int partitionId : target.partitionIds()) {
        BackupManifest part = parts.get(partitionId);
        bytes += restorePartition(store, part, work.resolve("partition-" + partitionId), target);
        positions.put(partitionId, part.checkpointPosition());
      }
      // Everything is downloaded and checked: move it into place.
      Path raft = target.dataDirectory().resolve("raft");
      Files.createDirectories(raft);
      for (int partitionId : target.partitionIds()) {
        Path partition = work.resolve("partition-" + partitionId);
        DirectorySync.sync(partition.resolve("journal"));
        try (Stream<Path> snapshots = Files.list(partition.resolve("snapshots"))) {
          for (Path snapshot : snapshots.toList()) {
            DirectorySync.sync(snapshot);
          }
        }
        DirectorySync.sync(partition.resolve("snapshots"));
        DirectorySync.sync(partition);
        Files.move(
            partition, raft.resolve("partition-" + partitionId), StandardCopyOption.ATOMIC_MOVE);
      }
      DirectorySync.sync(raft);
      PartitionBackup.deleteRecursively(work);
      Files.writeString(target.dataDirectory().resolve(MARKER), backupId + "\n");
      DirectorySync.sync(target.dataDirectory());
    } catch (IOException | RuntimeException e) {
      deleteQuietly(work);
      throw new RestoreException(
          "restoring backup " + backupId + " from " + store.describe() + " failed: " + e, e);
    }
    return new Restored(backupId, positions, bytes);
  }

  /**
   * Whether {@code dataDirectory} was filled by a restore of {@code backupId} ({@link #MARKER}).
   */
  public static boolean restoredAlready(Path dataDirectory, long backupId) {
    try {
      return Files.readString(dataDirectory.resolve(MARKER))
          .strip()
          .equals(Long.toString(backupId));
    } catch (IOException e) {
      return false; // none, or unreadable: not known to be restored
    }
  }

  private static void checkEmpty(Path dataDirectory) throws RestoreException {
    if (!Files.exists(dataDirectory)) {
      return;
    }
    if (!Files.isDirectory(dataDirectory)) {
      throw new RestoreException("the data directory " + dataDirectory + " is not a directory");
    }
    try {
      // What a restore that was killed left: nothing of it was moved into place yet.
      PartitionBackup.deleteRecursively(dataDirectory.resolve(WORK_DIRECTORY));
    } catch (IOException e) {
      throw new RestoreException(
          "cannot delete the unfinished restore in " + dataDirectory + ": " + e, e);
    }
    try (Stream<Path> entries = Files.list(dataDirectory)) {
      List<String> names =
          entries.map(entry -> entry.getFileName().toString()).sorted().limit(5).toList();
      if (!names.isEmpty()) {
        throw new RestoreException(
            "the data directory "
                + dataDirectory
                + " is not empty (it holds "
                + String.join(", ", names)
                + "): a restore fills an empty one only, so that no data is mixed with or lost to"
                + " the backup's. Move or delete its content first");
      }
    } catch (IOException e) {
      throw new RestoreException("cannot read the data directory " + dataDirectory + ": " + e, e);
    }
  }

  /** Every partition's part, each COMPLETED, of a backup of this broker's topology. */
  private static Map<Integer, BackupManifest> completeParts(
      BackupStore store, long backupId, Target target) throws RestoreException {
    List<BackupManifest> manifests;
    try {
      manifests = store.manifests(backupId);
    } catch (IOException e) {
      throw new RestoreException(
          "cannot read backup " + backupId + " from " + store.describe() + ": " + e.getMessage(),
          e);
    }
    if (manifests.isEmpty()) {
      throw new RestoreException("backup " + backupId + " does not exist in " + store.describe());
    }
    BackupManifest first = manifests.get(0);
    if (first.partitionsCount() != target.partitionsCount()
        || first.clusterSize() != target.clusterSize()
        || first.replicationFactor() != target.replicationFactor()) {
      throw new RestoreException(
          "backup "
              + backupId
              + " was taken of a cluster of "
              + topology(first.clusterSize(), first.partitionsCount(), first.replicationFactor())
              + "; this broker is configured for "
              + topology(target.clusterSize(), target.partitionsCount(), target.replicationFactor())
              + ": restore into a cluster configured as the backup's");
    }
    Map<Integer, BackupManifest> parts = new TreeMap<>();
    manifests.forEach(part -> parts.put(part.partitionId(), part));
    BackupStatus status = BackupStatus.of(backupId, manifests);
    List<String> incomplete = new ArrayList<>();
    for (int partitionId = 1; partitionId <= target.partitionsCount(); partitionId++) {
      BackupManifest part = parts.get(partitionId);
      if (part != null && part.state() != State.COMPLETED) {
        incomplete.add(
            "partition "
                + partitionId
                + " is "
                + part.state()
                + (part.failureReason() == null ? "" : " (" + part.failureReason() + ")"));
      }
    }
    if (!status.missingPartitions().isEmpty()) {
      incomplete.add(
          (status.missingPartitions().size() == 1 ? "partition " : "partitions ")
              + status.missingPartitions().stream().map(String::valueOf).toList()
              + " without a stored part");
    }
    if (status.state() == BackupStatus.State.INCOMPLETE) {
      throw new RestoreException(
          "backup "
              + backupId
              + " is INCOMPLETE, so it cannot be restored: "
              + status.incompleteReason()
              + ". It never completes: restore another backup, or take a new one with a higher"
              + " id");
    }
    if (!incomplete.isEmpty()) {
      throw new RestoreException(
          "backup "
              + backupId
              + " is not complete ("
              + status.state()
              + "), so it cannot be restored: "
              + String.join("; ", incomplete));
    }
    return parts;
  }

  private static String topology(int brokers, int partitions, int replicationFactor) {
    return brokers
        + " broker(s), "
        + partitions
        + " partition(s), replication factor "
        + replicationFactor;
  }

  /** Downloads and checks one partition's files into {@code directory}; returns their bytes. */
  private static long restorePartition(
      BackupStore store, BackupManifest part, Path directory, Target target) throws IOException {
    Path journal = directory.resolve("journal");
    Path snapshots = directory.resolve("snapshots");
    Files.createDirectories(journal);
    Files.createDirectories(snapshots);
    long bytes = 0;
    for (BackupFile file : part.files()) {
      Path local = localPath(directory, file.name());
      Files.createDirectories(local.getParent());
      store.download(part.backupId(), part.partitionId(), file.name(), local);
      long size = Files.size(local);
      if (size != file.size() || PartitionBackup.crc32c(local) != file.crc32c()) {
        throw new IOException(
            "the backup's file "
                + file.name()
                + " of partition "
                + part.partitionId()
                + " does not match its manifest (size "
                + size
                + ", expected "
                + file.size()
                + ", or its checksum): the stored copy is damaged");
      }
      bytes += size;
      // A segment stored without the zeros of its end is padded back to its length (a journal
      // opens segments of their full size only; setLength adds zeros, a sparse end on most file
      // systems); every file is forced: the broker starting next counts on what it finds.
      try (RandomAccessFile restored = new RandomAccessFile(local.toFile(), "rw")) {
        if (file.length() > size) {
          restored.setLength(file.length());
        }
        restored.getChannel().force(true);
      }
    }
    cutJournal(part, journal, target);
    try (HardStateStore hardState = new HardStateStore(directory.resolve("hard-state"))) {
      hardState.store(new HardState(part.checkpointTerm(), HardState.NO_VOTE));
    }
    LOG.info(
        "Partition {}: restored backup {} ({} files, {} bytes, snapshot {}, log up to index {})",
        part.partitionId(),
        part.backupId(),
        part.files().size(),
        bytes,
        part.snapshotId(),
        part.checkpointIndex());
    return bytes;
  }

  /** Where a stored file goes: {@code snapshot/<id>/<f>} under snapshots/, journal/ as is. */
  private static Path localPath(Path directory, String name) throws IOException {
    Path local;
    if (name.startsWith("snapshot/")) {
      local = directory.resolve("snapshots").resolve(name.substring("snapshot/".length()));
    } else if (name.startsWith("journal/")) {
      local = directory.resolve(name);
    } else {
      throw new IOException("the backup holds a file of no known kind: " + name);
    }
    Path normal = local.normalize();
    if (!normal.startsWith(directory)) {
      throw new IOException("the backup's file name leaves the partition's directory: " + name);
    }
    return normal;
  }

  /** Cuts the journal after the checkpoint's entry: what followed it is not in the backup. */
  private static void cutJournal(BackupManifest part, Path journal, Target target)
      throws IOException {
    try (SegmentedJournal opened = SegmentedJournal.open(target.journalConfig().apply(journal))) {
      if (opened.getLastIndex() < part.checkpointIndex()) {
        throw new IOException(
            "partition "
                + part.partitionId()
                + "'s journal in the backup ends at index "
                + opened.getLastIndex()
                + ", before its checkpoint at index "
                + part.checkpointIndex());
      }
      opened.deleteAfter(part.checkpointIndex());
      opened.flush();
    }
    // The journal's lock file is not the broker's business: it makes its own.
    try (Stream<Path> files = Files.list(journal)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".lock")).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }

  private static void deleteQuietly(Path directory) {
    try {
      PartitionBackup.deleteRecursively(directory);
    } catch (IOException e) {
      LOG.warn("Cannot delete {}", directory, e);
    }
  }
}
