package io.tern.engine.processor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether processing is paused, kept as a file in the partition's data directory so that a pause
 * asked for by an operator survives a restart (it is a member's local setting, not replicated).
 */
final class PauseFlag {
  static final String FILE_NAME = "processing-paused";

  private final Path file;

  PauseFlag(Path partitionDirectory) {
    this.file = partitionDirectory == null ? null : partitionDirectory.resolve(FILE_NAME);
  }

  boolean isSet() {
    return file != null && Files.exists(file);
  }

  void set(boolean paused) {
    if (file == null) {
      return;
    }
    try {
      if (paused) {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "paused by an operator; resume through the admin API\n");
      } else {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot record the pause flag in " + file, e);
    }
  }
}
