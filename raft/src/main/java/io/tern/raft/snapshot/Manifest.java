package io.tern.raft.snapshot;

import io.tern.raft.Membership;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * What a complete snapshot holds: its id, its content checksum and each file's name, size and
 * CRC32C. Stored as the file {@code MANIFEST} in the snapshot directory.
 *
 * <p>The content checksum ({@link io.tern.raft.SnapshotMeta#checksum()}) is a CRC32C over, for each
 * file in name order ({@link String#compareTo}): its name in UTF-8, its size as a big-endian long,
 * then the CRC32C of its bytes as a big-endian int. The {@code MANIFEST} is binary, big-endian:
 *
 * <pre>
 *   int    magic 0x544E534D ("TNSM")
 *   int    version = 3 (2: no configuration, read as none)
 *   long   index
 *   long   term
 *   long   content checksum (CRC32C as above, 0 to 2^32-1)
 *   int    file count, then per file in name order:
 *            unsigned short  name length in bytes (at most 255)
 *            bytes           name, UTF-8
 *            long            size in bytes
 *            int             CRC32C of the file's bytes
 *   int    configuration length in bytes, 0 for none (version 3)
 *   bytes  the configuration as of index ({@link Membership#encode()}) (version 3)
 *   int    CRC32C of everything above, so a torn or damaged manifest is detected
 * </pre>
 *
 * @param files sorted by name ({@link String#compareTo}), names unique
 * @param membership the group's configuration as of {@code index}, or null if the snapshot records
 *     none (see {@link io.tern.raft.SnapshotMeta#membership()})
 */
record Manifest(
    long index, long term, long checksum, List<FileEntry> files, Membership membership) {
  static final int MAGIC = 0x544E534D; // "TNSM"

  /**
   * 2: the content checksum covers each file's CRC, not its bytes (see {@link #of}). 3: the
   * configuration follows the files. Version 2 manifests are still read (no configuration).
   */
  static final int VERSION = 3;

  private static final int VERSION_WITHOUT_MEMBERSHIP = 2;

  /** Bounds what {@link #read} loads: a manifest lists a few files, never megabytes of them. */
  static final int MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

  private static final int SCAN_BUFFER_BYTES = 1024 * 1024;

  record FileEntry(String name, long sizeBytes, int crc32c) {}

  Manifest {
    files = List.copyOf(files);
  }

  Manifest(long index, long term, long checksum, List<FileEntry> files) {
    this(index, term, checksum, files, null);
  }

  /** This manifest recording {@code configuration} (null: none). */
  Manifest withMembership(Membership configuration) {
    return new Manifest(index, term, checksum, files, configuration);
  }

  long sizeBytes() {
    long total = 0;
    for (FileEntry file : files) {
      total += file.sizeBytes();
    }
    return total;
  }

  /**
   * Reads every file in {@code directory} (flat, no manifest yet), computes the per-file CRCs and
   * the content checksum, and forces each file to disk on the way, so that the manifest written
   * next never describes data that is not durable yet.
   *
   * <p>The content checksum is defined in {@link #of}.
   *
   * @throws IllegalStateException if the directory holds something a snapshot may not (a
   *     subdirectory, a link, a {@code MANIFEST}, a name a receiver would refuse)
   */
  static Manifest build(Path directory, long index, long term) {
    List<Path> paths = listFiles(directory);
    List<FileEntry> entries = new ArrayList<>(paths.size());
    CRC32C file = new CRC32C();
    ByteBuffer buffer = ByteBuffer.allocateDirect(SCAN_BUFFER_BYTES);
    for (Path path : paths) {
      String name = path.getFileName().toString();
      try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
        long size = channel.size();
        file.reset();
        long position = 0;
        while (position < size) {
          buffer.clear().limit((int) Math.min(buffer.capacity(), size - position));
          int read = channel.read(buffer, position);
          if (read < 0) {
            throw new IOException("File shrank to " + position + " bytes while being read");
          }
          position += read;
          buffer.flip();
          file.update(buffer);
        }
        // fsync works on a read-only descriptor and flushes whatever the writer left dirty.
        channel.force(true);
        entries.add(new FileEntry(name, size, (int) file.getValue()));
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read snapshot file " + path, e);
      }
    }
    return of(index, term, entries);
  }

  /**
   * The manifest of files whose CRCs are already known (a receiver computes them as chunks arrive).
   * The content checksum is a CRC32C over, for each file in name order: its name in UTF-8, its size
   * as a big-endian long, then its CRC32C as a big-endian int. Covering the files' CRCs rather than
   * their bytes lets a receiver check a snapshot without reading it back.
   */
  static Manifest of(long index, long term, List<FileEntry> files) {
    CRC32C content = new CRC32C();
    ByteBuffer sizeAndCrc = ByteBuffer.allocate(Long.BYTES + Integer.BYTES);
    for (FileEntry file : files) {
      content.update(file.name().getBytes(StandardCharsets.UTF_8));
      sizeAndCrc.clear();
      sizeAndCrc.putLong(file.sizeBytes()).putInt(file.crc32c());
      content.update(sizeAndCrc.array());
    }
    return new Manifest(index, term, content.getValue(), files);
  }

  /** Regular files in {@code directory}, sorted by name, after checking the directory is flat. */
  private static List<Path> listFiles(Path directory) {
    List<Path> paths = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path path : stream) {
        String name = path.getFileName().toString();
        if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
          throw new IllegalStateException(
              "A snapshot holds only regular files, but " + path + " is not one");
        }
        if (!SnapshotFiles.isSafeFileName(name)) {
          throw new IllegalStateException(
              "Snapshot file name "
                  + path
                  + " is reserved or unsafe (empty, '.', '..', MANIFEST, a separator, NUL, or over "
                  + SnapshotFiles.MAX_FILE_NAME_BYTES
                  + " bytes)");
        }
        paths.add(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list snapshot directory " + directory, e);
    }
    paths.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    return paths;
  }

  /** Writes and forces {@code directory/MANIFEST}; the caller syncs the directory. */
  void write(Path directory) {
    Path path = directory.resolve(SnapshotFiles.MANIFEST);
    ByteBuffer bytes = ByteBuffer.wrap(encode());
    try (FileChannel channel =
        FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (bytes.hasRemaining()) {
        channel.write(bytes, bytes.position());
      }
      channel.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write snapshot manifest " + path, e);
    }
  }

  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeLong(index);
      out.writeLong(term);
      out.writeLong(checksum);
      out.writeInt(files.size());
      for (FileEntry file : files) {
        byte[] name = file.name().getBytes(StandardCharsets.UTF_8);
        out.writeShort(name.length);
        out.write(name);
        out.writeLong(file.sizeBytes());
        out.writeInt(file.crc32c());
      }
      byte[] configuration = membership == null ? new byte[0] : membership.encode();
      out.writeInt(configuration.length);
      out.write(configuration);
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeInt((int) crc.getValue());
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible);
    }
    return bytes.toByteArray();
  }

  /**
   * Reads {@code directory/MANIFEST}.
   *
   * @throws IOException if it cannot be read or is damaged (torn, wrong CRC, malformed)
   */
  static Manifest read(Path directory) throws IOException {
    Path path = directory.resolve(SnapshotFiles.MANIFEST);
    long size = Files.size(path);
    if (size > MAX_MANIFEST_BYTES) {
      throw new IOException("Manifest " + path + " has " + size + " bytes, more than any manifest");
    }
    try {
      return decode(Files.readAllBytes(path));
    } catch (IllegalArgumentException | BufferUnderflowException e) {
      throw new IOException("Manifest " + path + " is damaged: " + e.getMessage(), e);
    }
  }

  /**
   * @throws IllegalArgumentException or {@link BufferUnderflowException} if {@code bytes} is no
   *     valid manifest
   */
  static Manifest decode(byte[] bytes) {
    if (bytes.length < Integer.BYTES) {
      throw new IllegalArgumentException("only " + bytes.length + " bytes");
    }
    int bodyLength = bytes.length - Integer.BYTES;
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bodyLength);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (in.getInt(bodyLength) != (int) crc.getValue()) {
      throw new IllegalArgumentException("CRC mismatch (torn or overwritten)");
    }
    in.limit(bodyLength);
    if (in.getInt() != MAGIC) {
      throw new IllegalArgumentException("unknown magic");
    }
    int version = in.getInt();
    if (version != VERSION && version != VERSION_WITHOUT_MEMBERSHIP) {
      throw new IllegalArgumentException("unknown version " + version);
    }
    long index = in.getLong();
    long term = in.getLong();
    long checksum = in.getLong();
    int count = in.getInt();
    if (count < 0 || count > in.remaining()) {
      throw new IllegalArgumentException("impossible file count " + count);
    }
    List<FileEntry> files = new ArrayList<>(count);
    String previous = null;
    for (int i = 0; i < count; i++) {
      byte[] nameBytes = new byte[Short.toUnsignedInt(in.getShort())];
      in.get(nameBytes);
      String name = decodeName(nameBytes);
      long sizeBytes = in.getLong();
      int fileCrc = in.getInt();
      if (!SnapshotFiles.isSafeFileName(name) || sizeBytes < 0) {
        throw new IllegalArgumentException("bad entry for file '" + name + "'");
      }
      if (previous != null && previous.compareTo(name) >= 0) {
        throw new IllegalArgumentException("file names out of order at '" + name + "'");
      }
      files.add(new FileEntry(name, sizeBytes, fileCrc));
      previous = name;
    }
    Membership membership = null;
    if (version == VERSION) {
      int length = in.getInt();
      if (length < 0 || length > Math.min(in.remaining(), Membership.MAX_ENCODED_BYTES)) {
        throw new IllegalArgumentException("impossible configuration length " + length);
      }
      if (length > 0) {
        byte[] configuration = new byte[length];
        in.get(configuration);
        membership = Membership.decode(configuration);
      }
    }
    if (in.hasRemaining()) {
      throw new IllegalArgumentException(in.remaining() + " unexpected bytes after the files");
    }
    return new Manifest(index, term, checksum, files, membership);
  }

  private static String decodeName(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("file name is not UTF-8");
    }
  }
}
