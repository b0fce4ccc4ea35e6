package io.tern.engine.record;

import io.tern.engine.record.sbe.MessageHeaderDecoder;
import io.tern.engine.record.sbe.RecordBatchDecoder;
import org.agrona.DirectBuffer;

/**
 * A view of one log entry: a batch header and the records written together, at contiguous positions
 * from {@link #firstPosition()}. Iterate with {@link #hasNext()}/{@link #next()}; the returned
 * record is a reused flyweight.
 */
public final class RecordBatch {
  /** Bytes of the batch header (message header and block) before the first record. */
  public static final int HEADER_LENGTH =
      MessageHeaderDecoder.ENCODED_LENGTH + RecordBatchDecoder.BLOCK_LENGTH;

  private final MessageHeaderDecoder header = new MessageHeaderDecoder();
  private final RecordBatchDecoder decoder = new RecordBatchDecoder();
  private final LoggedRecord record = new LoggedRecord();
  private DirectBuffer buffer;
  private int limit;
  private int nextOffset;
  private int nextRecord;
  private long firstPosition;
  private int recordCount;

  /**
   * Wraps the batch in {@code buffer[offset, offset + length)}.
   *
   * @throws RecordFormatException if it is not a batch of this schema
   */
  public RecordBatch wrap(DirectBuffer buffer, int offset, int length) {
    if (length < HEADER_LENGTH) {
      throw new RecordFormatException(
          "A record batch has a " + HEADER_LENGTH + "-byte header, got " + length + " bytes");
    }
    header.wrap(buffer, offset);
    if (header.schemaId() != RecordBatchDecoder.SCHEMA_ID
        || header.templateId() != RecordBatchDecoder.TEMPLATE_ID) {
      throw new RecordFormatException(
          "Not a record batch: schema " + header.schemaId() + ", template " + header.templateId());
    }
    decoder.wrap(
        buffer,
        offset + MessageHeaderDecoder.ENCODED_LENGTH,
        header.blockLength(),
        header.version());
    this.buffer = buffer;
    this.limit = offset + length;
    this.firstPosition = decoder.firstPosition();
    this.recordCount = decoder.recordCount();
    if (recordCount < 1) {
      throw new RecordFormatException("A record batch holds records, this one " + recordCount);
    }
    this.nextOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH + header.blockLength();
    this.nextRecord = 0;
    return this;
  }

  public long firstPosition() {
    return firstPosition;
  }

  public long lastPosition() {
    return firstPosition + recordCount - 1;
  }

  public int recordCount() {
    return recordCount;
  }

  public boolean hasNext() {
    return nextRecord < recordCount;
  }

  /**
   * @throws RecordFormatException if a record is malformed or the count does not match the bytes
   */
  public LoggedRecord next() {
    if (nextRecord >= recordCount) {
      throw new java.util.NoSuchElementException("The batch has " + recordCount + " records");
    }
    record.wrap(buffer, nextOffset, limit);
    long expected = firstPosition + nextRecord;
    if (record.position() != expected) {
      throw new RecordFormatException(
          "Record "
              + nextRecord
              + " of the batch has position "
              + record.position()
              + ", expected "
              + expected);
    }
    nextOffset += record.length();
    nextRecord++;
    if (nextRecord == recordCount && nextOffset != limit) {
      throw new RecordFormatException(
          (limit - nextOffset) + " bytes follow the last of " + recordCount + " records");
    }
    return record;
  }
}
