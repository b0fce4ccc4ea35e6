package io.tern.benchmark.machine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Linux kernel's settings that change how disk figures read, from {@code /proc} and {@code
 * /sys}. Each is the file's trimmed content, or null where the file does not exist (not Linux, or a
 * kernel without the feature).
 */
public final class KernelSettings {
  private KernelSettings() {}

  /** {@code vm.dirty_ratio}: the share of memory dirty pages may take before writers must wait. */
  public static String dirtyRatio() {
    return read("/proc/sys/vm/dirty_ratio");
  }

  /** {@code vm.dirty_background_ratio}: the share of memory at which writeback starts. */
  public static String dirtyBackgroundRatio() {
    return read("/proc/sys/vm/dirty_background_ratio");
  }

  /**
   * KiB of free memory the kernel has reported to the hypervisor so far (free page reporting). Not
   * null and not "0" on a VM where every page the page cache takes anew costs a hypervisor fault,
   * so that unflushed writes mostly measure those faults.
   */
  public static String freePageReportingReportedKib() {
    return read("/sys/module/page_reporting/parameters/reported_kib");
  }

  /** The trimmed content of a /proc or /sys file, or null where it does not exist. */
  private static String read(String path) {
    try {
      return Files.readString(Path.of(path)).trim();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
