package io.tern.benchmark.chaos;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Tears the tail of a stopped broker's journal as a crash in the middle of a write does: after the
 * newest segment's last frame it writes a frame whose marker says "written" but whose checksum and
 * contents are garbage. On restart the journal must cut it (it lies beyond anything flushed) and
 * the replica catch up from its leader. The frame layout read here is the journal's (see {@code
 * FrameLayout} and {@code SegmentDescriptor} in journal/).
 */
final class TornTail {
  private static final Pattern SEGMENT = Pattern.compile(".*-(\\d+)\\.log");
  private static final int DESCRIPTOR_LENGTH = 128;
  private static final int HEADER_LENGTH = 32;
  private static final int LENGTH_OFFSET = 8;
  private static final int ALIGNMENT = 8;
  private static final int MARKER_V1 = 0x54524E01;

  /** Garbage bytes written after the torn frame's marker, at most. */
  private static final int MAX_GARBAGE = 512;

  private TornTail() {}

  /**
   * Tears the newest segment of partition {@code partition}'s Raft journal under {@code
   * dataDirectory}; returns what it did.
   */
  static String tear(Path dataDirectory, int partition, Random random) throws IOException {
    Path journal = dataDirectory.resolve("raft").resolve("partition-" + partition);
    Path newest;
    try (Stream<Path> files = Files.walk(journal)) {
      List<Path> segments =
          files.filter(file -> SEGMENT.matcher(file.getFileName().toString()).matches()).toList();
      newest = segments.stream().max(Comparator.comparingLong(TornTail::segmentId)).orElse(null);
    }
    if (newest == null) {
      return "no segment under " + journal + " to tear";
    }
    try (FileChannel channel =
        FileChannel.open(newest, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = channel.size();
      long end = endOfFrames(channel, size);
      int room = (int) Math.min(size - end, 4 + MAX_GARBAGE);
      if (room < 4 + HEADER_LENGTH) {
        return "no room after the last frame of " + newest;
      }
      ByteBuffer torn = ByteBuffer.allocate(room).order(ByteOrder.LITTLE_ENDIAN);
      byte[] garbage = new byte[room - 4];
      random.nextBytes(garbage);
      torn.putInt(MARKER_V1).put(garbage).flip();
      channel.write(torn, end);
      channel.force(true);
      return "torn frame of " + room + " bytes at offset " + end + " of " + newest;
    }
  }

  /** Where the frames of a segment end: the first offset whose marker is 0. */
  private static long endOfFrames(FileChannel channel, long size) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    long position = DESCRIPTOR_LENGTH;
    while (position + HEADER_LENGTH <= size) {
      header.clear();
      channel.read(header, position);
      int marker = header.getInt(0);
      if (marker == 0) {
        return position;
      }
      int length = header.getInt(LENGTH_OFFSET);
      if (marker != MARKER_V1 || length < 0 || position + HEADER_LENGTH + length > size) {
        return position; // already not a frame: tear here
      }
      position += (HEADER_LENGTH + length + ALIGNMENT - 1) & -ALIGNMENT;
    }
    return position;
  }

  private static long segmentId(Path file) {
    Matcher matcher = SEGMENT.matcher(file.getFileName().toString());
    return matcher.matches() ? Long.parseLong(matcher.group(1)) : -1;
  }
}
