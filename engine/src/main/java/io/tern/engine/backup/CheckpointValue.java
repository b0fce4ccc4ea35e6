package io.tern.engine.backup;

import io.tern.engine.record.RecordValue;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The value of a {@code CHECKPOINT} record: the backup id and, in the CREATED event, the position
 * of the CREATE command it accepted (-1 in the command). Two little-endian longs.
 */
public record CheckpointValue(long backupId, long position) implements RecordValue {
  static final int LENGTH = 2 * Long.BYTES;

  @Override
  public int length() {
    return LENGTH;
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    buffer.putLong(offset, backupId, ByteOrder.LITTLE_ENDIAN);
    buffer.putLong(offset + Long.BYTES, position, ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Reads a value written by {@link #write}.
   *
   * @throws IllegalArgumentException if the bytes are not one
   */
  public static CheckpointValue read(DirectBuffer buffer, int offset, int length) {
    if (length != LENGTH) {
      throw new IllegalArgumentException(
          "a checkpoint value has " + LENGTH + " bytes, this one " + length);
    }
    return new CheckpointValue(
        buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN),
        buffer.getLong(offset + Long.BYTES, ByteOrder.LITTLE_ENDIAN));
  }
}
