package io.tern.engine.workflow;

import io.tern.engine.processor.InMemoryLogStorage;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.TestMember;
import io.tern.engine.workflow.processing.WorkflowEngine;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/**
 * Workflow scenarios over three partitions that send each other commands ({@link
 * PartitionCluster}); after every test each partition's log replays to its leader's state.
 */
abstract class PartitionsTestBase extends WorkflowTestBase {
  static final int PARTITIONS = 3;

  final PartitionCluster cluster = new PartitionCluster(PARTITIONS, this::partitionMember);

  private final WorkflowConfig config =
      WorkflowConfig.defaults()
          .withPartitions(cluster)
          .withSubscriptionRetryInterval(Duration.ofMillis(200));

  TestMember partitionMember(int partition, InMemoryLogStorage partitionLog, String name) {
    TestMember member =
        new TestMember(
            partition,
            partitionLog,
            dir.resolve("p" + partition + "-" + name),
            ProcessorConfig.defaults(),
            WorkflowEngine.factory(config));
    members.add(member);
    return member;
  }

  @AfterEach
  void everyPartitionReplaysToItsLeadersState() {
    for (int partition = 1; partition <= cluster.leaders.size(); partition++) {
      assertReplayReachesStateOf(
          cluster.leader(partition),
          partitionMember(partition, cluster.logs.get(partition - 1), "replayer"));
    }
  }
}
