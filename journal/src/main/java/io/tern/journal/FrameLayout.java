package io.tern.journal;

/**
 * Layout of one entry frame inside a segment. Frames start at 8-byte aligned offsets.
 *
 * <pre>
 *   0                   4                   8                  12                  16
 *   +-------------------+-------------------+-------------------+-------------------+
 *   | marker (int)      | crc32c (int)      | data length (int) | reserved, 0 (int) |
 *   +-------------------+-------------------+-------------------+-------------------+
 *   | index (long)                          | asqn (long)                           |
 *   +---------------------------------------+---------------------------------------+
 *   | data ... padded with zeros to a multiple of 8                                 |
 *   +-------------------------------------------------------------------------------+
 * </pre>
 *
 * The CRC32C covers bytes [8, 32 + length): length, reserved, index, asqn and data. A frame whose
 * marker is absent (0) after a crash was never written; one with a marker but a wrong CRC was torn
 * (a flush writes pages back in no set order, whichever way the frame was written). Readers go only
 * up to the journal's published last index, so they never see a frame being written. Bytes after
 * the last frame of a segment are always zero.
 */
final class FrameLayout {
  static final int MARKER_OFFSET = 0;
  static final int CHECKSUM_OFFSET = 4;
  static final int LENGTH_OFFSET = 8;
  static final int RESERVED_OFFSET = 12;
  static final int INDEX_OFFSET = 16;
  static final int ASQN_OFFSET = 24;
  static final int HEADER_LENGTH = 32;
  static final int DATA_OFFSET = HEADER_LENGTH;

  /** Start of the checksummed range. */
  static final int CHECKSUM_START = LENGTH_OFFSET;

  static final int ALIGNMENT = 8;

  /** "TRN" plus frame format version 1. Any other non-zero value is not a frame. */
  static final int MARKER_V1 = 0x54524E01;

  private FrameLayout() {}

  static int frameLength(int dataLength) {
    return align(HEADER_LENGTH + dataLength);
  }

  static int align(int length) {
    return (length + ALIGNMENT - 1) & ~(ALIGNMENT - 1);
  }

  /** Length of the checksummed range of a frame with this much data. */
  static int checksumLength(int dataLength) {
    return HEADER_LENGTH - CHECKSUM_START + dataLength;
  }
}
