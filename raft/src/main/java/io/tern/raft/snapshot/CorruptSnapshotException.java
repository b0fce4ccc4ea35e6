package io.tern.raft.snapshot;

/** A file of a stored snapshot no longer matches the CRC its manifest recorded. */
final class CorruptSnapshotException extends RuntimeException {
  CorruptSnapshotException(String message) {
    super(message);
  }
}
