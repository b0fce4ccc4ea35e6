package io.tern.benchmark.machine;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * The libc calls the baselines need and Java lacks: {@code posix_fallocate} (the journal reserves
 * its segments this way, so a raw baseline on such a file shows what that costs) and {@code
 * posix_fadvise(DONTNEED)} (evicts one journal's files from the page cache for a cold open, without
 * root and without touching anything else on the machine). Linux only; elsewhere the callers skip
 * the figures that need them.
 */
public final class NativeFiles {
  private static final int O_RDWR = 2;
  private static final int O_CREAT = 0100;
  private static final int O_RDONLY = 0;
  private static final int FILE_MODE = 0644;
  private static final int POSIX_FADV_DONTNEED = 4;

  private static final String UNAVAILABLE_REASON = register();

  private NativeFiles() {}

  private static String register() {
    if (!Platform.isLinux()) {
      return "not Linux";
    }
    try {
      Native.register(NativeFiles.class, Platform.C_LIBRARY_NAME);
      return null;
    } catch (Throwable e) { // UnsatisfiedLinkError, NoClassDefFoundError without JNA
      return e.toString();
    }
  }

  public static boolean isAvailable() {
    return UNAVAILABLE_REASON == null;
  }

  /** Why the calls cannot be made, or null. */
  public static String unavailableReason() {
    return UNAVAILABLE_REASON;
  }

  /** Creates {@code file} with {@code lengthBytes} reserved (unwritten extents on ext4/xfs). */
  public static void fallocate(Path file, long lengthBytes) throws IOException {
    int fd = open(file.toString(), O_RDWR | O_CREAT, FILE_MODE);
    if (fd < 0) {
      throw new IOException("open(" + file + ") failed: errno " + Native.getLastError());
    }
    try {
      int error = posix_fallocate(fd, 0, lengthBytes);
      if (error != 0) {
        throw new IOException("posix_fallocate(" + file + ") failed: errno " + error);
      }
    } finally {
      close(fd);
    }
  }

  /** Makes every file in {@code dir} durable, then drops its pages from the page cache. */
  public static void evictFromPageCache(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (!Files.isRegularFile(file)) {
          continue;
        }
        // DONTNEED skips dirty pages, so they must be written first.
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
          channel.force(false);
        }
        int fd = open(file.toString(), O_RDONLY, 0);
        if (fd < 0) {
          throw new IOException("open(" + file + ") failed: errno " + Native.getLastError());
        }
        try {
          int error = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
          if (error != 0) {
            throw new IOException("posix_fadvise(" + file + ") failed: errno " + error);
          }
        } finally {
          close(fd);
        }
      }
    }
  }

  private static native int open(String path, int flags, int mode);

  private static native int close(int fd);

  private static native int posix_fallocate(int fd, long offset, long length);

  private static native int posix_fadvise(int fd, long offset, long length, int advice);
}
