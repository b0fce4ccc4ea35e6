package io.tern.engine.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * One partition's part of a backup, as its store holds it beside the files ({@code manifest.json},
 * see docs/operations.md#backups): what was taken (the checkpoint, the snapshot, the journal
 * segments with their sizes and CRC32C checksums), by whom and with which topology, and how far it
 * got. Written IN_PROGRESS before the first file and rewritten COMPLETED after the last, so a
 * manifest that says COMPLETED vouches for every file it lists.
 *
 * @param checkpointIndex the Raft index of the entry holding the checkpoint command: a restored
 *     journal ends there
 * @param checkpointTerm that entry's term: a restored member starts in it
 * @param snapshotId the directory name of the Raft snapshot taken along, or null if the partition
 *     had none yet (then the journal holds the whole log)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BackupManifest(
    long backupId,
    int partitionId,
    int nodeId,
    State state,
    String failureReason,
    String createdAt,
    String lastUpdated,
    long checkpointPosition,
    long checkpointIndex,
    long checkpointTerm,
    String snapshotId,
    String brokerVersion,
    int partitionsCount,
    int clusterSize,
    int replicationFactor,
    List<BackupFile> files) {

  /** The state of a partition's part, with Zeebe's names. */
  public enum State {
    IN_PROGRESS,
    COMPLETED,
    FAILED
  }

  /**
   * A stored file: its path under the partition's part ({@code snapshot/<id>/<file>} or {@code
   * journal/<segment>}), its size as stored and the CRC32C of that content, and the length a
   * restore gives it: a journal segment is a preallocated file of {@code journal.segmentSize} whose
   * unwritten end is zeros, stored without them and padded with zeros again on restore.
   */
  public record BackupFile(String name, long size, long crc32c, long length) {
    public BackupFile(String name, long size, long crc32c) {
      this(name, size, crc32c, size);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  public BackupManifest {
    files = files == null ? List.of() : List.copyOf(files);
  }

  /** The total size of the files as taken (before any compression by the store). */
  public long sizeBytes() {
    return files.stream().mapToLong(BackupFile::size).sum();
  }

  BackupManifest with(State newState, String reason, List<BackupFile> newFiles, String now) {
    return new BackupManifest(
        backupId,
        partitionId,
        nodeId,
        newState,
        reason,
        createdAt,
        now,
        checkpointPosition,
        checkpointIndex,
        checkpointTerm,
        snapshotId,
        brokerVersion,
        partitionsCount,
        clusterSize,
        replicationFactor,
        newFiles);
  }

  public byte[] toJson() {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * @throws IOException naming {@code where} if the bytes are no manifest
   */
  public static BackupManifest fromJson(byte[] json, String where) throws IOException {
    try {
      return JSON.readValue(json, BackupManifest.class);
    } catch (IOException e) {
      throw new IOException(
          "The backup manifest " + where + " is not readable: " + e.getMessage(), e);
    }
  }
}
