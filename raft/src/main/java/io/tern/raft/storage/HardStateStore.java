package io.tern.raft.storage;

import io.tern.raft.HardState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Durable term and vote of one member. Raft must persist them before acting on them (sending a
 * vote, or anything in a new term), so every {@link #store} is forced before it returns.
 *
 * <p>Two 32-byte slots are written alternately, each with a sequence number and a CRC32C: a torn
 * write damages only the slot being written, and {@link #load} takes the valid one with the highest
 * sequence.
 *
 * <pre>
 *   0  crc32c (int) over [8, 32)
 *   4  format version (int) = 1
 *   8  sequence (long)
 *  16  term (long)
 *  24  voted for (int), 28 reserved
 * </pre>
 */
public final class HardStateStore implements AutoCloseable {
  private static final int SLOT_LENGTH = 32;
  private static final int VERSION = 1;

  private final Path file;
  private final FileChannel channel;
  private final ByteBuffer slot =
      ByteBuffer.allocateDirect(SLOT_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
  private final CRC32C crc = new CRC32C();
  private long sequence;

  public HardStateStore(Path file) {
    this.file = file;
    try {
      this.channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open Raft state file " + file, e);
    }
  }

  /** The newest valid hard state, or {@link HardState#INITIAL} for a new member. */
  public HardState load() {
    HardState best = HardState.INITIAL;
    long bestSequence = 0;
    try {
      for (int i = 0; i < 2; i++) {
        slot.clear();
        if (channel.read(slot, (long) i * SLOT_LENGTH) < SLOT_LENGTH || !isValid()) {
          continue;
        }
        long slotSequence = slot.getLong(8);
        if (slotSequence > bestSequence) {
          bestSequence = slotSequence;
          best = new HardState(slot.getLong(16), slot.getInt(24));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read Raft state file " + file, e);
    }
    sequence = bestSequence;
    return best;
  }

  public void store(HardState state) {
    sequence++;
    slot.clear();
    slot.putInt(4, VERSION);
    slot.putLong(8, sequence);
    slot.putLong(16, state.term());
    slot.putInt(24, state.votedFor());
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
      throw new UncheckedIOException("Failed to write Raft state file " + file, e);
    }
  }

  private boolean isValid() {
    return slot.getInt(4) == VERSION && slot.getInt(0) == checksum();
  }

  private int checksum() {
    ByteBuffer range = slot.duplicate();
    range.limit(SLOT_LENGTH).position(8);
    crc.reset();
    crc.update(range);
    return (int) crc.getValue();
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to close Raft state file " + file, e);
    }
  }
}
