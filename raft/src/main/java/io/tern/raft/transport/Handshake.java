package io.tern.raft.transport;

/**
 * The first frame each side of a connection sends. {@code targetMemberId} lets the receiver notice
 * a peer that reached it by a wrong address; the two versions let either side refuse a peer it
 * cannot talk to (see the compatibility rules in {@code sbe/raft-messages.xml}).
 *
 * @param memberId the sender's member (broker) id
 * @param targetMemberId the member the sender believes it talks to
 * @param protocolVersion the schema version the sender writes
 * @param minCompatibleVersion the oldest peer version the sender can still talk to
 */
public record Handshake(
    int memberId, int targetMemberId, int protocolVersion, int minCompatibleVersion) {

  /** What this build sends. */
  public static Handshake of(int memberId, int targetMemberId) {
    return new Handshake(
        memberId,
        targetMemberId,
        RaftMessageCodec.SCHEMA_VERSION,
        RaftMessageCodec.MIN_COMPATIBLE_VERSION);
  }

  /**
   * Throws unless a broker of this build and the sender of {@code this} can talk: each must speak a
   * version no older than the other's minimum.
   */
  public void requireCompatible(String source) {
    if (protocolVersion < RaftMessageCodec.MIN_COMPATIBLE_VERSION) {
      throw new RaftProtocolException(
          RaftProtocolException.Kind.INCOMPATIBLE_VERSION,
          "raft transport: member "
              + memberId
              + " at "
              + source
              + " speaks protocol version "
              + protocolVersion
              + ", older than the oldest this broker talks to ("
              + RaftMessageCodec.MIN_COMPATIBLE_VERSION
              + "); upgrade it");
    }
    if (minCompatibleVersion > RaftMessageCodec.SCHEMA_VERSION) {
      throw new RaftProtocolException(
          RaftProtocolException.Kind.INCOMPATIBLE_VERSION,
          "raft transport: member "
              + memberId
              + " at "
              + source
              + " speaks protocol version "
              + protocolVersion
              + " and talks to version "
              + minCompatibleVersion
              + " or newer only; this broker speaks version "
              + RaftMessageCodec.SCHEMA_VERSION
              + "; upgrade this broker");
    }
  }
}
