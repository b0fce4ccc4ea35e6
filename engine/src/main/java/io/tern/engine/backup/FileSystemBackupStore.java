package io.tern.engine.backup;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Backups in a directory, e.g. a mounted volume ({@code data.backup.filesystem.basePath}): {@code
 * <basePath>/<backupId>/<partitionId>/manifest.json} and {@code .../files/<name>}. Files and
 * manifests are written under a temporary name, forced and renamed, so a crash never leaves a
 * manifest or file that looks whole but is not.
 */
public final class FileSystemBackupStore implements BackupStore {
  static final String MANIFEST = "manifest.json";
  static final String FILES = "files";
  private static final String PARTIAL = ".partial";

  private final Path basePath;

  public FileSystemBackupStore(Path basePath) {
    if (basePath == null || basePath.toString().isBlank()) {
      throw new IllegalArgumentException(
          "data.backup.filesystem.basePath must name a directory when data.backup.store is"
              + " filesystem");
    }
    this.basePath = basePath.toAbsolutePath().normalize();
  }

  private Path partDirectory(long backupId, int partitionId) {
    return basePath.resolve(Long.toString(backupId)).resolve(Integer.toString(partitionId));
  }

  @Override
  public void saveManifest(BackupManifest manifest) throws IOException {
    Path directory = partDirectory(manifest.backupId(), manifest.partitionId());
    Files.createDirectories(directory);
    Path partial = directory.resolve(MANIFEST + PARTIAL);
    Files.write(partial, manifest.toJson());
    force(partial);
    Files.move(
        partial,
        directory.resolve(MANIFEST),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public Optional<BackupManifest> manifest(long backupId, int partitionId) throws IOException {
    Path file = partDirectory(backupId, partitionId).resolve(MANIFEST);
    try {
      return Optional.of(BackupManifest.fromJson(Files.readAllBytes(file), file.toString()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  @Override
  public List<BackupManifest> manifests(long backupId) throws IOException {
    List<BackupManifest> found = new ArrayList<>();
    for (long partitionId : numbers(basePath.resolve(Long.toString(backupId)))) {
      manifest(backupId, (int) partitionId).ifPresent(found::add);
    }
    return found;
  }

  @Override
  public List<BackupManifest> list() throws IOException {
    List<BackupManifest> found = new ArrayList<>();
    for (long backupId : numbers(basePath)) {
      found.addAll(manifests(backupId));
    }
    return found;
  }

  /** The names under {@code directory} that are numbers, ascending. */
  private static List<Long> numbers(Path directory) throws IOException {
    List<Long> numbers = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return numbers;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.matches("\\d{1,18}") && Files.isDirectory(entry)) {
          numbers.add(Long.parseLong(name));
        }
      }
    }
    numbers.sort(Comparator.naturalOrder());
    return numbers;
  }

  @Override
  public void upload(long backupId, int partitionId, String name, Path file) throws IOException {
    Path target = fileOf(backupId, partitionId, name);
    Files.createDirectories(target.getParent());
    Path partial = target.resolveSibling(target.getFileName() + PARTIAL);
    Files.copy(file, partial, StandardCopyOption.REPLACE_EXISTING);
    force(partial);
    Files.move(
        partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public void download(long backupId, int partitionId, String name, Path target)
      throws IOException {
    Path stored = fileOf(backupId, partitionId, name);
    try {
      Files.copy(stored, target);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(
          stored.toString(), null, "backup " + backupId + " lacks a file its manifest lists");
    }
  }

  @Override
  public void delete(long backupId) throws IOException {
    Path directory = basePath.resolve(Long.toString(backupId));
    if (!Files.exists(directory)) {
      return;
    }
    // The manifests first: a delete cut short leaves no part that claims files it lacks.
    for (long partitionId : numbers(directory)) {
      Files.deleteIfExists(partDirectory(backupId, (int) partitionId).resolve(MANIFEST));
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private Path fileOf(long backupId, int partitionId, String name) {
    Path files = partDirectory(backupId, partitionId).resolve(FILES);
    Path file = files.resolve(name).normalize();
    if (!file.startsWith(files) || file.equals(files)) {
      throw new IllegalArgumentException("a backup file name must stay in its part: " + name);
    }
    return file;
  }

  private static void force(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
  }

  @Override
  public String describe() {
    return "filesystem " + basePath;
  }
}
