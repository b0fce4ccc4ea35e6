package io.tern.engine.partition;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk watermark: below {@code data.disk.minFreeBytes} of free space under the data directory,
 * the partition refuses new client commands with an error saying so, and accepts them again once
 * space returns. Replication, replay and the processing of commands already in the log go on: they
 * are what frees space (snapshots let Raft compact the log), and a follower that stopped
 * replicating would fall behind for good.
 */
public final class DiskSpaceGuard {
  private static final Logger LOG = LoggerFactory.getLogger(DiskSpaceGuard.class);

  /** The default of {@code data.disk.minFreeBytes}, as Zeebe's processing watermark. */
  /** How a refusal for want of disk space begins (gateways answer RESOURCE_EXHAUSTED to it). */
  public static final String REFUSAL_PREFIX = "the broker is short of disk space: ";

  public static final long DEFAULT_MIN_FREE_BYTES = 2L * 1024 * 1024 * 1024;

  private final Path directory;
  private final long minFreeBytes;
  private final LongSupplier freeBytes;
  private volatile long lastFreeBytes = Long.MAX_VALUE;
  private volatile boolean low;

  /**
   * @param freeBytes measures the free space (the file store's usable space in a broker; tests pass
   *     their own)
   */
  DiskSpaceGuard(Path directory, long minFreeBytes, LongSupplier freeBytes) {
    this.directory = directory;
    this.minFreeBytes = minFreeBytes;
    this.freeBytes = freeBytes;
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
    Gauge.builder("tern.disk.free.bytes", () -> lastFreeBytes)
        .description("free bytes under the data directory, as last measured")
        .tags(tags)
        .register(registry);
    Gauge.builder("tern.disk.low", () -> low ? 1 : 0)
        .description("1 while new commands are refused for lack of disk space")
        .tags(tags)
        .register(registry);
  }

  /** Measures again; called periodically. */
  void check() {
    long free = freeBytes.getAsLong();
    lastFreeBytes = free;
    boolean nowLow = free < minFreeBytes;
    if (nowLow != low) {
      if (nowLow) {
        LOG.warn(
            "Free disk space under {} is {} bytes, below data.disk.minFreeBytes ({}): refusing new"
                + " commands until space returns",
            directory,
            free,
            minFreeBytes);
      } else {
        LOG.info(
            "Free disk space under {} is back to {} bytes: accepting commands", directory, free);
      }
      low = nowLow;
    }
  }

  /** Null if commands may be written, else why not. */
  String refusal() {
    if (!low) {
      return null;
    }
    return REFUSAL_PREFIX
        + lastFreeBytes
        + " bytes free under "
        + directory
        + ", below data.disk.minFreeBytes ("
        + minFreeBytes
        + "); new commands are refused until space is freed";
  }
}
