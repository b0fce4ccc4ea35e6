package io.tern.journal;

import org.agrona.DirectBuffer;

/**
 * A view of one entry. The data buffer is a zero-copy view into the mapped segment: it is valid
 * until the reader that returned it moves on, and until the entry is removed by {@code
 * deleteAfter}/{@code reset}. Copy it to keep it.
 */
public interface JournalRecord {
  long index();

  long asqn();

  /** CRC32C over the frame's length, index, asqn and data, as stored. */
  int checksum();

  DirectBuffer data();
}
