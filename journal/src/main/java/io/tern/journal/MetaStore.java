package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Durably records the journal's last flushed index and whether it was closed cleanly.
 *
 * <p>Two 64-byte slots are written alternately, each with a sequence number and a CRC32C, and each
 * write is forced before it returns. A torn write can only damage the slot being written; open
 * picks the valid slot with the highest sequence.
 *
 * <pre>
 *   0  crc32c (int) over [8, 32)
 *   4  format version (int) = 1
 *   8  sequence (long)
 *  16  last flushed index (long)
 *  24  clean shutdown (int): 1 after close, 0 while open
 *  28  reserved
 * </pre>
 */
final class MetaStore implements AutoCloseable {
  private static final int SLOT_LENGTH = 64;
  private static final int VERSION = 1;
  private static final int CRC_START = 8;
  private static final int CRC_LENGTH = 24;

  private final Path file;
  private final FileChannel channel;
  private final ByteBuffer slot =
      ByteBuffer.allocateDirect(SLOT_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
  private final CRC32C crc = new CRC32C();
  private long sequence;
  private long lastFlushedIndex;
  private boolean cleanShutdown;
  private final boolean existed;

  MetaStore(Path file) {
    this.file = file;
    try {
      this.existed = Files.exists(file);
      this.channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      load();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open journal meta file " + file, e);
    }
  }

  private void load() throws IOException {
    boolean found = false;
    for (int i = 0; i < 2; i++) {
      slot.clear();
      int read = channel.read(slot, (long) i * SLOT_LENGTH);
      if (read < SLOT_LENGTH || !isValid()) {
        continue;
      }
      long slotSequence = slot.getLong(8);
      if (!found || slotSequence > sequence) {
        found = true;
        sequence = slotSequence;
        lastFlushedIndex = slot.getLong(16);
        cleanShutdown = slot.getInt(24) == 1;
      }
    }
    if (!found && existed && channel.size() > 0) {
      throw new JournalException.CorruptedJournal(
          file, 0, "neither slot of the journal meta file is valid");
    }
  }

  private boolean isValid() {
    if (slot.getInt(4) != VERSION) {
      return false;
    }
    return slot.getInt(0) == checksum();
  }

  private int checksum() {
    ByteBuffer range = slot.duplicate();
    range.limit(CRC_START + CRC_LENGTH).position(CRC_START);
    crc.reset();
    crc.update(range);
    return (int) crc.getValue();
  }

  /** True if the meta file held a valid record when opened. */
  boolean hasRecord() {
    return sequence > 0;
  }

  long lastFlushedIndex() {
    return lastFlushedIndex;
  }

  boolean wasCleanShutdown() {
    return cleanShutdown;
  }

  void store(long lastFlushedIndex, boolean cleanShutdown) {
    sequence++;
    slot.clear();
    slot.putInt(4, VERSION);
    slot.putLong(8, sequence);
    slot.putLong(16, lastFlushedIndex);
    slot.putInt(24, cleanShutdown ? 1 : 0);
    slot.putInt(28, 0);
    slot.putInt(0, checksum());
    try {
      slot.clear();
      long position = (sequence & 1) * SLOT_LENGTH;
      while (slot.hasRemaining()) {
        position += channel.write(slot, position);
      }
      channel.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write journal meta file " + file, e);
    }
    this.lastFlushedIndex = lastFlushedIndex;
    this.cleanShutdown = cleanShutdown;
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to close journal meta file " + file, e);
    }
  }
}
