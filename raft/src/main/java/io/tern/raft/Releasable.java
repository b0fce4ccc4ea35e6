package io.tern.raft;

/**
 * Something that borrows memory it must give back once, such as the list of entries of a received
 * {@link RaftMessage.AppendRequest} that view the transport's frame. Giving back twice is harmless.
 */
public interface Releasable {
  void release();
}
