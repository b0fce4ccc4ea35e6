package io.tern.benchmark.engine;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.broker.BrokerProcess;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.partition.EnginePartitionConfig;
import io.tern.engine.processor.CommandResponseSink;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.RecordProcessorsFactory;
import io.tern.engine.state.StateConfig;
import io.tern.engine.state.StateResources;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import io.tern.raft.server.FlushMode;
import io.tern.raft.server.RaftServer;
import io.tern.raft.server.RaftServerConfig;
import io.tern.raft.transport.NettyRaftTransport;
import io.tern.raft.transport.TransportConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One broker hosting partition 1 alone (a single replica), for benchmarks of the engine without a
 * network in the way. Reopening the same directory restarts it.
 */
public final class SingleMemberPartition implements AutoCloseable {
  public static final int PARTITION = 1;

  private final RaftServer server;
  private final EnginePartition partition;
  private final StateResources resources;

  public SingleMemberPartition(
      Path root,
      FlushMode flushMode,
      ProcessorConfig processor,
      RecordProcessorsFactory engine,
      CommandResponseSink responses) {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    server =
        new RaftServer(
            1,
            RaftServerConfig.builder(root.resolve("raft")).flushMode(flushMode).build(),
            new NettyRaftTransport(
                    TransportConfig.builder(1).bind("127.0.0.1", BrokerProcess.freePort()).build(),
                    registry,
                    Tags.empty())
                .start(),
            registry);
    resources = new StateResources(StateConfig.defaults());
    partition =
        EnginePartition.start(
            server,
            PARTITION,
            List.of(new Member(1, 1)),
            EnginePartitionConfig.defaults(root.resolve("engine"))
                .withSnapshotPeriod(Duration.ofDays(1))
                .withSnapshotEveryRecords(0)
                .withDiskWatermark(0, Duration.ofSeconds(10))
                .withProcessor(processor),
            resources,
            engine,
            responses,
            System::currentTimeMillis,
            registry);
  }

  public EnginePartition partition() {
    return partition;
  }

  /** Waits until this member leads and processes. */
  public SingleMemberPartition awaitProcessing(Duration timeout) {
    await(
        () ->
            partition.raft().role() == RaftRole.LEADER
                && partition.intake() != null
                && partition.processor().phase()
                    == io.tern.engine.processor.ProcessorPhase.PROCESSING,
        timeout,
        "the partition to process");
    return this;
  }

  public static void await(BooleanSupplier condition, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  @Override
  public void close() {
    partition.close();
    server.close();
    resources.close();
  }
}
