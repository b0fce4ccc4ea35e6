package io.tern.raft.transport;

import io.netty.buffer.ByteBuf;
import io.tern.raft.Membership;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.SnapshotResponse;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import io.tern.raft.transport.RaftProtocolException.Kind;
import io.tern.raft.transport.sbe.AppendRequestDecoder;
import io.tern.raft.transport.sbe.AppendRequestDecoder.EntriesDecoder;
import io.tern.raft.transport.sbe.AppendResponseDecoder;
import io.tern.raft.transport.sbe.HandshakeDecoder;
import io.tern.raft.transport.sbe.MessageHeaderDecoder;
import io.tern.raft.transport.sbe.SnapshotChunkDecoder;
import io.tern.raft.transport.sbe.SnapshotResponseDecoder;
import io.tern.raft.transport.sbe.TimeoutNowDecoder;
import io.tern.raft.transport.sbe.VoteRequestDecoder;
import io.tern.raft.transport.sbe.VoteResponseDecoder;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Decodes frames written by {@link RaftMessageCodec}. Every length and count read from the frame is
 * checked against the frame's size before it is used, so a truncated or corrupt frame fails with a
 * {@link RaftProtocolException} naming the problem, never with an out-of-memory error or a read
 * past the frame (Agrona's own bounds checks can be switched off by a system property).
 *
 * <p>Frames of a newer version are read as SBE allows: fields the newer version appended to a block
 * are skipped through the header's block length, and trailing additions are ignored.
 *
 * <p>One piece despite its length: one decoding branch per message type of the protocol, all
 * sharing the same frame, header and bounds checks.
 */
final class RaftMessageDecoder {
  private static final int HEADER_BYTES = MessageHeaderDecoder.ENCODED_LENGTH;
  private static final int VAR_DATA_HEADER_BYTES = 4;
  private static final int VAR_STRING_HEADER_BYTES = 2;

  private final UnsafeBuffer frame = new UnsafeBuffer(0, 0);

  // The Netty buffer being decoded, whose bytes append request entries may view; null when
  // decoding a caller's DirectBuffer, which may be reused at once, so entries copy their data.
  private ByteBuf viewedFrame;
  private final MessageHeaderDecoder header = new MessageHeaderDecoder();
  private final HandshakeDecoder handshake = new HandshakeDecoder();
  private final AppendRequestDecoder appendRequest = new AppendRequestDecoder();
  private final AppendResponseDecoder appendResponse = new AppendResponseDecoder();
  private final VoteRequestDecoder voteRequest = new VoteRequestDecoder();
  private final VoteResponseDecoder voteResponse = new VoteResponseDecoder();
  private final TimeoutNowDecoder timeoutNow = new TimeoutNowDecoder();
  private final SnapshotChunkDecoder snapshotChunk = new SnapshotChunkDecoder();
  private final SnapshotResponseDecoder snapshotResponse = new SnapshotResponseDecoder();

  // Set per frame, for error messages only: the sender's member id, or a description of a peer
  // whose id is not yet known (handshake).
  private int fromMemberId;
  private String peerDescription;
  private String messageName;
  private int version;

  /**
   * Decodes the message in {@code buf}'s readable bytes. The entries of an append request view
   * {@code buf} instead of copying their data: the message then holds a reference to {@code buf}
   * (taken here, on top of the caller's) until {@link io.tern.raft.RaftMessage#release()}.
   */
  Envelope decode(ByteBuf buf, int fromMemberId) {
    ByteBufViews.wrap(frame, buf, buf.readerIndex(), buf.readableBytes());
    viewedFrame = buf;
    try {
      Envelope envelope = decodeFrame(fromMemberId);
      // Taken once the whole frame has proved valid, so that a frame failing any check keeps none.
      if (envelope.message() instanceof AppendRequest request
          && request.entries() instanceof FrameEntries) {
        buf.retain();
      }
      return envelope;
    } finally {
      viewedFrame = null;
    }
  }

  /**
   * Decodes the message in {@code [offset, offset + length)} of {@code buffer}; {@code
   * fromMemberId} only names the sender in errors.
   */
  Envelope decode(DirectBuffer buffer, int offset, int length, int fromMemberId) {
    frame.wrap(buffer, offset, length);
    return decodeFrame(fromMemberId);
  }

  Handshake decodeHandshake(ByteBuf buf, String source) {
    ByteBufViews.wrap(frame, buf, buf.readerIndex(), buf.readableBytes());
    return decodeHandshakeFrame(source);
  }

  Handshake decodeHandshake(DirectBuffer buffer, int offset, int length, String source) {
    frame.wrap(buffer, offset, length);
    return decodeHandshakeFrame(source);
  }

  private Handshake decodeHandshakeFrame(String source) {
    this.peerDescription = source;
    int templateId = readHeader();
    messageName = "Handshake";
    if (templateId != HandshakeDecoder.TEMPLATE_ID) {
      throw error(
          Kind.MALFORMED,
          "expected a handshake as the first frame from "
              + source()
              + ", got message template "
              + templateId);
    }
    handshake.wrap(frame, HEADER_BYTES, checkBlock(HandshakeDecoder.BLOCK_LENGTH), version);
    return new Handshake(
        handshake.memberId(),
        handshake.targetMemberId(),
        handshake.protocolVersion(),
        handshake.minCompatibleVersion());
  }

  private Envelope decodeFrame(int fromMemberId) {
    this.fromMemberId = fromMemberId;
    this.peerDescription = null;
    int templateId = readHeader();
    Envelope envelope;
    int limit;
    switch (templateId) {
      case AppendRequestDecoder.TEMPLATE_ID -> {
        envelope = decodeAppendRequest();
        limit = appendRequest.limit();
      }
      case AppendResponseDecoder.TEMPLATE_ID -> {
        messageName = "AppendResponse";
        AppendResponseDecoder d = appendResponse;
        d.wrap(frame, HEADER_BYTES, checkBlock(AppendResponseDecoder.BLOCK_LENGTH), version);
        envelope =
            new Envelope(
                d.partitionId(),
                new AppendResponse(
                    d.from(),
                    d.to(),
                    d.term(),
                    bool(d.successRaw(), "success"),
                    d.index(),
                    d.hint()));
        limit = d.limit();
      }
      case VoteRequestDecoder.TEMPLATE_ID -> {
        messageName = "VoteRequest";
        VoteRequestDecoder d = voteRequest;
        d.wrap(frame, HEADER_BYTES, checkBlock(VoteRequestDecoder.BLOCK_LENGTH), version);
        envelope =
            new Envelope(
                d.partitionId(),
                new VoteRequest(
                    d.from(),
                    d.to(),
                    d.term(),
                    d.lastIndex(),
                    d.lastTerm(),
                    bool(d.preVoteRaw(), "preVote"),
                    bool(d.transferRaw(), "transfer")));
        limit = d.limit();
      }
      case VoteResponseDecoder.TEMPLATE_ID -> {
        messageName = "VoteResponse";
        VoteResponseDecoder d = voteResponse;
        d.wrap(frame, HEADER_BYTES, checkBlock(VoteResponseDecoder.BLOCK_LENGTH), version);
        envelope =
            new Envelope(
                d.partitionId(),
                new VoteResponse(
                    d.from(),
                    d.to(),
                    d.term(),
                    bool(d.grantedRaw(), "granted"),
                    bool(d.preVoteRaw(), "preVote")));
        limit = d.limit();
      }
      case TimeoutNowDecoder.TEMPLATE_ID -> {
        messageName = "TimeoutNow";
        TimeoutNowDecoder d = timeoutNow;
        d.wrap(frame, HEADER_BYTES, checkBlock(TimeoutNowDecoder.BLOCK_LENGTH), version);
        envelope = new Envelope(d.partitionId(), new TimeoutNow(d.from(), d.to(), d.term()));
        limit = d.limit();
      }
      case SnapshotChunkDecoder.TEMPLATE_ID -> {
        envelope = decodeSnapshotChunk();
        limit = snapshotChunk.limit();
      }
      case SnapshotResponseDecoder.TEMPLATE_ID -> {
        messageName = "SnapshotResponse";
        SnapshotResponseDecoder d = snapshotResponse;
        d.wrap(frame, HEADER_BYTES, checkBlock(SnapshotResponseDecoder.BLOCK_LENGTH), version);
        envelope =
            new Envelope(
                d.partitionId(),
                new SnapshotResponse(
                    d.from(),
                    d.to(),
                    d.term(),
                    d.snapshotIndex(),
                    d.nextChunkIndex(),
                    bool(d.installedRaw(), "installed")));
        limit = d.limit();
      }
      case HandshakeDecoder.TEMPLATE_ID ->
          throw error(Kind.MALFORMED, "unexpected second handshake from " + source());
      default ->
          throw error(
              // Adding message types is a compatible change: a newer broker may send one.
              version > RaftMessageCodec.SCHEMA_VERSION
                  ? Kind.NEWER_MESSAGE_TYPE
                  : Kind.UNKNOWN_TEMPLATE,
              "unknown message template "
                  + templateId
                  + " (schema "
                  + RaftMessageCodec.SCHEMA_ID
                  + " version "
                  + version
                  + ") from "
                  + source());
    }
    // A newer version may append groups or var data that this build does not know of.
    if (version <= RaftMessageCodec.SCHEMA_VERSION && limit != frame.capacity()) {
      throw error(
          Kind.MALFORMED,
          messageName
              + " from "
              + source()
              + " has "
              + (frame.capacity() - limit)
              + " unexpected bytes after its end");
    }
    String violation = MessageRules.violation(envelope.message());
    if (violation != null) {
      throw error(
          Kind.MALFORMED,
          messageName
              + " from "
              + source()
              + " for partition "
              + envelope.partitionId()
              + " "
              + violation);
    }
    return envelope;
  }

  private Envelope decodeAppendRequest() {
    messageName = "AppendRequest";
    AppendRequestDecoder d = appendRequest;
    d.wrap(frame, HEADER_BYTES, checkBlock(AppendRequestDecoder.BLOCK_LENGTH), version);
    require(d.limit(), EntriesDecoder.HEADER_SIZE, "its entries header");
    EntriesDecoder group = d.entries();
    int count = group.count();
    int entryBlockBytes = group.actingBlockLength();
    if (entryBlockBytes < EntriesDecoder.sbeBlockLength()) {
      throw error(
          Kind.MALFORMED,
          "AppendRequest from "
              + source()
              + " has "
              + entryBlockBytes
              + "-byte entries, shorter than the "
              + EntriesDecoder.sbeBlockLength()
              + " bytes of version "
              + RaftMessageCodec.SCHEMA_VERSION);
    }
    // Checked before allocating: a corrupt count must not size the list.
    long minimumBytes = (long) count * (entryBlockBytes + VAR_DATA_HEADER_BYTES);
    if (minimumBytes > frame.capacity() - d.limit()) {
      throw error(
          Kind.TRUNCATED,
          "truncated AppendRequest from "
              + source()
              + ": "
              + count
              + " entries need at least "
              + minimumBytes
              + " bytes but the frame has "
              + (frame.capacity() - d.limit())
              + " left");
    }
    RaftEntry[] entries = new RaftEntry[count];
    UnsafeBuffer view = null;
    if (viewedFrame != null && count > 0) {
      // A view of its own per message: `frame` is rewrapped for the next one.
      view = new UnsafeBuffer(0, 0);
      ByteBufViews.wrap(view, viewedFrame, viewedFrame.readerIndex(), viewedFrame.readableBytes());
    }
    for (int i = 0; i < count; i++) {
      if (d.limit() + entryBlockBytes > frame.capacity()) {
        throw truncated("entry " + i);
      }
      group.next();
      short typeRaw = group.entryTypeRaw();
      RaftEntry.Type type =
          switch (typeRaw) {
            case 0 -> RaftEntry.Type.APPLICATION;
            case 1 -> RaftEntry.Type.NOOP;
            case 2 -> RaftEntry.Type.CONFIG;
            default ->
                throw error(
                    Kind.MALFORMED,
                    "AppendRequest from " + source() + " has unknown entry type " + typeRaw);
          };
      int dataLength = varDataLength(d.limit(), i);
      if (view != null) {
        int dataOffset = d.limit() + VAR_DATA_HEADER_BYTES;
        group.skipData();
        entries[i] =
            RaftEntry.view(
                group.index(), group.term(), type, group.asqn(), view, dataOffset, dataLength);
      } else {
        byte[] data = new byte[dataLength];
        group.getData(data, 0, dataLength);
        entries[i] = new RaftEntry(group.index(), group.term(), type, group.asqn(), data);
      }
    }
    List<RaftEntry> entryList;
    if (view != null) {
      entryList = new FrameEntries(entries, viewedFrame); // retained by decode(ByteBuf, int)
    } else {
      entryList = Arrays.asList(entries);
    }
    return new Envelope(
        d.partitionId(),
        new AppendRequest(
            d.from(), d.to(), d.term(), d.prevIndex(), d.prevTerm(), entryList, d.commitIndex()));
  }

  private Envelope decodeSnapshotChunk() {
    messageName = "SnapshotChunk";
    SnapshotChunkDecoder d = snapshotChunk;
    d.wrap(frame, HEADER_BYTES, checkBlock(SnapshotChunkDecoder.BLOCK_LENGTH), version);
    require(d.limit(), VAR_STRING_HEADER_BYTES, "its file name length");
    int nameBytes = frame.getShort(d.limit(), ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    require(d.limit() + VAR_STRING_HEADER_BYTES, nameBytes, "its file name");
    byte[] name = new byte[nameBytes];
    d.getFileName(name, 0, nameBytes);
    byte[] data = new byte[varDataLength(d.limit(), -1)];
    d.getData(data, 0, data.length);
    Membership membership = null;
    if (version >= 2) {
      byte[] encoded = new byte[varDataLength(d.limit(), -1)];
      if (encoded.length > Membership.MAX_ENCODED_BYTES) {
        throw error(
            Kind.MALFORMED,
            "SnapshotChunk from "
                + source()
                + " has a configuration of "
                + encoded.length
                + " bytes");
      }
      d.getMembership(encoded, 0, encoded.length);
      if (encoded.length > 0) {
        try {
          membership = Membership.decode(encoded);
        } catch (IllegalArgumentException e) {
          throw error(
              Kind.MALFORMED,
              "SnapshotChunk from "
                  + source()
                  + " has a malformed configuration: "
                  + e.getMessage());
        }
      }
    }
    return new Envelope(
        d.partitionId(),
        new SnapshotChunk(
            d.from(),
            d.to(),
            d.term(),
            d.snapshotIndex(),
            d.snapshotTerm(),
            d.snapshotChecksum(),
            d.chunkIndex(),
            d.chunkCount(),
            new String(name, StandardCharsets.UTF_8),
            d.fileOffset(),
            data,
            d.crc32c(),
            membership));
  }

  /** Checks the message header; returns the template id. */
  private int readHeader() {
    messageName = "message";
    version = 0;
    if (frame.capacity() < HEADER_BYTES) {
      throw error(
          Kind.TRUNCATED,
          "truncated frame from "
              + source()
              + ": "
              + frame.capacity()
              + " bytes, shorter than the "
              + HEADER_BYTES
              + "-byte message header");
    }
    header.wrap(frame, 0);
    int schemaId = header.schemaId();
    version = header.version();
    if (schemaId != RaftMessageCodec.SCHEMA_ID) {
      throw error(
          Kind.UNKNOWN_SCHEMA,
          "unknown schema "
              + schemaId
              + " (version "
              + version
              + ", expected schema "
              + RaftMessageCodec.SCHEMA_ID
              + ") from "
              + source());
    }
    if (version < RaftMessageCodec.MIN_COMPATIBLE_VERSION) {
      throw error(
          Kind.INCOMPATIBLE_VERSION,
          "message version "
              + version
              + " from "
              + source()
              + " is older than the oldest this broker reads ("
              + RaftMessageCodec.MIN_COMPATIBLE_VERSION
              + ")");
    }
    return header.templateId();
  }

  /**
   * Checks the header's block length against the block this build reads, and returns it. While
   * every field is in version 1 a block can never be shorter; once a version adds fields, compare
   * against the block length of the frame's version instead.
   */
  private int checkBlock(int blockBytes) {
    int actingBlockBytes = header.blockLength();
    if (actingBlockBytes < blockBytes) {
      throw error(
          Kind.MALFORMED,
          messageName
              + " from "
              + source()
              + " has a "
              + actingBlockBytes
              + "-byte block, shorter than the "
              + blockBytes
              + " bytes of version "
              + RaftMessageCodec.SCHEMA_VERSION);
    }
    if (HEADER_BYTES + actingBlockBytes > frame.capacity()) {
      throw truncated("its " + actingBlockBytes + "-byte block");
    }
    return actingBlockBytes;
  }

  /**
   * Reads a uint32 var data length at {@code position} and checks the data fits the frame. {@code
   * entryIndex} names the entry in errors (-1: the message's own data).
   */
  private int varDataLength(int position, int entryIndex) {
    if (position + VAR_DATA_HEADER_BYTES > frame.capacity()) {
      throw truncated("the data length of " + dataOwner(entryIndex));
    }
    long length = frame.getInt(position, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
    if (position + VAR_DATA_HEADER_BYTES + length > frame.capacity()) {
      throw truncated("the " + length + " data bytes of " + dataOwner(entryIndex));
    }
    return (int) length;
  }

  private static String dataOwner(int entryIndex) {
    return entryIndex < 0 ? "the message" : "entry " + entryIndex;
  }

  private void require(int position, long bytes, String what) {
    if (position + bytes > frame.capacity()) {
      throw truncated(what);
    }
  }

  private RaftProtocolException truncated(String where) {
    return error(
        Kind.TRUNCATED,
        "truncated "
            + messageName
            + " from "
            + source()
            + ": the frame of "
            + frame.capacity()
            + " bytes ends inside "
            + where);
  }

  private String source() {
    return peerDescription != null ? peerDescription : "member " + fromMemberId;
  }

  private boolean bool(short raw, String field) {
    if (raw == 0 || raw == 1) {
      return raw == 1;
    }
    throw error(
        Kind.MALFORMED,
        messageName + " from " + source() + " has " + raw + " in boolean field " + field);
  }

  private static RaftProtocolException error(Kind kind, String message) {
    return new RaftProtocolException(kind, "raft transport: " + message);
  }
}
