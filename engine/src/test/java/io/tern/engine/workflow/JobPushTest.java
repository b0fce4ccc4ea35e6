package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Job push to open streams, yielding when a stream is gone, and long-polling notifications. */
class JobPushTest extends WorkflowTestBase {
  /** Streams as the gateway would hold them: one per type, recording what they get. */
  static final class Streams implements JobStreams {
    final Map<String, Stream> open = new ConcurrentHashMap<>();
    final List<String> available = new CopyOnWriteArrayList<>();

    @Override
    public JobStream streamFor(String jobType) {
      return open.get(jobType);
    }

    @Override
    public void jobsAvailable(String jobType) {
      available.add(jobType);
    }
  }

  record Pushed(long key, JobValue job) {}

  static final class Stream implements JobStreams.JobStream {
    final List<Pushed> pushed = new CopyOnWriteArrayList<>();
    final long timeoutMs;
    volatile boolean gone;

    Stream(long timeoutMs) {
      this.timeoutMs = timeoutMs;
    }

    @Override
    public String worker() {
      return "streaming-worker";
    }

    @Override
    public long timeoutMs() {
      return timeoutMs;
    }

    @Override
    public List<String> fetchVariables() {
      return List.of("orderId");
    }

    @Override
    public boolean push(long jobKey, JobValue job) {
      if (gone) {
        return false;
      }
      pushed.add(new Pushed(jobKey, job));
      return true;
    }
  }

  private final Streams streams = new Streams();

  @Override
  WorkflowConfig workflowConfig() {
    return WorkflowConfig.defaults().withJobStreams(streams);
  }

  @Test
  void aNewJobIsPushedToTheOpenStreamForItsType() {
    Stream stream = new Stream(60_000);
    streams.open.put("work", stream);
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    create(leader, "p", "{\"orderId\": 7, \"secret\": 1}");

    await(() -> stream.pushed.size() == 1, "the job to be pushed");
    Pushed pushed = stream.pushed.get(0);
    assertThat(pushed.job().worker).isEqualTo("streaming-worker");
    assertThat(JsonDocuments.toJava(pushed.job().variables)).isEqualTo(Map.of("orderId", 7L));
    assertThat(activate(leader, "work", 5).jobs).as("it is activated already").isEmpty();
    assertThat(countOf(JobBatchIntent.ACTIVATED)).isEqualTo(2);

    assertThat(completeJob(leader, pushed.key()).rejection()).isEqualTo(RejectionType.NONE);
    await(
        () -> lifecycle().contains("p " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance to complete");
    assertThat(streams.available).as("no long poll woken for a pushed job").isEmpty();
  }

  @Test
  void aJobPushedToAStreamThatIsGoneIsYieldedAndActivatableAgain() {
    Stream stream = new Stream(60_000);
    stream.gone = true;
    streams.open.put("work", stream);
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    create(leader, "p");

    await(() -> countOf(JobIntent.YIELDED) == 1, "the job to be yielded");
    // Long polls hear of the yielded job once its event is applied, which can come a moment
    // after the event is in the log.
    await(() -> !streams.available.isEmpty(), "long polls told of the job");
    assertThat(streams.available).containsExactly("work");
    streams.open.clear();
    long key = awaitJob(leader, "work");
    assertThat(completeJob(leader, key).rejection()).isEqualTo(RejectionType.NONE);
  }

  @Test
  void aPushedJobThatTimesOutOrFailsIsPushedAgain() {
    Stream stream = new Stream(200);
    streams.open.put("work", stream);
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    create(leader, "p");

    await(() -> stream.pushed.size() == 2, "the job to time out and be pushed again");
    assertThat(countOf(JobIntent.TIMED_OUT)).isEqualTo(1);
    long key = stream.pushed.get(1).key();
    assertThat(stream.pushed.get(0).key()).isEqualTo(key);

    streams.open.put("work", new Stream(60_000));
    Stream longer = (Stream) streams.open.get("work");
    assertThat(failJob(leader, key, 2, 0, "try again").rejection()).isEqualTo(RejectionType.NONE);
    await(() -> longer.pushed.size() == 1, "the failed job to be pushed again");
    assertThat(longer.pushed.get(0).job().retries).isEqualTo(2);
  }

  @Test
  void withoutAStreamLongPollingRequestsAreToldWhenJobsBecomeAvailable() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    create(leader, "p");
    await(() -> streams.available.size() == 1, "a notification for the new job");
    assertThat(streams.available).containsExactly("work");

    long key = awaitJob(leader, "work");
    failJob(leader, key, 1, 0, "again");
    await(() -> streams.available.size() == 2, "a notification for the failed job");
    assertThat(failJob(leader, awaitJob(leader, "work"), 1, 300, "later").rejection())
        .isEqualTo(RejectionType.NONE);
    await(() -> streams.available.size() == 3, "a notification once the back-off ends");
  }
}
