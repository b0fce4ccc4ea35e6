package io.tern.raft.transport;

import io.netty.buffer.ByteBuf;
import io.tern.raft.RaftEntry;
import io.tern.raft.Releasable;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The entries of a received append request, viewing the frame they arrived in: the list holds a
 * reference to the frame until {@link #release()}, so that the follower's Raft thread copies each
 * payload straight from the frame into its journal. Released once; later calls do nothing.
 */
final class FrameEntries extends AbstractList<RaftEntry> implements Releasable, RandomAccess {
  private final RaftEntry[] entries;
  private ByteBuf frame; // owner's thread only; null once released

  /**
   * Will own one reference to {@code frame} (taken by the decoder), given back by {@link
   * #release()}.
   */
  FrameEntries(RaftEntry[] entries, ByteBuf frame) {
    this.entries = entries;
    this.frame = frame;
  }

  @Override
  public RaftEntry get(int index) {
    return entries[index];
  }

  @Override
  public int size() {
    return entries.length;
  }

  @Override
  public void release() {
    ByteBuf held = frame;
    if (held != null) {
      frame = null;
      held.release();
    }
  }
}
