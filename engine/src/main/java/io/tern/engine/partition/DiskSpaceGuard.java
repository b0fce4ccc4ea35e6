package io.tern.engine.partition;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk watermarks: below {@code data.disk.minFreeBytes} of free space under the data directory,
 * or below {@code data.disk.runtimeMinFreeBytes} in a runtime directory of its own (a tmpfs, say),
 * the partition refuses new client commands with an error saying which, and accepts them again once
 * space returns. Replication, replay and the processing of commands already in the log go on: they
 * are what frees space (snapshots let Raft compact the log), and a follower that stopped
 * replicating would fall behind for good. The runtime directory's watermark keeps room for the
 * state those commands still write: a full tmpfs fails RocksDB, and with it the partition.
 */
public final class DiskSpaceGuard {
  private static final Logger LOG = LoggerFactory.getLogger(DiskSpaceGuard.class);

  /** How a refusal for want of disk space begins (gateways answer RESOURCE_EXHAUSTED to it). */
  public static final String REFUSAL_PREFIX = "the broker is short of disk space: ";

  /** The default of {@code data.disk.minFreeBytes}, as Zeebe's processing watermark. */
  public static final long DEFAULT_MIN_FREE_BYTES = 2L * 1024 * 1024 * 1024;

  /** The default of {@code data.disk.runtimeMinFreeBytes}. */
  public static final long DEFAULT_RUNTIME_MIN_FREE_BYTES = 256L * 1024 * 1024;

  /** One directory's file system and its watermark. */
  private static final class Watch {
    final String key;
    final Path directory;
    final long minFreeBytes;
    final LongSupplier freeBytes;
    volatile long lastFreeBytes = Long.MAX_VALUE;
    volatile boolean low;

    Watch(String key, Path directory, long minFreeBytes, LongSupplier freeBytes) {
      this.key = key;
      this.directory = directory;
      this.minFreeBytes = minFreeBytes;
      this.freeBytes = freeBytes;
    }
  }

  private final List<Watch> watches = new ArrayList<>(2);
  private final Watch data;
  private Watch runtime;

  /**
   * @param freeBytes measures the free space (the file store's usable space in a broker; tests pass
   *     their own)
   */
  DiskSpaceGuard(Path directory, long minFreeBytes, LongSupplier freeBytes) {
    data = new Watch("data.disk.minFreeBytes", directory, minFreeBytes, freeBytes);
    watches.add(data);
  }

  /**
   * Also watches a runtime directory on a file system of its own; call before {@link #check}.
   *
   * @param freeBytes as in the constructor
   */
  DiskSpaceGuard watchRuntime(Path directory, long minFreeBytes, LongSupplier freeBytes) {
    runtime = new Watch("data.disk.runtimeMinFreeBytes", directory, minFreeBytes, freeBytes);
    watches.add(runtime);
    return this;
  }

  static LongSupplier usableSpaceOf(Path directory) {
    return () -> {
      try {
        Files.createDirectories(directory);
        return Files.getFileStore(directory).getUsableSpace();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot measure free space under " + directory, e);
      }
    };
  }

  void registerMetrics(MeterRegistry registry, Tags tags) {
    Gauge.builder("tern.disk.free.bytes", () -> data.lastFreeBytes)
        .description("free bytes under the data directory, as last measured")
        .tags(tags)
        .register(registry);
    if (runtime != null) {
      Watch watched = runtime;
      Gauge.builder("tern.disk.runtime.free.bytes", () -> watched.lastFreeBytes)
          .description(
              "free bytes in the runtime directory (when it is not under the data directory), as"
                  + " last measured")
          .tags(tags)
          .register(registry);
    }
    Gauge.builder("tern.disk.low", () -> refusal() == null ? 0 : 1)
        .description("1 while new commands are refused for lack of disk space")
        .tags(tags)
        .register(registry);
  }

  /** Measures again; called periodically. */
  void check() {
    for (Watch watch : watches) {
      long free = watch.freeBytes.getAsLong();
      watch.lastFreeBytes = free;
      boolean nowLow = free < watch.minFreeBytes;
      if (nowLow != watch.low) {
        if (nowLow) {
          LOG.warn(
              "Free space under {} is {} bytes, below {} ({}): refusing new commands until space"
                  + " returns",
              watch.directory,
              free,
              watch.key,
              watch.minFreeBytes);
        } else {
          LOG.info("Free space under {} is back to {} bytes", watch.directory, free);
        }
        watch.low = nowLow;
      }
    }
  }

  /** Null if commands may be written, else why not. */
  String refusal() {
    for (Watch watch : watches) {
      if (watch.low) {
        return REFUSAL_PREFIX
            + watch.lastFreeBytes
            + " bytes free under "
            + watch.directory
            + ", below "
            + watch.key
            + " ("
            + watch.minFreeBytes
            + "); new commands are refused until space is freed";
      }
    }
    return null;
  }
}
