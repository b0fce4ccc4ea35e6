package io.tern.engine.exporter;

import io.tern.engine.record.RecordValue;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The value of an {@code EXPORTER} record: an exporter's id, the position it acknowledged and its
 * metadata (opaque bytes, possibly empty). Laid out little-endian as {@code int idLength, id
 * (UTF-8), long position, int metadataLength, metadata}.
 */
public record ExporterPositionValue(String exporterId, long position, byte[] metadata)
    implements RecordValue {
  public ExporterPositionValue {
    metadata = metadata == null ? new byte[0] : metadata;
  }

  private byte[] idBytes() {
    return exporterId.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public int length() {
    return Integer.BYTES + idBytes().length + Long.BYTES + Integer.BYTES + metadata.length;
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    byte[] id = idBytes();
    int at = offset;
    buffer.putInt(at, id.length, ByteOrder.LITTLE_ENDIAN);
    at += Integer.BYTES;
    buffer.putBytes(at, id);
    at += id.length;
    buffer.putLong(at, position, ByteOrder.LITTLE_ENDIAN);
    at += Long.BYTES;
    buffer.putInt(at, metadata.length, ByteOrder.LITTLE_ENDIAN);
    at += Integer.BYTES;
    buffer.putBytes(at, metadata);
  }

  /**
   * Reads a value written by {@link #write}.
   *
   * @throws IllegalArgumentException if the bytes are not one
   */
  public static ExporterPositionValue read(DirectBuffer buffer, int offset, int length) {
    int end = offset + length;
    int at = offset;
    int idLength = checkedLength(buffer, at, end);
    at += Integer.BYTES;
    byte[] id = new byte[idLength];
    buffer.getBytes(at, id);
    at += idLength;
    if (at + Long.BYTES > end) {
      throw new IllegalArgumentException("an exporter position value without its position");
    }
    long position = buffer.getLong(at, ByteOrder.LITTLE_ENDIAN);
    at += Long.BYTES;
    int metadataLength = checkedLength(buffer, at, end);
    at += Integer.BYTES;
    byte[] metadata = new byte[metadataLength];
    buffer.getBytes(at, metadata);
    return new ExporterPositionValue(new String(id, StandardCharsets.UTF_8), position, metadata);
  }

  private static int checkedLength(DirectBuffer buffer, int at, int end) {
    if (at + Integer.BYTES > end) {
      throw new IllegalArgumentException("an exporter position value cut short");
    }
    int length = buffer.getInt(at, ByteOrder.LITTLE_ENDIAN);
    if (length < 0 || at + Integer.BYTES + length > end) {
      throw new IllegalArgumentException("an exporter position value with a bad length " + length);
    }
    return length;
  }
}
