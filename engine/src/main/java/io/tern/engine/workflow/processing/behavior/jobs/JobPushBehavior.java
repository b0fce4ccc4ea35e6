package io.tern.engine.workflow.processing.behavior.jobs;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.workflow.JobStreams;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.DueDateChecker;
import io.tern.engine.workflow.processing.common.PartitionSender;
import io.tern.engine.workflow.processing.common.WorkflowMetrics;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.variables.JsonDocuments;

/**
 * Job push: a job that becomes activatable goes at once to an open stream for its type, activated
 * by a JOB_BATCH ACTIVATED event of that one job and pushed after commit; a push to a stream that
 * is gone gives the job back (JOB YIELD). Without a stream, long-polling requests for the type are
 * told after commit that jobs are available.
 */
public final class JobPushBehavior {
  private final ProcessingContext context;
  private final JobStreams streams;
  private final VariableBehavior variables;
  private final PartitionSender sender;
  private final WorkflowMetrics metrics;
  private final DueDateChecker deadlines;
  private final JobBatchValue batch = new JobBatchValue();

  /**
   * @param deadlines times activated jobs out; a pushed job's deadline is scheduled on it
   */
  public JobPushBehavior(
      ProcessingContext context,
      JobStreams streams,
      VariableBehavior variables,
      PartitionSender sender,
      WorkflowMetrics metrics,
      DueDateChecker deadlines) {
    this.context = context;
    this.streams = streams;
    this.variables = variables;
    this.sender = sender;
    this.metrics = metrics;
    this.deadlines = deadlines;
  }

  /** Job {@code jobKey} (as {@code job} says) became activatable in this result. */
  public void activatable(ProcessingResult result, long jobKey, JobValue job) {
    JobStreams.JobStream stream = streams.streamFor(job.type);
    if (stream == null) {
      notifyAvailable(result, job.type);
      return;
    }
    long deadline = context.nowMs() + stream.timeoutMs();
    JobValue activated = new JobValue().copyFrom(job);
    activated.deadline = deadline;
    activated.worker = stream.worker();
    activated.variables =
        JsonDocuments.document(
            variables.visible(activated.elementInstanceKey, stream.fetchVariables()));
    batch.type = job.type;
    batch.worker = stream.worker();
    batch.timeoutMs = stream.timeoutMs();
    batch.maxJobsToActivate = 1;
    batch.truncated = false;
    batch.fetchVariables.clear();
    batch.fetchVariables.addAll(stream.fetchVariables());
    batch.jobKeys.clear();
    batch.jobKeys.add(jobKey);
    batch.jobs.clear();
    batch.jobs.add(activated);
    result.appendEvent(context.nextKey(), JobBatchIntent.ACTIVATED, batch);
    metrics.jobActivated(result, jobKey, context.nowMs());
    result.sideEffect(
        () -> {
          deadlines.scheduleAt(deadline);
          if (!stream.push(jobKey, activated)) {
            sender.send(context.partitionId(), JobIntent.YIELD, jobKey, activated);
          }
        });
  }

  /** After commit, long-polling requests for {@code jobType} are told to try again. */
  public void notifyAvailable(ProcessingResult result, String jobType) {
    result.sideEffect(() -> streams.jobsAvailable(jobType));
  }
}
