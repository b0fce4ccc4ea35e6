package io.tern.raft.snapshot;

import io.tern.raft.SnapshotMeta;
import io.tern.raft.SnapshotStore.Chunk;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * A complete snapshot on disk and its chunk table: files in name order, each split into pieces of
 * at most {@code chunkBytes}; an empty file is one empty chunk, and a snapshot without files is one
 * empty chunk with file name "". The table is computed once; the files' channels are opened on
 * first read and stay open until {@link #close}, because a leader reads a large snapshot chunk by
 * chunk, often for several followers, and reopening per chunk would cost more than the read.
 *
 * <p>Reading also checks each file against its manifest CRC: the bytes of the chunks read in file
 * order are summed up, and the first read that reaches a file's end compares the sum. A file that
 * rotted on disk since the snapshot was taken would otherwise be sent again and again: the follower
 * rebuilds the content checksum, finds it differs from the leader's, and starts over. A mismatch
 * throws {@link CorruptSnapshotException} and every later read of the snapshot throws it too.
 */
final class StoredSnapshot implements AutoCloseable {
  private static final byte[] NO_BYTES = new byte[0];

  private final Path directory;
  private final Manifest manifest;
  private final SnapshotMeta meta;
  private final long sizeBytes;
  // Chunk i covers bytes [chunkOffset[i], chunkOffset[i] + chunkLength[i]) of file chunkFile[i];
  // chunkFile is -1 for the single chunk of a snapshot without files.
  private final int[] chunkFile;
  private final long[] chunkOffset;
  private final int[] chunkLength;
  private final FileChannel[] channels;
  // Per file: the CRC32C of bytes [0, checkedBytes[i]) read so far in order, and whether the whole
  // file matched its manifest CRC. Reads out of order (a resend, a second follower) skip the sum.
  private final CRC32C[] fileCrcs;
  private final long[] checkedBytes;
  private final boolean[] fileChecked;
  private CorruptSnapshotException corruption;

  StoredSnapshot(Path directory, Manifest manifest, int chunkBytes) {
    this.directory = directory;
    this.manifest = manifest;
    this.sizeBytes = manifest.sizeBytes();
    int count = chunkCount(manifest, chunkBytes);
    this.chunkFile = new int[count];
    this.chunkOffset = new long[count];
    this.chunkLength = new int[count];
    this.channels = new FileChannel[manifest.files().size()];
    this.fileCrcs = new CRC32C[manifest.files().size()];
    this.checkedBytes = new long[manifest.files().size()];
    this.fileChecked = new boolean[manifest.files().size()];
    int chunk = 0;
    if (manifest.files().isEmpty()) {
      chunkFile[0] = -1;
    }
    for (int file = 0; file < manifest.files().size(); file++) {
      long size = manifest.files().get(file).sizeBytes();
      long offset = 0;
      do {
        chunkFile[chunk] = file;
        chunkOffset[chunk] = offset;
        chunkLength[chunk] = (int) Math.min(chunkBytes, size - offset);
        offset += chunkLength[chunk];
        chunk++;
      } while (offset < size);
    }
    this.meta =
        new SnapshotMeta(
            manifest.index(), manifest.term(), manifest.checksum(), count, manifest.membership());
  }

  private static int chunkCount(Manifest manifest, int chunkBytes) {
    long count = 0;
    for (Manifest.FileEntry file : manifest.files()) {
      count += Math.max(1, (file.sizeBytes() + chunkBytes - 1) / chunkBytes);
    }
    count = Math.max(1, count);
    if (count > Integer.MAX_VALUE) {
      throw new IllegalStateException(
          "Snapshot "
              + manifest.index()
              + " needs "
              + count
              + " chunks of "
              + chunkBytes
              + " bytes, more than a chunk index can count: use larger chunks");
    }
    return (int) count;
  }

  SnapshotMeta meta() {
    return meta;
  }

  Path directory() {
    return directory;
  }

  Manifest manifest() {
    return manifest;
  }

  long sizeBytes() {
    return sizeBytes;
  }

  /**
   * Reads chunk {@code chunkIndex}.
   *
   * @throws CorruptSnapshotException if a file of this snapshot did not match its manifest CRC
   * @throws UncheckedIOException if a file cannot be read
   */
  Chunk readChunk(int chunkIndex) {
    if (chunkIndex < 0 || chunkIndex >= chunkFile.length) {
      throw new IndexOutOfBoundsException(
          "Chunk " + chunkIndex + " of snapshot " + meta + " with " + chunkFile.length + " chunks");
    }
    if (corruption != null) {
      throw corruption;
    }
    int file = chunkFile[chunkIndex];
    if (file < 0) {
      return new Chunk("", 0, NO_BYTES, 0);
    }
    String name = manifest.files().get(file).name();
    long offset = chunkOffset[chunkIndex];
    byte[] data = new byte[chunkLength[chunkIndex]];
    Path path = directory.resolve(name);
    try {
      FileChannel channel = channel(file, path);
      ByteBuffer buffer = ByteBuffer.wrap(data);
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, offset + buffer.position()) < 0) {
          throw new EOFException("File is shorter than its manifest says");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read snapshot file " + path, e);
    }
    CRC32C crc = new CRC32C();
    crc.update(data);
    checkFile(file, path, offset, data);
    return new Chunk(name, offset, data, (int) crc.getValue());
  }

  private void checkFile(int file, Path path, long offset, byte[] data) {
    if (fileChecked[file] || offset != checkedBytes[file]) {
      return;
    }
    if (fileCrcs[file] == null) {
      fileCrcs[file] = new CRC32C();
    }
    fileCrcs[file].update(data);
    checkedBytes[file] += data.length;
    Manifest.FileEntry entry = manifest.files().get(file);
    if (checkedBytes[file] < entry.sizeBytes()) {
      return;
    }
    int actual = (int) fileCrcs[file].getValue();
    fileCrcs[file] = null;
    if (actual != entry.crc32c()) {
      corruption =
          new CorruptSnapshotException(
              String.format(
                  "Snapshot file %s is corrupt: its CRC32C is %08x, its manifest says %08x",
                  path, actual, entry.crc32c()));
      throw corruption;
    }
    fileChecked[file] = true;
  }

  private FileChannel channel(int file, Path path) throws IOException {
    if (channels[file] == null) {
      channels[file] = FileChannel.open(path, StandardOpenOption.READ);
    }
    return channels[file];
  }

  @Override
  public void close() {
    IOException failure = null;
    for (int i = 0; i < channels.length; i++) {
      if (channels[i] != null) {
        try {
          channels[i].close();
        } catch (IOException e) {
          failure = e;
        }
        channels[i] = null;
      }
    }
    if (failure != null) {
      throw new UncheckedIOException("Failed to close files of snapshot " + directory, failure);
    }
  }
}
