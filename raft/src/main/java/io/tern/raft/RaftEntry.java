package io.tern.raft;

import java.util.Arrays;

/**
 * One log entry. {@code data} is owned by the entry (tests and the simulation copy freely; the
 * journal-backed log avoids the copy on the hot path by reading frames in place).
 */
public record RaftEntry(long index, long term, Type type, long asqn, byte[] data) {
  /** The asqn of entries that carry no application data. */
  public static final long NO_ASQN = -1;

  public enum Type {
    /** Data proposed by the application. */
    APPLICATION,
    /** Appended by a new leader so that it can commit entries of earlier terms (Raft 5.4.2). */
    NOOP
  }

  public static RaftEntry noop(long index, long term) {
    return new RaftEntry(index, term, Type.NOOP, NO_ASQN, new byte[0]);
  }

  public RaftEntry withIndex(long newIndex) {
    return new RaftEntry(newIndex, term, type, asqn, data);
  }

  public int sizeBytes() {
    return data.length + 32;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RaftEntry e
        && e.index == index
        && e.term == term
        && e.type == type
        && e.asqn == asqn
        && Arrays.equals(e.data, data);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(index) * 31 + Long.hashCode(term);
  }

  @Override
  public String toString() {
    return "Entry{" + index + "@" + term + (type == Type.NOOP ? " noop" : "") + "}";
  }
}
