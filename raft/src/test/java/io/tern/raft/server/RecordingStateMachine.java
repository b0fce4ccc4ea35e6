package io.tern.raft.server;

import io.tern.raft.SnapshotMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Remembers the last commit it heard of (and the thread that told it) and the files of snapshots
 * installed from the leader.
 */
final class RecordingStateMachine implements StateMachine {
  volatile long commitIndex;
  volatile String commitThread;
  volatile SnapshotMeta installed;
  volatile Map<String, byte[]> installedFiles;

  @Override
  public void onCommit(long commitIndex) {
    this.commitIndex = commitIndex;
    this.commitThread = Thread.currentThread().getName();
  }

  @Override
  public void onSnapshotInstalled(SnapshotMeta meta, Path directory) {
    installedFiles = read(directory);
    installed = meta;
  }

  static Map<String, byte[]> read(Path directory) {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> list = Files.list(directory)) {
      for (Path file : list.toList()) {
        if (!file.getFileName().toString().equals("MANIFEST")) {
          files.put(file.getFileName().toString(), Files.readAllBytes(file));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }
}
