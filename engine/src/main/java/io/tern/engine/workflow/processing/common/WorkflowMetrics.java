package io.tern.engine.workflow.processing.common;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tern.engine.processor.ProcessingResult;
import java.util.concurrent.TimeUnit;
import org.agrona.collections.Long2LongHashMap;

/**
 * The workflow engine's latencies: a process instance's activation to its completion, a job's
 * creation to its activation (polled or pushed) and to its completion. The leader remembers start
 * times in memory, in side effects (so a rolled back attempt leaves nothing); a new leader starts
 * empty, so what began before it is not measured. At most {@link #MAX_TRACKED} of each are
 * remembered, bounding the memory for long-running instances.
 */
public final class WorkflowMetrics {
  static final int MAX_TRACKED = 1_000_000;
  private static final long NONE = -1;

  private final Timer processInstanceExecution;
  private final Timer jobActivation;
  private final Timer jobLifetime;
  private final Long2LongHashMap instanceStartMs = new Long2LongHashMap(NONE);
  private final Long2LongHashMap jobCreatedMs = new Long2LongHashMap(NONE);

  public WorkflowMetrics(MeterRegistry registry, int partitionId) {
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    processInstanceExecution =
        Timer.builder("tern.workflow.process.instance.execution")
            .description("a process instance's activation to its completion")
            .tags(tags)
            .publishPercentileHistogram()
            .register(registry);
    jobActivation =
        Timer.builder("tern.workflow.job.activation")
            .description("a job's creation to its activation (polled or pushed)")
            .tags(tags)
            .publishPercentileHistogram()
            .register(registry);
    jobLifetime =
        Timer.builder("tern.workflow.job.lifetime")
            .description("a job's creation to its completion")
            .tags(tags)
            .publishPercentileHistogram()
            .register(registry);
  }

  /** This member starts processing: what began elsewhere is not measured. */
  public void clear() {
    instanceStartMs.clear();
    jobCreatedMs.clear();
  }

  public void processInstanceActivated(ProcessingResult result, long key, long nowMs) {
    result.sideEffect(() -> remember(instanceStartMs, key, nowMs));
  }

  public void processInstanceCompleted(ProcessingResult result, long key, long nowMs) {
    result.sideEffect(() -> record(processInstanceExecution, instanceStartMs.remove(key), nowMs));
  }

  public void processInstanceTerminated(ProcessingResult result, long key) {
    result.sideEffect(() -> instanceStartMs.remove(key));
  }

  public void jobCreated(ProcessingResult result, long jobKey, long nowMs) {
    result.sideEffect(() -> remember(jobCreatedMs, jobKey, nowMs));
  }

  public void jobActivated(ProcessingResult result, long jobKey, long nowMs) {
    result.sideEffect(() -> record(jobActivation, jobCreatedMs.get(jobKey), nowMs));
  }

  public void jobCompleted(ProcessingResult result, long jobKey, long nowMs) {
    result.sideEffect(() -> record(jobLifetime, jobCreatedMs.remove(jobKey), nowMs));
  }

  public void jobCanceled(ProcessingResult result, long jobKey) {
    result.sideEffect(() -> jobCreatedMs.remove(jobKey));
  }

  int tracked() {
    return instanceStartMs.size() + jobCreatedMs.size();
  }

  private static void remember(Long2LongHashMap starts, long key, long nowMs) {
    if (starts.size() < MAX_TRACKED) {
      starts.put(key, nowMs);
    }
  }

  private static void record(Timer timer, long startMs, long nowMs) {
    if (startMs != NONE) {
      timer.record(Math.max(0, nowMs - startMs), TimeUnit.MILLISECONDS);
    }
  }
}
