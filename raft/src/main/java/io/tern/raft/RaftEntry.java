package io.tern.raft;

import java.util.Arrays;
import java.util.Objects;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One log entry. Its data is either a {@code byte[]} the entry owns (proposals, entries read back
 * from the journal, tests and the simulation) or a view of bytes in a buffer it does not own: the
 * entries of an append request received over the network view the request's frame, so that a
 * follower copies each payload once, from the frame into its journal, instead of first into an
 * array of its own (those arrays were the largest share of a follower's garbage). A view is valid
 * only while its message is not released (see {@link RaftMessage#release()}); nothing may keep one
 * beyond that.
 */
public final class RaftEntry {
  /** The asqn of entries that carry no application data. */
  public static final long NO_ASQN = -1;

  private static final byte[] NO_DATA = new byte[0];

  public enum Type {
    /** Data proposed by the application. */
    APPLICATION,
    /** Appended by a new leader so that it can commit entries of earlier terms (Raft 5.4.2). */
    NOOP,
    /**
     * A new configuration of the group ({@link Membership#encode()}), in force on each member from
     * the moment it appends the entry. Carries no application data, like a no-op.
     */
    CONFIG
  }

  private final long index;
  private final long term;
  private final Type type;
  private final long asqn;
  private final byte[] ownedData; // null for a view
  private final DirectBuffer viewedBuffer; // null for owned data
  private final int viewedOffset;
  private final int dataLength;

  /** An entry that owns {@code data} (kept as given, not copied). */
  public RaftEntry(long index, long term, Type type, long asqn, byte[] data) {
    this(index, term, type, asqn, Objects.requireNonNull(data, "data"), null, 0, data.length);
  }

  private RaftEntry(
      long index,
      long term,
      Type type,
      long asqn,
      byte[] ownedData,
      DirectBuffer viewedBuffer,
      int viewedOffset,
      int dataLength) {
    this.index = index;
    this.term = term;
    this.type = Objects.requireNonNull(type, "type");
    this.asqn = asqn;
    this.ownedData = ownedData;
    this.viewedBuffer = viewedBuffer;
    this.viewedOffset = viewedOffset;
    this.dataLength = dataLength;
  }

  /**
   * An entry whose data is bytes {@code [offset, offset + length)} of {@code buffer}, not copied:
   * valid only as long as the buffer's content is.
   */
  public static RaftEntry view(
      long index, long term, Type type, long asqn, DirectBuffer buffer, int offset, int length) {
    if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
      throw new IndexOutOfBoundsException(
          "entry data [" + offset + ", +" + length + ") outside a buffer of " + buffer.capacity());
    }
    return new RaftEntry(index, term, type, asqn, null, buffer, offset, length);
  }

  public static RaftEntry noop(long index, long term) {
    return new RaftEntry(index, term, Type.NOOP, NO_ASQN, NO_DATA);
  }

  /** A configuration entry: in force on each member once appended. */
  public static RaftEntry config(long index, long term, Membership membership) {
    return new RaftEntry(index, term, Type.CONFIG, NO_ASQN, membership.encode());
  }

  /** The configuration this {@link Type#CONFIG} entry carries. */
  public Membership membership() {
    if (type != Type.CONFIG) {
      throw new IllegalStateException("raft: entry " + index + " is not a configuration: " + type);
    }
    return Membership.decode(data());
  }

  public long index() {
    return index;
  }

  public long term() {
    return term;
  }

  public Type type() {
    return type;
  }

  public long asqn() {
    return asqn;
  }

  /** Whether the data is a view of a buffer this entry does not own (see the class comment). */
  public boolean isView() {
    return ownedData == null;
  }

  public int dataLength() {
    return dataLength;
  }

  /**
   * The data as an array: the entry's own (not a copy, do not modify it), or for a view a new copy.
   * Hot paths use {@link #copyDataTo} or {@link #viewedBuffer} instead.
   */
  public byte[] data() {
    if (ownedData != null) {
      return ownedData;
    }
    byte[] copy = new byte[dataLength];
    viewedBuffer.getBytes(viewedOffset, copy);
    return copy;
  }

  /** Copies the data to {@code destination} at {@code offset}. */
  public void copyDataTo(MutableDirectBuffer destination, int offset) {
    if (ownedData != null) {
      destination.putBytes(offset, ownedData);
    } else {
      destination.putBytes(offset, viewedBuffer, viewedOffset, dataLength);
    }
  }

  /** For a view: the buffer holding the data, at {@link #viewedOffset}; otherwise null. */
  public DirectBuffer viewedBuffer() {
    return viewedBuffer;
  }

  public int viewedOffset() {
    return viewedOffset;
  }

  /** The same entry at another index, sharing its data. */
  public RaftEntry withIndex(long newIndex) {
    return new RaftEntry(
        newIndex, term, type, asqn, ownedData, viewedBuffer, viewedOffset, dataLength);
  }

  /** The same entry with another asqn, sharing its data. */
  public RaftEntry withAsqn(long newAsqn) {
    return new RaftEntry(
        index, term, type, newAsqn, ownedData, viewedBuffer, viewedOffset, dataLength);
  }

  /** This entry with data of its own: itself unless it is a view. */
  public RaftEntry owned() {
    return ownedData != null ? this : new RaftEntry(index, term, type, asqn, data());
  }

  public int sizeBytes() {
    return dataLength + 32;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RaftEntry e
        && e.index == index
        && e.term == term
        && e.type == type
        && e.asqn == asqn
        && e.dataLength == dataLength
        && sameData(e);
  }

  private boolean sameData(RaftEntry e) {
    if (ownedData != null && e.ownedData != null) {
      return Arrays.equals(ownedData, e.ownedData);
    }
    for (int i = 0; i < dataLength; i++) {
      if (byteAt(i) != e.byteAt(i)) {
        return false;
      }
    }
    return true;
  }

  private byte byteAt(int i) {
    return ownedData != null ? ownedData[i] : viewedBuffer.getByte(viewedOffset + i);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(index) * 31 + Long.hashCode(term);
  }

  @Override
  public String toString() {
    return "Entry{"
        + index
        + "@"
        + term
        + (type == Type.NOOP ? " noop" : type == Type.CONFIG ? " config" : "")
        + "}";
  }
}
