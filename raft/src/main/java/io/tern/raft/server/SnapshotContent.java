package io.tern.raft.server;

import java.io.IOException;
import java.nio.file.Path;

/** Writes a state machine's snapshot files (flat, any names but MANIFEST) into a directory. */
@FunctionalInterface
public interface SnapshotContent {
  void writeTo(Path directory) throws IOException;
}
