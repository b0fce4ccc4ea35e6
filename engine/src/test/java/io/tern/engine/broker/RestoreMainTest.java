package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.backup.BackupManifest;
import io.tern.engine.backup.FileSystemBackupStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/restore} as a process (its class with the test's class path, as bin/restore runs it):
 * its exit codes and the refusals an operator reads. A restore that succeeds is
 * BackupAndRestoreTest's.
 */
@Tag("slow") // bin/restore run as a process, eight times: docs/testing.md
class RestoreMainTest {
  @TempDir Path dir;

  /** A finished bin/restore: its exit code and what it printed. */
  record Run(int exit, String output) {}

  private Run restore(Map<String, String> settings, String... args) throws Exception {
    return run(dir, settings, args);
  }

  /** Runs bin/restore's class with exactly {@code settings} as its TERN_* environment. */
  static Run run(Path dir, Map<String, String> settings, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--add-exports");
    command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(RestoreMain.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(key -> key.startsWith("TERN_"));
    builder.environment().putAll(settings);
    Path log = Files.createTempFile(dir, "restore", ".log");
    builder.redirectOutput(log.toFile());
    Process process = builder.start();
    if (!process.waitFor(Duration.ofMinutes(1).toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("bin/restore did not end: " + Files.readString(log));
    }
    return new Run(process.exitValue(), Files.readString(log));
  }

  private Map<String, String> settings(Path data, Path backups) {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_DATA_DIRECTORY", data.toString());
    settings.put("TERN_CLUSTER_PARTITIONSCOUNT", "2");
    if (backups != null) {
      settings.put("TERN_DATA_BACKUP_STORE", "filesystem");
      settings.put("TERN_DATA_BACKUP_FILESYSTEM_BASEPATH", backups.toString());
    }
    return settings;
  }

  private static BackupManifest part(long backupId, int partitionId, BackupManifest.State state) {
    return new BackupManifest(
        backupId,
        partitionId,
        0,
        state,
        state == BackupManifest.State.FAILED ? "the bucket refused" : null,
        "2026-12-07T20:00:00Z",
        "2026-12-07T20:00:01Z",
        10,
        2,
        1,
        null,
        "8.6.0",
        2,
        1,
        1,
        List.of());
  }

  @Test
  void refusesClearlyAndLeavesTheDataDirectoryAlone() throws Exception {
    Path data = dir.resolve("data");
    Path backups = dir.resolve("backups");
    try (FileSystemBackupStore store = new FileSystemBackupStore(backups)) {
      store.saveManifest(part(3, 1, BackupManifest.State.COMPLETED));
      store.saveManifest(part(3, 2, BackupManifest.State.IN_PROGRESS));
      store.saveManifest(part(4, 1, BackupManifest.State.COMPLETED));
      store.saveManifest(part(4, 2, BackupManifest.State.FAILED));
    }

    Run noId = restore(settings(data, backups));
    assertThat(noId.exit()).as(noId.output()).isEqualTo(2);
    assertThat(noId.output()).contains("--backupId");

    Run noStore = restore(settings(data, null), "--backupId", "3");
    assertThat(noStore.exit()).as(noStore.output()).isEqualTo(1);
    assertThat(noStore.output()).contains("no backup store is configured");

    Run missing = restore(settings(data, backups), "--backupId", "9");
    assertThat(missing.exit()).as(missing.output()).isEqualTo(1);
    assertThat(missing.output()).contains("backup 9 does not exist in filesystem " + backups);

    Run inProgress = restore(settings(data, backups), "--backupId", "3");
    assertThat(inProgress.exit()).isEqualTo(1);
    assertThat(inProgress.output())
        .contains("backup 3 is not complete")
        .contains("partition 2 is IN_PROGRESS");
    Run failed = restore(settings(data, backups), "--backupId", "4");
    assertThat(failed.output()).contains("partition 2 is FAILED (the bucket refused)");

    Map<String, String> threePartitions = settings(data, backups);
    threePartitions.put("TERN_CLUSTER_PARTITIONSCOUNT", "3");
    Run topology = restore(threePartitions, "--backupId", "3");
    assertThat(topology.exit()).isEqualTo(1);
    assertThat(topology.output())
        .contains("taken of a cluster of 1 broker(s), 2 partition(s), replication factor 1")
        .contains("configured for 1 broker(s), 3 partition(s)");
    assertThat(data).doesNotExist();

    // What a killed restore left is no content: it is cleared and the restore goes on.
    Files.createDirectories(data.resolve(".restore-in-progress/partition-1/journal"));
    Run afterKilled = restore(settings(data, backups), "--backupId", "9");
    assertThat(afterKilled.output()).contains("backup 9 does not exist");
    assertThat(data).isEmptyDirectory();

    Files.createDirectories(data.resolve("raft"));
    Run notEmpty = restore(settings(data, backups), "--backupId", "3");
    assertThat(notEmpty.exit()).isEqualTo(1);
    assertThat(notEmpty.output()).contains("is not empty (it holds raft)");
    try (var left = Files.list(data)) {
      assertThat(left).extracting(path -> path.getFileName().toString()).containsExactly("raft");
    }

    // The chart's init container, run again after a restore of backup 3: nothing to do. Another
    // backup's id is still refused, and so is a directory without the mark.
    Run noMark = restore(settings(data, backups), "--backupId", "3", "--skipIfRestored");
    assertThat(noMark.exit()).as(noMark.output()).isEqualTo(1);
    assertThat(noMark.output()).contains("is not empty");
    Files.writeString(data.resolve(".restored-backup"), "3\n");
    Run again = restore(settings(data, backups), "--backupId", "3", "--skipIfRestored");
    assertThat(again.exit()).as(again.output()).isZero();
    assertThat(again.output()).contains("was restored from backup 3 already");
    Run other = restore(settings(data, backups), "--backupId", "4", "--skipIfRestored");
    assertThat(other.exit()).as(other.output()).isEqualTo(1);
    assertThat(other.output()).contains("is not empty");
  }
}
