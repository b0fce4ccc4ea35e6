package io.tern.engine.broker;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a broker uses of its machine, for watching a long run for leaks: the JVM's heap (used, and
 * what survives collections: {@code tern.jvm.heap.after.gc}), garbage collection pauses, CPU,
 * uptime and start time (a restart shows as a new start time), the process' resident memory (in
 * all, and its anonymous part), and each partition's disk use by part (the Raft journal, the Raft
 * snapshots, the live runtime state) with its snapshot count. Disk use is measured when scraped, by
 * walking the partition's directories, so that what retention and compaction leave is what is
 * reported.
 */
final class ResourceMetrics implements AutoCloseable {
  /** /proc/self/status' resident set line ("VmRSS: 123456 kB"). */
  private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+)\\s+kB");

  /** /proc/self/status' anonymous resident memory line ("RssAnon: 123456 kB"). */
  private static final Pattern RSS_ANONYMOUS = Pattern.compile("RssAnon:\\s+(\\d+)\\s+kB");

  /** A final snapshot directory's name: {@code <index>-<term>} or {@code <index>-<term>-<gen>}. */
  private static final Pattern SNAPSHOT = Pattern.compile("\\d+-\\d+(-\\d+)?");

  private static final Path PROC_STATUS = Path.of("/proc/self/status");

  private final MeterRegistry registry;
  private final JvmGcMetrics gc = new JvmGcMetrics();

  ResourceMetrics(MeterRegistry registry) {
    this.registry = registry;
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    Gauge.builder("tern.jvm.heap.after.gc", ResourceMetrics::heapAfterGc)
        .description(
            "heap in use right after the latest collection of each heap pool, summed: what survives"
                + " collections, the figure a leak raises")
        .baseUnit("bytes")
        .register(registry);
    Gauge.builder("tern.process.resident.memory", () -> procStatusBytes(RSS))
        .description("the broker process' resident set size (Linux; NaN elsewhere)")
        .baseUnit("bytes")
        .register(registry);
    // The journal's segments are memory-mapped, so the total above grows with every page of the
    // journal read or written until compaction unmaps it; that is page cache the kernel can take
    // back, not a leak. Anonymous memory (heap, native allocations, stacks) is what a leak grows.
    Gauge.builder("tern.process.resident.anonymous.memory", () -> procStatusBytes(RSS_ANONYMOUS))
        .description(
            "the broker process' anonymous resident memory: RSS without mapped files such as the"
                + " journal's segments (Linux; NaN elsewhere)")
        .baseUnit("bytes")
        .register(registry);
  }

  /**
   * Reports partition {@code partitionId}'s disk use: its Raft directory holds {@code journal/} and
   * {@code snapshots/}; {@code runtime} is the live state.
   */
  void partition(int partitionId, Path raftDirectory, Path runtime) {
    String partition = Integer.toString(partitionId);
    Path journal = raftDirectory.resolve("journal");
    Path snapshots = raftDirectory.resolve("snapshots");
    for (Object[] part :
        List.of(
            new Object[] {"journal", journal},
            new Object[] {"snapshots", snapshots},
            new Object[] {"runtime", runtime})) {
      Path directory = (Path) part[1];
      Gauge.builder("tern.partition.disk.used", () -> sizeOf(directory))
          .description("bytes in the partition's files of one part (journal, snapshots, runtime)")
          .baseUnit("bytes")
          .tags("partition", partition, "part", (String) part[0])
          .register(registry);
    }
    Gauge.builder("tern.raft.snapshot.count", () -> snapshotCount(snapshots))
        .description("complete snapshots kept on disk for the partition")
        .tags("partition", partition)
        .register(registry);
  }

  /**
   * The bytes of the regular files under {@code directory}; 0 if it does not exist. Files that go
   * away while it walks (a compacted segment, a replaced snapshot) count as nothing.
   */
  static double sizeOf(Path directory) {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    long[] total = new long[1];
    try {
      Files.walkFileTree(
          directory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile()) {
                total[0] += attributes.size();
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      return Double.NaN;
    }
    return total[0];
  }

  /** The complete snapshot directories in {@code snapshots}. */
  static double snapshotCount(Path snapshots) {
    try (Stream<Path> entries = Files.list(snapshots)) {
      return entries
          .filter(path -> SNAPSHOT.matcher(path.getFileName().toString()).matches())
          .filter(Files::isDirectory)
          .count();
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException | UncheckedIOException e) {
      return Double.NaN;
    }
  }

  /**
   * The sum over the heap's pools of their usage after their latest collection. Unlike {@code
   * jvm.gc.live.data.size}, which G1 updates only after old or mixed collections, a young
   * collection updates it too (G1's young collector also manages the old pool).
   */
  static double heapAfterGc() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      MemoryUsage afterGc = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
      if (afterGc != null) {
        used += afterGc.getUsed();
      }
    }
    return used;
  }

  /** A kB figure from /proc/self/status, in bytes, or NaN where there is none. */
  static double procStatusBytes(Pattern line) {
    try {
      var matcher = line.matcher(Files.readString(PROC_STATUS));
      return matcher.find() ? Long.parseLong(matcher.group(1)) * 1024.0 : Double.NaN;
    } catch (IOException | UncheckedIOException e) {
      return Double.NaN;
    }
  }

  @Override
  public void close() {
    gc.close();
  }
}
