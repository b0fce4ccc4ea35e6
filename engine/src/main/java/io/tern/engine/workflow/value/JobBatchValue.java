package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.JobBatchValueDecoder;
import io.tern.engine.record.sbe.JobBatchValueEncoder;
import java.util.ArrayList;
import java.util.List;

/** A worker's request for jobs of a type, and the jobs it got. */
public final class JobBatchValue extends MappedValue<JobBatchValue> {
  private static final ValueFields<JobBatchValue> FIELDS =
      ValueFields.of(JobBatchValue.class, JobBatchValueEncoder.class, JobBatchValueDecoder.class)
          .int64("timeout", v -> v.timeoutMs, (v, x) -> v.timeoutMs = x)
          .int32("maxJobsToActivate", v -> v.maxJobsToActivate, (v, x) -> v.maxJobsToActivate = x)
          .bool("truncated", v -> v.truncated, (v, x) -> v.truncated = x)
          .group(
              "jobs",
              job -> job.int64("key", v -> v.jobKeys).value("job", v -> v.jobs, JobValue::new))
          .group("fetchVariables", name -> name.string("name", v -> v.fetchVariables))
          .string("jobType", v -> v.type, (v, x) -> v.type = x)
          .string("worker", v -> v.worker, (v, x) -> v.worker = x)
          .build();

  public long timeoutMs;
  public int maxJobsToActivate;
  public boolean truncated;
  public String type = "";
  public String worker = "";

  /** The key of each job of {@link #jobs}, in the same order. */
  public final List<Long> jobKeys = new ArrayList<>();

  public final List<JobValue> jobs = new ArrayList<>();

  /** The variables each job comes with; empty: all. */
  public final List<String> fetchVariables = new ArrayList<>();

  public JobBatchValue() {
    super(FIELDS);
  }
}
