package io.tern.engine.backup;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The backup parts this broker took, as partition leader: {@code tern_backup_parts_taken_total},
 * {@code ..._failed_total}, {@code tern_backup_parts_in_progress}, and each completed part's size
 * ({@code tern_backup_part_size_bytes}) and duration ({@code tern_backup_part_duration_seconds}). A
 * backup is the parts of every partition, taken on several brokers: its own state is the manifests'
 * ({@code GET /actuator/backups}).
 */
public final class BackupMetrics {
  private final Counter taken;
  private final Counter failed;
  private final AtomicInteger inProgress = new AtomicInteger();
  private final DistributionSummary size;
  private final Timer duration;

  public BackupMetrics(MeterRegistry registry) {
    taken =
        Counter.builder("tern.backup.parts.taken")
            .description("Partition parts of backups stored completely by this broker")
            .register(registry);
    failed =
        Counter.builder("tern.backup.parts.failed")
            .description("Partition parts of backups this broker failed to store")
            .register(registry);
    Gauge.builder("tern.backup.parts.in.progress", inProgress, AtomicInteger::get)
        .description("Partition parts of backups this broker is storing now")
        .register(registry);
    size =
        DistributionSummary.builder("tern.backup.part.size")
            .baseUnit("bytes")
            .description("Bytes of a completed partition part, before compression")
            .register(registry);
    duration =
        Timer.builder("tern.backup.part.duration")
            .description("From the checkpoint's commit to the part's completed manifest")
            .register(registry);
  }

  void started() {
    inProgress.incrementAndGet();
  }

  void completed(long bytes, Duration took) {
    inProgress.decrementAndGet();
    taken.increment();
    size.record(bytes);
    duration.record(took);
  }

  /** A part that was stored before (a restored cluster replaying its checkpoint). */
  void skipped() {
    inProgress.decrementAndGet();
  }

  void failed() {
    inProgress.decrementAndGet();
    failed.increment();
  }
}
