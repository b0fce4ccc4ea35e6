package io.tern.engine.backup;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A backup's state over the parts its store holds, with Zeebe's names. Every partition of the
 * cluster (as the parts recorded its size) should have a part:
 *
 * <ul>
 *   <li>FAILED if a part failed;
 *   <li>COMPLETED if every partition's part is;
 *   <li>IN_PROGRESS if a part is still being stored (a partition without a part yet may be about to
 *       start: a leader announces its part as soon as its checkpoint is committed);
 *   <li>INCOMPLETE if some partition has no part although none is in progress: its leader failed or
 *       lost its leadership before storing it, or the part was deleted from the store. It never
 *       completes; a restore refuses it;
 *   <li>DOES_NOT_EXIST if the store holds no part.
 * </ul>
 *
 * @param missingPartitions the partitions of the cluster that have no stored part, ascending
 */
public record BackupStatus(
    long backupId, State state, List<BackupManifest> parts, List<Integer> missingPartitions) {

  public enum State {
    COMPLETED,
    IN_PROGRESS,
    FAILED,
    INCOMPLETE,
    DOES_NOT_EXIST
  }

  public BackupStatus {
    parts = List.copyOf(parts);
    missingPartitions = List.copyOf(missingPartitions);
  }

  /** The status of {@code backupId} from the parts the store holds of it (any order). */
  public static BackupStatus of(long backupId, List<BackupManifest> parts) {
    if (parts.isEmpty()) {
      return new BackupStatus(backupId, State.DOES_NOT_EXIST, List.of(), List.of());
    }
    // The parts agree on the cluster's size unless the store was tampered with; the largest keeps
    // a partition from going unnoticed.
    int partitionsCount =
        parts.stream().mapToInt(BackupManifest::partitionsCount).max().orElseThrow();
    Set<Integer> present = new TreeSet<>();
    parts.forEach(part -> present.add(part.partitionId()));
    List<Integer> missing = new ArrayList<>();
    for (int partitionId = 1; partitionId <= partitionsCount; partitionId++) {
      if (!present.contains(partitionId)) {
        missing.add(partitionId);
      }
    }
    State state;
    if (parts.stream().anyMatch(part -> part.state() == BackupManifest.State.FAILED)) {
      state = State.FAILED;
    } else if (parts.stream().anyMatch(part -> part.state() == BackupManifest.State.IN_PROGRESS)) {
      state = State.IN_PROGRESS;
    } else if (!missing.isEmpty()) {
      state = State.INCOMPLETE;
    } else {
      state = State.COMPLETED;
    }
    return new BackupStatus(backupId, state, parts, missing);
  }

  /** Why an INCOMPLETE backup is, naming its missing partitions; null otherwise. */
  public String incompleteReason() {
    if (state != State.INCOMPLETE) {
      return null;
    }
    return (missingPartitions.size() == 1
            ? "partition " + missingPartitions.get(0) + " has"
            : "partitions " + join(missingPartitions) + " have")
        + " no stored part (its leader failed or lost its leadership before storing it, or it was"
        + " deleted from the store)";
  }

  private static String join(List<Integer> ids) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < ids.size(); i++) {
      text.append(i == 0 ? "" : i == ids.size() - 1 ? " and " : ", ").append(ids.get(i));
    }
    return text.toString();
  }
}
