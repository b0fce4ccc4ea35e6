package io.tern.engine.backup;

import io.tern.engine.backup.BackupManifest.BackupFile;
import io.tern.engine.backup.BackupManifest.State;
import io.tern.engine.log.LogStorage;
import io.tern.journal.JournalConfig;
import io.tern.journal.SegmentedJournal;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition leader's part of a backup, taken without stopping processing. While the checkpoint
 * command is processed (on the processor thread, a few file links), the latest snapshot and the
 * journal's segments are hard-linked into {@code backup-staging-<id>/} beside the partition's data:
 * that snapshot reflects less than the checkpoint (snapshots are taken on this same thread), and
 * neither a newer snapshot nor compaction can take the linked files away. Once the checkpoint is
 * committed, the part is announced at once (its IN_PROGRESS manifest, on a thread of its own) and a
 * background thread stores the files and then the COMPLETED manifest ({@link BackupManifest}).
 *
 * <p>The segment that was being written when linked keeps changing through its link (entries after
 * the checkpoint): it is copied first, and that copy is what is checksummed and stored. Sealed
 * segments and snapshot files never change. Segments are preallocated files whose unwritten end is
 * zeros (a fresh one is 128 MB of them by default): they are stored without those zeros and padded
 * again on restore. A restore cuts the journal after the checkpoint's entry, whose index and term
 * the manifest records.
 */
public final class PartitionBackup implements Checkpoints.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionBackup.class);
  static final String STAGING_PREFIX = "backup-staging-";
  private static final int PIN_ATTEMPTS = 3;

  private final int partitionId;
  private final BackupContext context;
  private final Path partitionDirectory;
  private final Supplier<Path> latestSnapshot;
  private final Supplier<JournalConfig> journal;
  private final Supplier<LogStorage.Reader> readers;
  private final Map<Long, Pinned> pinned = new ConcurrentHashMap<>();

  /** The files of one backup, linked; {@code failure} set if that did not work. */
  private record Pinned(Path staging, String snapshotId, String activeSegment, String failure) {}

  /**
   * @param partitionDirectory where the staging directories go (same file system as the journal and
   *     snapshots, for hard links; else files are copied)
   * @param journal the journal's configuration (its directory, and its name, the prefix of its
   *     segments {@code <name>-<id>.log}); asked when a checkpoint is processed
   */
  public PartitionBackup(
      int partitionId,
      BackupContext context,
      Path partitionDirectory,
      Supplier<Path> latestSnapshot,
      Supplier<JournalConfig> journal,
      Supplier<LogStorage.Reader> readers) {
    this.partitionId = partitionId;
    this.context = context;
    this.partitionDirectory = partitionDirectory;
    this.latestSnapshot = latestSnapshot;
    this.journal = journal;
    this.readers = readers;
    deleteStaleStaging();
  }

  @Override
  public void checkpointProcessing(long backupId, long checkpointPosition) {
    Path staging = partitionDirectory.resolve(STAGING_PREFIX + backupId);
    String failure = null;
    for (int attempt = 1; attempt <= PIN_ATTEMPTS; attempt++) {
      try {
        deleteRecursively(staging);
        Files.createDirectories(staging);
        Path snapshot = latestSnapshot.get();
        String snapshotId = null;
        if (snapshot != null) {
          snapshotId = snapshot.getFileName().toString();
          linkAll(snapshot, staging.resolve("snapshot").resolve(snapshotId), name -> true, null);
        }
        JournalConfig journalConfig = journal.get();
        Pattern segments = segmentPattern(journalConfig.name());
        String active =
            linkAll(
                journalConfig.directory(),
                staging.resolve("journal"),
                name -> segments.matcher(name).matches(),
                segments);
        pinned.put(backupId, new Pinned(staging, snapshotId, active, null));
        return;
      } catch (NoSuchFileException e) {
        // A newer snapshot replaced the latest and compaction took segments: pin again.
        failure = "files went away while linked: " + e.getMessage();
      } catch (IOException | RuntimeException e) {
        // Never the command's failure: processing goes on, the part is stored as FAILED.
        failure = "cannot link the snapshot and segments into " + staging + ": " + e;
        break;
      }
    }
    pinned.put(backupId, new Pinned(staging, null, null, failure));
  }

  @Override
  public void checkpointCommitted(long backupId, long checkpointPosition) {
    Pinned files = pinned.remove(backupId);
    if (files == null) {
      return; // pinned by an earlier leadership of this member: that one's staging is gone
    }
    long index = -1;
    long term = -1;
    try (LogStorage.Reader reader = readers.get()) {
      reader.seekToPosition(checkpointPosition);
      if (reader.hasNext()) {
        LogStorage.Entry entry = reader.next();
        index = entry.index();
        term = entry.term();
      }
    }
    long entryIndex = index;
    long entryTerm = term;
    Instant committedAt = context.clock().instant();
    context.metrics().started();
    try {
      context
          .announcements()
          .execute(
              () ->
                  announce(
                      backupId, checkpointPosition, entryIndex, entryTerm, files, committedAt));
    } catch (RuntimeException e) {
      context.metrics().failed();
      LOG.warn("Partition {}: backup {} not started", partitionId, backupId, e);
      deleteQuietly(files.staging());
    }
  }

  /**
   * Writes the part's IN_PROGRESS manifest (or FAILED, if its files could not be pinned), then
   * queues its upload.
   */
  private void announce(
      long backupId, long position, long index, long term, Pinned files, Instant committedAt) {
    BackupStore store = context.store();
    String now = committedAt.toString();
    BackupManifest manifest =
        new BackupManifest(
            backupId,
            partitionId,
            context.nodeId(),
            State.IN_PROGRESS,
            null,
            now,
            now,
            position,
            index,
            term,
            files.snapshotId(),
            context.brokerVersion(),
            context.partitionsCount(),
            context.clusterSize(),
            context.replicationFactor(),
            List.of());
    try {
      var existing = store.manifest(backupId, partitionId);
      if (existing.isPresent() && existing.get().state() == State.COMPLETED) {
        // This part is stored already: a restored cluster replays its own checkpoint.
        LOG.info("Partition {}: backup {} is stored already", partitionId, backupId);
        context.metrics().skipped();
        deleteQuietly(files.staging());
        return;
      }
      if (files.failure() != null) {
        throw new IOException(files.failure());
      }
      if (index < 0) {
        throw new IOException("the checkpoint at position " + position + " is not in the log");
      }
      store.saveManifest(manifest);
      context.executor().execute(() -> store(manifest, files, committedAt));
    } catch (IOException | RuntimeException e) {
      fail(manifest, files, e);
    }
  }

  private void fail(BackupManifest manifest, Pinned files, Exception e) {
    context.metrics().failed();
    LOG.warn("Partition {}: backup {} failed", partitionId, manifest.backupId(), e);
    try {
      context
          .store()
          .saveManifest(
              manifest.with(
                  State.FAILED,
                  String.valueOf(e.getMessage()),
                  List.of(),
                  context.clock().instant().toString()));
    } catch (IOException | RuntimeException again) {
      LOG.warn(
          "Partition {}: backup {} could not be marked failed",
          partitionId,
          manifest.backupId(),
          again);
    } finally {
      deleteQuietly(files.staging());
    }
  }

  private void store(BackupManifest manifest, Pinned files, Instant committedAt) {
    BackupStore store = context.store();
    long backupId = manifest.backupId();
    try {
      List<BackupFile> stored = new ArrayList<>();
      for (Path file : filesUnder(files.staging())) {
        String name = files.staging().relativize(file).toString().replace('\\', '/');
        Path upload = file;
        long length = Files.size(file);
        if (name.startsWith("journal/")) {
          // Stored without the zeros of its unwritten end; the segment being written when it was
          // linked is copied first, so that what is checksummed is what is stored.
          boolean active = name.equals("journal/" + files.activeSegment());
          // That segment's descriptor, where the journal records how far it has flushed, is read
          // before its length is measured: a copy whose descriptor was read after a later flush
          // would claim entries it does not hold, and the restored journal would be refused as
          // corrupt. Data beyond what the descriptor says is a torn tail to the journal.
          byte[] descriptor =
              active ? readPrefix(file, SegmentedJournal.SEGMENT_DESCRIPTOR_BYTES) : null;
          long written = writtenLength(file);
          if (written < length || active) {
            upload = files.staging().resolve(file.getFileName() + ".frozen");
            copyPrefix(file, upload, written);
            if (descriptor != null) {
              writePrefix(upload, descriptor);
            }
            if (active) {
              length = Math.max(length, Files.size(file));
            }
          }
        }
        stored.add(new BackupFile(name, Files.size(upload), crc32c(upload), length));
        store.upload(backupId, partitionId, name, upload);
        if (upload != file) {
          Files.delete(upload);
        }
      }
      BackupManifest completed =
          manifest.with(State.COMPLETED, null, stored, context.clock().instant().toString());
      store.saveManifest(completed);
      Duration took = Duration.between(committedAt, context.clock().instant());
      context.metrics().completed(completed.sizeBytes(), took);
      LOG.info(
          "Partition {}: backup {} stored in {} ({} files, {} bytes, checkpoint at position {},"
              + " index {})",
          partitionId,
          backupId,
          store.describe(),
          stored.size(),
          completed.sizeBytes(),
          manifest.checkpointPosition(),
          manifest.checkpointIndex());
      deleteQuietly(files.staging());
    } catch (IOException | RuntimeException e) {
      fail(manifest, files, e);
    }
  }

  static Pattern segmentPattern(String journalName) {
    return Pattern.compile(Pattern.quote(journalName) + "-(\\d+)\\.log");
  }

  /**
   * Links (or copies, across file systems) the files of {@code from} that {@code accept} into
   * {@code to}; returns the segment with the highest id among them, or null.
   */
  private static String linkAll(
      Path from, Path to, java.util.function.Predicate<String> accept, Pattern segments)
      throws IOException {
    Files.createDirectories(to);
    String last = null;
    long lastId = -1;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(from)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (!Files.isRegularFile(file) || !accept.test(name)) {
          continue;
        }
        Path link = to.resolve(name);
        try {
          Files.createLink(link, file);
        } catch (UnsupportedOperationException | FileSystemException e) {
          if (e instanceof NoSuchFileException missing) {
            throw missing;
          }
          Files.copy(file, link);
        }
        Matcher segment = segments == null ? null : segments.matcher(name);
        if (segment != null && segment.matches() && Long.parseLong(segment.group(1)) > lastId) {
          lastId = Long.parseLong(segment.group(1));
          last = name;
        }
      }
    }
    return last;
  }

  private static List<Path> filesUnder(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      return paths.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /** A chunk of zeros, compared with whole chunks of a segment's unwritten end. */
  private static final ByteBuffer ZEROS = ByteBuffer.allocate(1 << 20).asReadOnlyBuffer();

  /** The length of {@code file} without its trailing zero bytes, read from the end. */
  static long writtenLength(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buffer = ByteBuffer.allocate(ZEROS.capacity());
      long end = channel.size();
      while (end > 0) {
        int chunk = (int) Math.min(buffer.capacity(), end);
        buffer.clear().limit(chunk);
        long from = end - chunk;
        while (buffer.hasRemaining()) {
          if (channel.read(buffer, from + buffer.position()) < 0) {
            break;
          }
        }
        int read = buffer.position();
        // The active segment's end is mostly zeros (128 MB of them in a fresh one): a chunk of
        // only zeros is told by one vectorized comparison, not byte by byte on the backup thread.
        if (buffer.flip().mismatch(ZEROS.duplicate().limit(read)) < 0) {
          end = from;
          continue;
        }
        for (int i = read - 1; i >= 0; i--) {
          if (buffer.get(i) != 0) {
            return from + i + 1;
          }
        }
        end = from;
      }
      return 0;
    }
  }

  private static byte[] readPrefix(Path file, int length) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(length);
    }
  }

  private static void writePrefix(Path file, byte[] bytes) throws IOException {
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        out.write(buffer, buffer.position());
      }
    }
  }

  /** Copies the first {@code length} bytes of {@code from} to a new file {@code to}. */
  private static void copyPrefix(Path from, Path to, long length) throws IOException {
    try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
        FileChannel out =
            FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long copied = 0;
      while (copied < length) {
        long moved = in.transferTo(copied, length - copied, out);
        if (moved <= 0) {
          break; // the file is shorter than measured: only ever past the checkpoint
        }
        copied += moved;
      }
    }
  }

  static long crc32c(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        crc.update(buffer, 0, read);
      }
    }
    return crc.getValue();
  }

  /** Staging left by a crash or a lost leadership holds links to files that would be freed. */
  private void deleteStaleStaging() {
    if (!Files.isDirectory(partitionDirectory)) {
      return;
    }
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(partitionDirectory, STAGING_PREFIX + "*")) {
      for (Path entry : entries) {
        deleteQuietly(entry);
      }
    } catch (IOException e) {
      LOG.warn("Partition {}: cannot list {}", partitionId, partitionDirectory, e);
    }
  }

  private void deleteQuietly(Path directory) {
    try {
      deleteRecursively(directory);
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("Partition {}: cannot delete {}", partitionId, directory, e);
    }
  }

  static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
