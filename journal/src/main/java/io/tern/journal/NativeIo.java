package io.tern.journal;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two libc calls the journal uses when it can: {@code madvise(2)} on mapped segments (the
 * {@code journal.madvise} setting) and {@code posix_fallocate(3)} to reserve a segment's blocks
 * without writing zeros. Both are optional: where JNA or the calls are unavailable (non-Linux,
 * missing native library), callers fall back and the journal behaves the same, only slower to
 * preallocate and without the advice.
 */
final class NativeIo {
  private static final Logger LOG = LoggerFactory.getLogger(NativeIo.class);

  // Linux values (asm-generic; the same on x86_64 and aarch64).
  private static final int MADV_RANDOM = 1;
  private static final int O_RDWR = 2;
  private static final int O_CREAT = 0100;
  private static final int FILE_MODE = 0644;

  private static final boolean AVAILABLE = register();

  private NativeIo() {}

  private static boolean register() {
    if (!Platform.isLinux()) {
      LOG.info("madvise/posix_fallocate not used: not Linux");
      return false;
    }
    try {
      Native.register(NativeIo.class, Platform.C_LIBRARY_NAME);
      return true;
    } catch (Throwable e) { // UnsatisfiedLinkError, NoClassDefFoundError when JNA is absent
      LOG.warn("madvise/posix_fallocate not available, falling back: {}", e.toString());
      return false;
    }
  }

  static boolean isAvailable() {
    return AVAILABLE;
  }

  /**
   * Applies the advice to a mapped region starting at a page-aligned address.
   *
   * @return true if the advice was applied
   */
  static boolean madvise(long address, long length, JournalConfig.Madvise advice) {
    if (advice == JournalConfig.Madvise.NONE || !AVAILABLE) {
      return false;
    }
    // RANDOM is the only advice besides NONE.
    int result = madvise(new Pointer(address), length, MADV_RANDOM);
    if (result != 0) {
      LOG.warn("madvise({}) failed with errno {}", advice, Native.getLastError());
      return false;
    }
    return true;
  }

  /**
   * Creates {@code file} (if needed) and reserves {@code length} bytes of disk for it.
   *
   * @return true if done natively; false if the caller must fall back to writing zeros
   */
  static boolean fallocate(Path file, long length) {
    if (!AVAILABLE) {
      return false;
    }
    int fd = open(file.toString(), O_RDWR | O_CREAT, FILE_MODE);
    if (fd < 0) {
      return false;
    }
    try {
      return posix_fallocate(fd, 0, length) == 0;
    } finally {
      close(fd);
    }
  }

  private static native int madvise(Pointer address, long length, int advice);

  private static native int open(String path, int flags, int mode);

  private static native int close(int fd);

  private static native int posix_fallocate(int fd, long offset, long length);
}
