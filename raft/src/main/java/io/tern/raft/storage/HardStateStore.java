package io.tern.raft.storage;

import io.tern.journal.InterruptSafeChannel;
import io.tern.raft.HardState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * <p>The file is read and written through an {@link InterruptSafeChannel}: an interrupt of the
 * calling thread would otherwise close the channel for good.
 *
 * <p>A newer format must keep this slot size and CRC range: a slot counts as written by a newer
 * version (and load refuses rather than fall back to the older slot's term and vote) only when its
 * CRC checks out here.
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
  private final InterruptSafeChannel channel;
  private final ByteBuffer slot =
      ByteBuffer.allocateDirect(SLOT_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
  private final CRC32C crc = new CRC32C();
  private long sequence;

  public HardStateStore(Path file) {
    this.file = file;
    try {
      this.channel =
          InterruptSafeChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open Raft state file " + file, e);
    }
  }

  /**
   * The newest valid hard state, or {@link HardState#INITIAL} for a new member (an empty file, or
   * one whose only write, the first, was torn).
   *
   * @throws IllegalStateException naming the file if no slot is valid although one was completely
   *     written before (forgetting the term and vote would let this member vote twice in a term),
   *     or if a slot was written by a newer format version
   */
  public HardState load() {
    HardState best = HardState.INITIAL;
    long bestSequence = 0;
    boolean[] written = new boolean[2];
    boolean[] valid = new boolean[2];
    int newerVersion = 0;
    try {
      for (int i = 0; i < 2; i++) {
        slot.clear();
        readFully((long) i * SLOT_LENGTH);
        written[i] = !isAllZero();
        // Newer only if the rest of the slot checks out: a slot damaged all over is just damage.
        if (written[i]
            && slot.position() == SLOT_LENGTH
            && slot.getInt(4) > VERSION
            && slot.getInt(0) == checksum()) {
          newerVersion = Math.max(newerVersion, slot.getInt(4));
        }
        valid[i] = slot.position() == SLOT_LENGTH && isValid();
        long slotSequence = slot.getLong(8);
        if (valid[i] && slotSequence > bestSequence) {
          bestSequence = slotSequence;
          best = new HardState(slot.getLong(16), slot.getInt(24));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read Raft state file " + file, e);
    }
    // Sequence 1 goes to slot 1, sequence 2 to slot 0, and so on. Slot 0 unwritten and slot 1
    // damaged is a first store torn by a crash: it was never acted on. Anything else without a
    // valid slot lost a state the member may have acted on.
    // A slot of a newer format (a downgrade) may hold a newer term or vote than a slot this build
    // can read: never fall back to the older one. (Our own torn writes leave version 0 or 1.)
    if (newerVersion > 0) {
      throw new IllegalStateException(
          "Raft state file "
              + file
              + " was written by a newer version (format "
              + newerVersion
              + "; this build reads "
              + VERSION
              + "), or a slot's version field is damaged; refusing to fall back to an older term"
              + " and vote");
    }
    if (!valid[0] && !valid[1] && written[0]) {
      throw new IllegalStateException(
          "Raft state file "
              + file
              + " holds no valid term and vote (both slots damaged, "
              + sizeForMessage()
              + "); refusing to start from term 0, which could let this member vote twice in a"
              + " term. Restore the file, or remove the member's data and add it back empty");
    }
    sequence = bestSequence;
    return best;
  }

  private void readFully(long position) throws IOException {
    channel.readFully(slot, position);
    for (int i = slot.position(); i < SLOT_LENGTH; i++) {
      slot.put(i, (byte) 0); // a short file: the missing bytes count as never written
    }
  }

  private boolean isAllZero() {
    for (int i = 0; i < SLOT_LENGTH; i += Long.BYTES) {
      if (slot.getLong(i) != 0) {
        return false;
      }
    }
    return true;
  }

  private String sizeForMessage() {
    try {
      return channel.size() + " bytes";
    } catch (IOException e) {
      return "size unknown";
    }
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
      channel.writeFully(slot, (sequence & 1) * SLOT_LENGTH);
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
