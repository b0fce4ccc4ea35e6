package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.JobBatchValueDecoder;
import io.tern.engine.record.sbe.JobBatchValueEncoder;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/** A worker's request for jobs of a type, and the jobs it got. */
public final class JobBatchValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final JobBatchValueEncoder encoder = new JobBatchValueEncoder();
  private final JobBatchValueDecoder decoder = new JobBatchValueDecoder();
  private final ExpandableArrayBuffer jobScratch = new ExpandableArrayBuffer(256);

  public long timeoutMs;
  public int maxJobsToActivate;
  public boolean truncated;
  public String type = "";
  public String worker = "";
  public final List<Long> jobKeys = new ArrayList<>();
  public final List<JobValue> jobs = new ArrayList<>();

  /** The variables each job comes with; empty: all. */
  public final List<String> fetchVariables = new ArrayList<>();

  @Override
  protected int templateId() {
    return JobBatchValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .timeout(timeoutMs)
        .maxJobsToActivate(maxJobsToActivate)
        .truncated(truncated ? BooleanType.TRUE : BooleanType.FALSE);
    JobBatchValueEncoder.JobsEncoder group = encoder.jobsCount(jobs.size());
    for (int i = 0; i < jobs.size(); i++) {
      JobValue job = jobs.get(i);
      int length = job.length();
      job.write(jobScratch, 0);
      group.next().key(jobKeys.get(i)).putJob(jobScratch, 0, length);
    }
    JobBatchValueEncoder.FetchVariablesEncoder names =
        encoder.fetchVariablesCount(fetchVariables.size());
    for (String name : fetchVariables) {
      names.next().name(name);
    }
    encoder.jobType(type).worker(worker);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    timeoutMs = decoder.timeout();
    maxJobsToActivate = decoder.maxJobsToActivate();
    truncated = decoder.truncated() == BooleanType.TRUE;
    jobKeys.clear();
    jobs.clear();
    for (JobBatchValueDecoder.JobsDecoder job : decoder.jobs()) {
      jobKeys.add(job.key());
      byte[] bytes = new byte[job.jobLength()];
      job.getJob(bytes, 0, bytes.length);
      JobValue value = new JobValue();
      value.wrap(new org.agrona.concurrent.UnsafeBuffer(bytes), 0, bytes.length);
      jobs.add(value);
    }
    fetchVariables.clear();
    for (JobBatchValueDecoder.FetchVariablesDecoder name : decoder.fetchVariables()) {
      fetchVariables.add(name.name());
    }
    type = decoder.jobType();
    worker = decoder.worker();
  }
}
