package io.tern.journal;

import java.nio.file.Path;

/**
 * Base of every error the journal reports. All are unchecked: callers (Raft) cannot recover from
 * most of them locally, and the ones they can handle are distinct subtypes.
 */
public class JournalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JournalException(String message) {
    super(message);
  }

  public JournalException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Data that was acknowledged as flushed (or is not at the tail) failed validation. */
  public static final class CorruptedJournal extends JournalException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;
    private final long offset;

    public CorruptedJournal(Path file, long offset, String reason) {
      super("Corrupted journal file " + file + " at offset " + offset + ": " + reason);
      this.file = file;
      this.offset = offset;
    }

    public Path file() {
      return file;
    }

    public long offset() {
      return offset;
    }
  }

  /** An append was larger than {@link JournalConfig#maxEntrySizeBytes()}. */
  public static final class EntryTooLarge extends JournalException {
    private static final long serialVersionUID = 1L;

    public EntryTooLarge(int entrySizeBytes, int maxEntrySizeBytes) {
      super(
          "Entry of "
              + entrySizeBytes
              + " bytes exceeds the journal's maximum entry size of "
              + maxEntrySizeBytes
              + " bytes (journal.maxEntrySizeBytes)");
    }
  }

  /** Not enough free disk space to create the next segment. */
  public static final class OutOfDiskSpace extends JournalException {
    private static final long serialVersionUID = 1L;

    public OutOfDiskSpace(Path directory, long usableBytes, long requiredBytes) {
      super(
          "Not enough free disk space in "
              + directory
              + " to create a journal segment: "
              + usableBytes
              + " bytes usable, "
              + requiredBytes
              + " bytes required (segment size + journal.freeDiskSpaceReserveBytes)");
    }
  }

  /** An application sequence number did not increase, or was negative and not the ignore marker. */
  public static final class InvalidAsqn extends JournalException {
    private static final long serialVersionUID = 1L;

    public InvalidAsqn(long asqn, long lastAsqn) {
      super(
          "Invalid asqn "
              + asqn
              + ": it must be greater than the last asqn "
              + lastAsqn
              + " or equal to Journal.ASQN_IGNORE ("
              + Journal.ASQN_IGNORE
              + ")");
    }
  }

  /** An index argument was outside what the operation accepts. */
  public static final class InvalidIndex extends JournalException {
    private static final long serialVersionUID = 1L;

    public InvalidIndex(String message) {
      super(message);
    }
  }

  /**
   * A reader's position was removed under it by compaction ({@code deleteUntil}), truncation
   * ({@code deleteAfter}) or {@code reset}. The reader stays usable: seek again.
   */
  public static final class PositionDeleted extends JournalException {
    private static final long serialVersionUID = 1L;

    public PositionDeleted(String message) {
      super(message);
    }
  }

  /** The journal or a reader was used after it was closed. */
  public static final class Closed extends JournalException {
    private static final long serialVersionUID = 1L;

    public Closed(String what) {
      super(what + " is closed");
    }
  }
}
