package io.tern.engine.exporter;

import io.tern.engine.log.LogStorage;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What an {@link ExporterDirector} needs of its partition (which implements it: this package does
 * not know the partition's).
 */
public interface DirectorHost {
  /**
   * The term in which this member leads and processes (its processor replayed everything up to its
   * election), or -1 if it does not.
   */
  long readyLeaderTerm();

  /** Index of the last committed log entry. */
  long commitIndex();

  /** A reader over the committed log. */
  LogStorage.Reader newReader();

  /** The positions the partition's state holds, read on its processor thread. */
  CompletableFuture<Map<String, ExporterPositions.Stored>> storedPositions();

  /**
   * Writes an {@code EXPORTER UPDATE_POSITION} command for {@code exporterId}.
   *
   * @throws RuntimeException if the log does not take it now (not the leader, disk full)
   */
  void writePosition(String exporterId, long position, byte[] metadata);
}
