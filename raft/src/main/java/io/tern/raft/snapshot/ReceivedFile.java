package io.tern.raft.snapshot;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One file of a snapshot being received, written strictly in order, with the CRC32C of its bytes
 * computed on the way.
 *
 * <p>Block-aligned pieces are written with direct I/O ({@code O_DIRECT}) where the file system
 * allows it. A received snapshot is written once and read once (by the state machine, on install),
 * so the page cache gains nothing from it, and copying a gigabyte into the page cache and writing
 * it back costs more CPU than the transfer itself. Unaligned pieces (a file's tail, or chunk sizes
 * that are no multiple of the block size) go through the page cache; where direct I/O is refused
 * (tmpfs, some overlay file systems) everything does. {@link #finish()} forces the file either way.
 */
final class ReceivedFile implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReceivedFile.class);

  /** Direct I/O alignment when the file store does not say; a multiple of common block sizes. */
  private static final int DEFAULT_ALIGNMENT = 4096;

  private static final int MAX_ALIGNMENT = 64 * 1024;

  private final Path path;
  private final FileChannel buffered;
  private FileChannel direct;
  private int alignment;
  private final CRC32C crc = new CRC32C();
  private long sizeBytes;

  /** Staging for direct writes, which need an aligned native buffer; reused across files. */
  private final DirectBuffer staging;

  /** An aligned native buffer that grows on demand; one per receiver. */
  static final class DirectBuffer {
    private ByteBuffer buffer;

    ByteBuffer holding(byte[] data, int alignment) {
      if (buffer == null
          || buffer.capacity() < data.length
          || buffer.alignmentOffset(0, alignment) != 0) {
        buffer = ByteBuffer.allocateDirect(data.length + alignment).alignedSlice(alignment);
      }
      buffer.clear();
      buffer.put(data);
      buffer.flip();
      return buffer;
    }
  }

  /**
   * Creates {@code path}, which must not exist.
   *
   * @throws IOException if it cannot be created
   */
  ReceivedFile(Path path, DirectBuffer staging) throws IOException {
    this.path = path;
    this.staging = staging;
    this.buffered = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    int blockAlignment = alignmentOf(path);
    FileChannel directChannel = null;
    if (blockAlignment > 0) {
      try {
        directChannel = FileChannel.open(path, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
      } catch (IOException | UnsupportedOperationException e) {
        LOG.debug("Direct I/O not available for {}, writing through the page cache: {}", path, e);
      }
    }
    this.direct = directChannel;
    this.alignment = directChannel == null ? 0 : blockAlignment;
  }

  private static int alignmentOf(Path path) {
    try {
      long blockSize = Files.getFileStore(path).getBlockSize();
      boolean usable = blockSize > 0 && blockSize <= MAX_ALIGNMENT && Long.bitCount(blockSize) == 1;
      return usable ? (int) Math.max(blockSize, 512) : 0;
    } catch (IOException | UnsupportedOperationException e) {
      return DEFAULT_ALIGNMENT;
    }
  }

  long sizeBytes() {
    return sizeBytes;
  }

  /** Appends {@code data} at the end of the file. */
  void append(byte[] data) throws IOException {
    boolean aligned = direct != null && sizeBytes % alignment == 0 && data.length % alignment == 0;
    if (aligned) {
      try {
        write(direct, staging.holding(data, alignment));
      } catch (IOException e) {
        // A file system that opens with O_DIRECT but wants another alignment: go on buffered.
        LOG.warn("Direct I/O write to {} failed, writing through the page cache: {}", path, e);
        FileChannel failed = direct;
        direct = null;
        alignment = 0;
        failed.close();
        write(buffered, ByteBuffer.wrap(data));
      }
    } else {
      write(buffered, ByteBuffer.wrap(data));
    }
    crc.update(data);
    sizeBytes += data.length;
  }

  private void write(FileChannel channel, ByteBuffer source) throws IOException {
    long position = sizeBytes;
    while (source.hasRemaining()) {
      position += channel.write(source, position);
    }
  }

  /**
   * Forces the file and returns its manifest entry; the size is the file's size on disk, so a file
   * changed in length behind the receiver's back fails the snapshot's content checksum.
   */
  Manifest.FileEntry finish() {
    try {
      buffered.force(true); // fsync covers what both channels wrote
      return new Manifest.FileEntry(
          path.getFileName().toString(), buffered.size(), (int) crc.getValue());
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to force received snapshot file " + path, e);
    }
  }

  @Override
  public void close() throws IOException {
    try (FileChannel a = buffered;
        FileChannel b = direct) {
      // both closed, the first failure thrown
    }
  }
}
