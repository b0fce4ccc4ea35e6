package io.tern.raft.transport;

import io.netty.buffer.ByteBuf;
import io.tern.raft.Membership;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftLog;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.SnapshotResponse;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import io.tern.raft.transport.RaftProtocolException.Kind;
import io.tern.raft.transport.sbe.AppendRequestEncoder;
import io.tern.raft.transport.sbe.AppendRequestEncoder.EntriesEncoder;
import io.tern.raft.transport.sbe.AppendResponseEncoder;
import io.tern.raft.transport.sbe.BooleanType;
import io.tern.raft.transport.sbe.EntryType;
import io.tern.raft.transport.sbe.HandshakeEncoder;
import io.tern.raft.transport.sbe.MessageHeaderEncoder;
import io.tern.raft.transport.sbe.SnapshotChunkEncoder;
import io.tern.raft.transport.sbe.SnapshotResponseEncoder;
import io.tern.raft.transport.sbe.TimeoutNowEncoder;
import io.tern.raft.transport.sbe.VoteRequestEncoder;
import io.tern.raft.transport.sbe.VoteResponseEncoder;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Encodes a {@link RaftMessage} with its partition id into the SBE layout of {@code
 * sbe/raft-messages.xml}, and decodes it back (see {@link RaftMessageDecoder} for the checks made
 * on every inbound frame). Entry and chunk payloads are written straight from their arrays into the
 * target buffer: no intermediate copy.
 *
 * <p>Versioning follows SBE's rules, spelled out at the top of the schema: compatible changes only
 * add (fields at the end of a block with {@code sinceVersion}, new groups and var data after the
 * existing ones, new message types) and raise {@link #SCHEMA_VERSION}; a breaking change also
 * raises {@link #MIN_COMPATIBLE_VERSION} so that the {@link Handshake} refuses older brokers.
 *
 * <p>Not thread-safe: it holds reusable flyweights. Use one per thread.
 */
public final class RaftMessageCodec {
  public static final int SCHEMA_ID = MessageHeaderEncoder.SCHEMA_ID;

  /** The version this build writes. */
  public static final int SCHEMA_VERSION = MessageHeaderEncoder.SCHEMA_VERSION;

  /** The oldest version this build can talk to; raise it with every breaking change. */
  public static final int MIN_COMPATIBLE_VERSION = 1;

  public static final int HEADER_BYTES = MessageHeaderEncoder.ENCODED_LENGTH;

  /** An SBE group's count is a uint16 (65535 is its null value). */
  public static final int MAX_ENTRIES_PER_APPEND = EntriesEncoder.countMaxValue();

  /** A var string's length is a uint16. */
  public static final int MAX_FILE_NAME_BYTES = 65534;

  private static final int ENTRY_BYTES_WITHOUT_DATA =
      EntriesEncoder.sbeBlockLength() + EntriesEncoder.dataHeaderLength();

  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final HandshakeEncoder handshake = new HandshakeEncoder();
  private final AppendRequestEncoder appendRequest = new AppendRequestEncoder();
  private final AppendResponseEncoder appendResponse = new AppendResponseEncoder();
  private final VoteRequestEncoder voteRequest = new VoteRequestEncoder();
  private final VoteResponseEncoder voteResponse = new VoteResponseEncoder();
  private final TimeoutNowEncoder timeoutNow = new TimeoutNowEncoder();
  private final SnapshotChunkEncoder snapshotChunk = new SnapshotChunkEncoder();
  private final SnapshotResponseEncoder snapshotResponse = new SnapshotResponseEncoder();
  private final UnsafeBuffer byteBufView = new UnsafeBuffer(0, 0);
  private final RaftMessageDecoder decoder = new RaftMessageDecoder();

  /**
   * The largest frame (length prefix included) an append request needs when the log hands out
   * batches of at most {@code maxBatchBytes} (see {@link RaftLog#entries}; it counts at least each
   * entry's payload) and no single entry is larger than {@code maxEntryBytes}: a batch is either
   * one entry of any size or entries within the batch limit, at most {@link
   * RaftLog#MAX_BATCH_ENTRIES} of them, each with its per-entry header.
   */
  public static long appendFrameBytesAtMost(int maxBatchBytes, int maxEntryBytes) {
    long fixed =
        NettyRaftTransport.LENGTH_PREFIX_BYTES
            + HEADER_BYTES
            + AppendRequestEncoder.BLOCK_LENGTH
            + EntriesEncoder.HEADER_SIZE;
    long oneEntry = ENTRY_BYTES_WITHOUT_DATA + (long) maxEntryBytes;
    long batch = (long) maxBatchBytes + (long) RaftLog.MAX_BATCH_ENTRIES * ENTRY_BYTES_WITHOUT_DATA;
    return fixed + Math.max(oneEntry, batch);
  }

  /**
   * The largest frame (length prefix included) of a snapshot chunk of at most {@code chunkBytes}.
   */
  public static long snapshotChunkFrameBytesAtMost(int chunkBytes, int maxFileNameBytes) {
    return (long) NettyRaftTransport.LENGTH_PREFIX_BYTES
        + HEADER_BYTES
        + SnapshotChunkEncoder.BLOCK_LENGTH
        + SnapshotChunkEncoder.fileNameHeaderLength()
        + maxFileNameBytes
        + SnapshotChunkEncoder.dataHeaderLength()
        + chunkBytes
        + SnapshotChunkEncoder.membershipHeaderLength()
        + Membership.MAX_ENCODED_BYTES;
  }

  /**
   * The number of bytes {@link #encode} writes for {@code message} (header included). Throws a
   * {@link RaftProtocolException} of kind {@code TOO_LARGE} for a message that no frame can carry.
   */
  public static int encodedLength(RaftMessage message) {
    if (message instanceof AppendRequest m) {
      int count = m.entries().size();
      if (count > MAX_ENTRIES_PER_APPEND) {
        throw tooLarge(
            "AppendRequest with "
                + count
                + " entries exceeds the "
                + MAX_ENTRIES_PER_APPEND
                + " one message can carry");
      }
      long length = HEADER_BYTES + AppendRequestEncoder.BLOCK_LENGTH + EntriesEncoder.HEADER_SIZE;
      for (RaftEntry entry : m.entries()) {
        length += ENTRY_BYTES_WITHOUT_DATA + entry.dataLength();
      }
      return checkedLength(length);
    } else if (message instanceof AppendResponse) {
      return HEADER_BYTES + AppendResponseEncoder.BLOCK_LENGTH;
    } else if (message instanceof VoteRequest) {
      return HEADER_BYTES + VoteRequestEncoder.BLOCK_LENGTH;
    } else if (message instanceof VoteResponse) {
      return HEADER_BYTES + VoteResponseEncoder.BLOCK_LENGTH;
    } else if (message instanceof TimeoutNow) {
      return HEADER_BYTES + TimeoutNowEncoder.BLOCK_LENGTH;
    } else if (message instanceof SnapshotChunk m) {
      int nameBytes = fileNameBytes(m).length;
      long length =
          (long) HEADER_BYTES
              + SnapshotChunkEncoder.BLOCK_LENGTH
              + SnapshotChunkEncoder.fileNameHeaderLength()
              + nameBytes
              + SnapshotChunkEncoder.dataHeaderLength()
              + m.data().length
              + SnapshotChunkEncoder.membershipHeaderLength()
              + membershipBytes(m).length;
      return checkedLength(length);
    } else if (message instanceof SnapshotResponse) {
      return HEADER_BYTES + SnapshotResponseEncoder.BLOCK_LENGTH;
    }
    throw new IllegalArgumentException("raft transport: unsupported message " + message);
  }

  /**
   * Writes header and message at {@code offset}; returns the number of bytes written. {@code
   * buffer} must have room for {@link #encodedLength} bytes or be expandable.
   */
  public int encode(int partitionId, RaftMessage message, MutableDirectBuffer buffer, int offset) {
    int length = encodedLength(message);
    if (!buffer.isExpandable() && buffer.capacity() - offset < length) {
      throw new IllegalArgumentException(
          "raft transport: "
              + message.getClass().getSimpleName()
              + " needs "
              + length
              + " bytes but the buffer has "
              + (buffer.capacity() - offset)
              + " left");
    }
    if (message instanceof AppendRequest m) {
      encodeAppendRequest(partitionId, m, buffer, offset);
    } else if (message instanceof AppendResponse m) {
      appendResponse
          .wrapAndApplyHeader(buffer, offset, header)
          .partitionId(partitionId)
          .from(m.from())
          .to(m.to())
          .term(m.term())
          .index(m.index())
          .hint(m.hint())
          .success(bool(m.success()));
    } else if (message instanceof VoteRequest m) {
      voteRequest
          .wrapAndApplyHeader(buffer, offset, header)
          .partitionId(partitionId)
          .from(m.from())
          .to(m.to())
          .term(m.term())
          .lastIndex(m.lastIndex())
          .lastTerm(m.lastTerm())
          .preVote(bool(m.preVote()))
          .transfer(bool(m.transfer()));
    } else if (message instanceof VoteResponse m) {
      voteResponse
          .wrapAndApplyHeader(buffer, offset, header)
          .partitionId(partitionId)
          .from(m.from())
          .to(m.to())
          .term(m.term())
          .granted(bool(m.granted()))
          .preVote(bool(m.preVote()));
    } else if (message instanceof TimeoutNow m) {
      timeoutNow
          .wrapAndApplyHeader(buffer, offset, header)
          .partitionId(partitionId)
          .from(m.from())
          .to(m.to())
          .term(m.term());
    } else if (message instanceof SnapshotChunk m) {
      byte[] name = fileNameBytes(m);
      snapshotChunk
          .wrapAndApplyHeader(buffer, offset, header)
          .partitionId(partitionId)
          .from(m.from())
          .to(m.to())
          .term(m.term())
          .snapshotIndex(m.snapshotIndex())
          .snapshotTerm(m.snapshotTerm())
          .snapshotChecksum(m.snapshotChecksum())
          .fileOffset(m.fileOffset())
          .chunkIndex(m.chunkIndex())
          .chunkCount(m.chunkCount())
          .crc32c(m.crc32c())
          .putFileName(name, 0, name.length)
          .putData(m.data(), 0, m.data().length)
          .putMembership(membershipBytes(m), 0, membershipBytes(m).length);
    } else if (message instanceof SnapshotResponse m) {
      snapshotResponse
          .wrapAndApplyHeader(buffer, offset, header)
          .partitionId(partitionId)
          .from(m.from())
          .to(m.to())
          .term(m.term())
          .snapshotIndex(m.snapshotIndex())
          .nextChunkIndex(m.nextChunkIndex())
          .installed(bool(m.installed()));
    }
    return length;
  }

  /**
   * Writes header and message at {@code out}'s writer index (growing it if needed) and advances the
   * writer index.
   */
  public int encode(int partitionId, RaftMessage message, ByteBuf out) {
    int length = encodedLength(message);
    out.ensureWritable(length);
    int index = out.writerIndex();
    ByteBufViews.wrap(byteBufView, out, index, length);
    encode(partitionId, message, byteBufView, 0);
    out.writerIndex(index + length);
    return length;
  }

  public static int handshakeLength() {
    return HEADER_BYTES + HandshakeEncoder.BLOCK_LENGTH;
  }

  public int encodeHandshake(Handshake hello, MutableDirectBuffer buffer, int offset) {
    handshake
        .wrapAndApplyHeader(buffer, offset, header)
        .memberId(hello.memberId())
        .targetMemberId(hello.targetMemberId())
        .protocolVersion(hello.protocolVersion())
        .minCompatibleVersion(hello.minCompatibleVersion());
    return handshakeLength();
  }

  public int encodeHandshake(Handshake hello, ByteBuf out) {
    int length = handshakeLength();
    out.ensureWritable(length);
    int index = out.writerIndex();
    ByteBufViews.wrap(byteBufView, out, index, length);
    encodeHandshake(hello, byteBufView, 0);
    out.writerIndex(index + length);
    return length;
  }

  /** Decodes one message; see {@link RaftMessageDecoder#decode}. */
  public Envelope decode(DirectBuffer buffer, int offset, int length, int fromMemberId) {
    return decoder.decode(buffer, offset, length, fromMemberId);
  }

  /** Decodes the readable bytes of {@code frame} (its reader index does not move). */
  public Envelope decode(ByteBuf frame, int fromMemberId) {
    return decoder.decode(frame, fromMemberId);
  }

  public Handshake decodeHandshake(DirectBuffer buffer, int offset, int length, String source) {
    return decoder.decodeHandshake(buffer, offset, length, source);
  }

  public Handshake decodeHandshake(ByteBuf frame, String source) {
    return decoder.decodeHandshake(frame, source);
  }

  private void encodeAppendRequest(
      int partitionId, AppendRequest m, MutableDirectBuffer buffer, int offset) {
    appendRequest
        .wrapAndApplyHeader(buffer, offset, header)
        .partitionId(partitionId)
        .from(m.from())
        .to(m.to())
        .term(m.term())
        .prevIndex(m.prevIndex())
        .prevTerm(m.prevTerm())
        .commitIndex(m.commitIndex());
    EntriesEncoder entries = appendRequest.entriesCount(m.entries().size());
    for (RaftEntry entry : m.entries()) {
      entries
          .next()
          .index(entry.index())
          .term(entry.term())
          .asqn(entry.asqn())
          .entryType(
              switch (entry.type()) {
                case APPLICATION -> EntryType.APPLICATION;
                case NOOP -> EntryType.NOOP;
                case CONFIG -> EntryType.CONFIG;
              });
      if (entry.isView()) {
        entries.putData(entry.viewedBuffer(), entry.viewedOffset(), entry.dataLength());
      } else {
        byte[] data = entry.data();
        entries.putData(data, 0, data.length);
      }
    }
  }

  private static final byte[] NO_MEMBERSHIP = new byte[0];

  /** The snapshot's configuration, or nothing when it records none. */
  private static byte[] membershipBytes(SnapshotChunk chunk) {
    return chunk.membership() == null ? NO_MEMBERSHIP : chunk.membership().encode();
  }

  private static byte[] fileNameBytes(SnapshotChunk chunk) {
    byte[] name = chunk.fileName().getBytes(StandardCharsets.UTF_8);
    if (name.length > MAX_FILE_NAME_BYTES) {
      throw tooLarge(
          "SnapshotChunk file name of "
              + name.length
              + " bytes exceeds "
              + MAX_FILE_NAME_BYTES
              + " bytes");
    }
    return name;
  }

  private static int checkedLength(long length) {
    if (length > Integer.MAX_VALUE) {
      throw tooLarge("message of " + length + " bytes exceeds 2 GiB");
    }
    return (int) length;
  }

  private static RaftProtocolException tooLarge(String what) {
    return new RaftProtocolException(Kind.TOO_LARGE, "raft transport: " + what);
  }

  private static BooleanType bool(boolean value) {
    return value ? BooleanType.TRUE : BooleanType.FALSE;
  }
}
