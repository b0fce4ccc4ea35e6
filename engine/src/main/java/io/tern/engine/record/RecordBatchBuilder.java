package io.tern.engine.record;

import io.tern.engine.protocol.Intent;
import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.RecordBatchEncoder;
import io.tern.engine.record.sbe.RecordEncoder;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.IntArrayList;

/**
 * Builds one batch of records (one log entry) in a reused buffer, within a byte limit. Positions
 * are unknown until the log writer assigns them ({@link #assignPositions}); until then a record's
 * position reads -1. Not thread-safe.
 */
public final class RecordBatchBuilder {
  public static final long NO_POSITION = -1;
  public static final long NO_REQUEST = -1;

  private static final int RECORD_FIXED_BYTES =
      MessageHeaderEncoder.ENCODED_LENGTH + RecordEncoder.BLOCK_LENGTH + 2 + 4;

  private final int partitionId;
  private final int maxBatchBytes;
  private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4096);
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final RecordBatchEncoder batchEncoder = new RecordBatchEncoder();
  private final RecordEncoder encoder = new RecordEncoder();
  private final IntArrayList recordOffsets = new IntArrayList();
  private int length = RecordBatch.HEADER_LENGTH;
  private long timestampMs;

  /**
   * @param maxBatchBytes the most bytes a batch may take (the log's limit for one entry)
   */
  public RecordBatchBuilder(int partitionId, int maxBatchBytes) {
    if (maxBatchBytes < RecordBatch.HEADER_LENGTH + RECORD_FIXED_BYTES) {
      throw new IllegalArgumentException("maxBatchBytes is too small for one record");
    }
    this.partitionId = partitionId;
    this.maxBatchBytes = maxBatchBytes;
  }

  /** Empties the batch; records appended next carry {@code timestampMs}. */
  public RecordBatchBuilder reset(long timestampMs) {
    this.timestampMs = timestampMs;
    recordOffsets.clear();
    length = RecordBatch.HEADER_LENGTH;
    return this;
  }

  /** Forgets every record from {@code count} on (to undo part of a batch). */
  public void truncate(int count) {
    if (count < recordOffsets.size()) {
      length = recordOffsets.getInt(count);
      while (recordOffsets.size() > count) {
        recordOffsets.removeAt(recordOffsets.size() - 1);
      }
    }
  }

  /**
   * Appends a record of {@code intent} (and its value type).
   *
   * @return its index in the batch, or -1 if it would take the batch beyond its byte limit (the
   *     batch is then unchanged)
   */
  public int append(
      RecordType recordType,
      Intent intent,
      long key,
      long sourceRecordPosition,
      int requestStreamId,
      long requestId,
      RejectionType rejectionType,
      String rejectionReason,
      boolean processed,
      RecordValue value) {
    return appendWithCodes(
        recordType,
        intent.valueType().code(),
        intent.code(),
        key,
        sourceRecordPosition,
        requestStreamId,
        requestId,
        rejectionType,
        rejectionReason,
        processed,
        value);
  }

  /**
   * Appends a record with these codes, known here or not: for the rejection of a command read from
   * the log, which repeats the command's codes; everything else appends an {@link Intent}.
   *
   * @return as {@link #append}
   */
  public int appendWithCodes(
      RecordType recordType,
      int valueType,
      int intent,
      long key,
      long sourceRecordPosition,
      int requestStreamId,
      long requestId,
      RejectionType rejectionType,
      String rejectionReason,
      boolean processed,
      RecordValue value) {
    byte[] reason =
        rejectionReason == null ? null : rejectionReason.getBytes(StandardCharsets.UTF_8);
    int reasonLength = reason == null ? 0 : Math.min(reason.length, 0xFFFF);
    long recordBytes = (long) RECORD_FIXED_BYTES + reasonLength + value.length();
    if (length + recordBytes > maxBatchBytes) {
      return -1;
    }
    int offset = length;
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .position(NO_POSITION)
        .sourceRecordPosition(sourceRecordPosition)
        .key(key)
        .timestamp(timestampMs)
        .requestId(requestId)
        .requestStreamId(requestStreamId)
        .partitionId(partitionId)
        .valueType(valueType)
        .intent(intent)
        .recordType(recordType)
        .rejectionType(rejectionType)
        .processed(processed ? BooleanType.TRUE : BooleanType.FALSE);
    encoder.putRejectionReason(reason == null ? new byte[0] : reason, 0, reasonLength);
    int valueLengthAt = encoder.limit();
    buffer.checkLimit(valueLengthAt + 4 + value.length());
    buffer.putInt(valueLengthAt, value.length(), java.nio.ByteOrder.LITTLE_ENDIAN);
    value.write(buffer, valueLengthAt + 4);
    length = valueLengthAt + 4 + value.length();
    recordOffsets.addInt(offset);
    return recordOffsets.size() - 1;
  }

  /** Marks record {@code index} as processed in this batch (batch processing). */
  public void markProcessed(int index) {
    encoder.wrap(buffer, recordOffsets.getInt(index) + MessageHeaderEncoder.ENCODED_LENGTH);
    encoder.processed(BooleanType.TRUE);
  }

  /** Writes the batch header and numbers the records from {@code firstPosition}. */
  public void assignPositions(long firstPosition) {
    batchEncoder
        .wrapAndApplyHeader(buffer, 0, header)
        .firstPosition(firstPosition)
        .recordCount(recordOffsets.size());
    for (int i = 0; i < recordOffsets.size(); i++) {
      encoder.wrap(buffer, recordOffsets.getInt(i) + MessageHeaderEncoder.ENCODED_LENGTH);
      encoder.position(firstPosition + i);
    }
  }

  /** Wraps {@code into} around record {@code index} (position -1 until assigned). */
  public LoggedRecord record(int index, LoggedRecord into) {
    int offset = recordOffsets.getInt(index);
    int end = index + 1 < recordOffsets.size() ? recordOffsets.getInt(index + 1) : length;
    return into.wrap(buffer, offset, end);
  }

  public int recordCount() {
    return recordOffsets.size();
  }

  public boolean isEmpty() {
    return recordOffsets.isEmpty();
  }

  /** Bytes of the batch, header included. */
  public int length() {
    return length;
  }

  public int maxBatchBytes() {
    return maxBatchBytes;
  }

  public DirectBuffer buffer() {
    return buffer;
  }
}
