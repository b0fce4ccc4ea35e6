package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.log.LogStorage;
import io.tern.engine.log.RaftLogStorage;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.protocol.DeploymentDistributionIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.workflow.value.DeploymentDistributionValue;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.value.TimerValue;
import io.tern.engine.workflow.value.WorkflowValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Raw calls on a broker's command API (26501) from a process that is not a broker: it connects from
 * 127.0.0.7, while the broker's name is 127.0.0.1. Internal commands are refused with
 * PERMISSION_DENIED naming them and reach no log, whether the caller waits for the answer or not;
 * the client commands a gateway forwards still go through, and a broker's internal commands too.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class CommandApiAccessTest {
  private static final String STRANGER = "127.0.0.7";

  /** The messages are written here as the broker reads them: a version byte, then the fields. */
  private static final MethodDescriptor<byte[], byte[]> EXECUTE = method("Execute");

  private static final MethodDescriptor<byte[], byte[]> REBALANCE = method("Rebalance");

  private static final MethodDescriptor<byte[], byte[]> CLUSTER_CHANGE = method("ClusterChange");

  /** An internal command, a key no other record has, and a valid value of its type. */
  record Internal(Intent intent, long key, WorkflowValue value) {}

  static final List<Internal> INTERNAL =
      List.of(
          new Internal(DeploymentIntent.DISTRIBUTE, 7_001, new DeploymentValue()),
          new Internal(
              DeploymentDistributionIntent.COMPLETE, 7_002, new DeploymentDistributionValue()),
          new Internal(MessageSubscriptionIntent.CORRELATE, 7_003, new MessageSubscriptionValue()),
          new Internal(
              ProcessMessageSubscriptionIntent.CORRELATE, 7_004, new MessageSubscriptionValue()),
          new Internal(JobIntent.TIME_OUT, 7_005, new JobValue()),
          new Internal(TimerIntent.TRIGGER, 7_006, new TimerValue()));

  @TempDir Path dir;

  @Test
  void internalCommandsFromANonBrokerAreRefusedAndNeverWritten() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Broker broker =
            Broker.start(
                TestBrokers.config(dir, Map.of("TERN_NETWORK_ADVERTISEDHOST", "127.0.0.1")),
                registry);
        Closeable stranger = new Closeable(channel(STRANGER, broker.commandPort()));
        Closeable local = new Closeable(channel("127.0.0.1", broker.commandPort()))) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();

      for (Internal command : INTERNAL) {
        for (boolean wantsAnswer : new boolean[] {true, false}) {
          StatusRuntimeException refused =
              catchThrowableOfType(
                  StatusRuntimeException.class,
                  () -> execute(stranger.channel, command, command.key(), wantsAnswer));
          assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
          assertThat(refused.getStatus().getDescription())
              .contains("only a broker may send")
              .contains(
                  "(" + command.intent().valueType().code() + "/" + command.intent().code() + ")");
        }
      }
      StatusRuntimeException timeOut =
          catchThrowableOfType(
              StatusRuntimeException.class,
              () -> execute(stranger.channel, INTERNAL.get(4), 7_005, true));
      assertThat(timeOut.getStatus().getDescription()).contains("JOB TIME_OUT");
      StatusRuntimeException rebalance =
          catchThrowableOfType(
              StatusRuntimeException.class,
              () ->
                  ClientCalls.blockingUnaryCall(
                      stranger.channel, REBALANCE, CallOptions.DEFAULT, new byte[] {1}));
      assertThat(rebalance.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
      assertThat(rebalance.getStatus().getDescription()).contains("POST /actuator/rebalance");
      // A cluster change forwarded without the token: only a broker, which checked it, may.
      StatusRuntimeException clusterChange =
          catchThrowableOfType(
              StatusRuntimeException.class,
              () ->
                  ClientCalls.blockingUnaryCall(
                      stranger.channel, CLUSTER_CHANGE, CallOptions.DEFAULT, new byte[] {1}));
      assertThat(clusterChange.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
      assertThat(clusterChange.getStatus().getDescription())
          .contains("POST /actuator/cluster/brokers");

      // What a gateway forwards goes through from anyone: a message is published.
      MessageValue message = new MessageValue();
      message.name = "from-a-gateway";
      message.correlationKey = "7";
      message.timeToLiveMs = 0;
      execute(stranger.channel, MessageIntent.PUBLISH, -1, message, true);
      // A client command that skips its answer would skip backpressure: refused too.
      StatusRuntimeException unanswered =
          catchThrowableOfType(
              StatusRuntimeException.class,
              () -> execute(stranger.channel, MessageIntent.PUBLISH, -1, message, false));
      assertThat(unanswered.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);

      // A broker (here: a caller on the broker's own address) sends internal commands; once its
      // fire-and-forget JOB TIME_OUT is in the log, so would be anything sent before it.
      execute(local.channel, INTERNAL.get(4), 7_100, false);
      Awaitility.await("the broker's own JOB TIME_OUT written")
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> records(broker, 7_100) > 0);

      for (Internal command : INTERNAL) {
        assertThat(records(broker, command.key()))
            .as("records of the refused %s", Intents.describe(command.intent()))
            .isZero();
      }
      assertThat(registry.get("tern.commandapi.refused").tag("method", "Execute").counter().count())
          .isEqualTo(2.0 * INTERNAL.size() + 2);
      assertThat(
              registry.get("tern.commandapi.refused").tag("method", "Rebalance").counter().count())
          .isEqualTo(1.0);
      assertThat(
              registry
                  .get("tern.commandapi.refused")
                  .tag("method", "ClusterChange")
                  .counter()
                  .count())
          .isEqualTo(1.0);
    }
  }

  static void execute(ManagedChannel channel, Internal command, long key, boolean wantsAnswer) {
    execute(channel, command.intent(), key, command.value(), wantsAnswer);
  }

  private static void execute(
      ManagedChannel channel, Intent intent, long key, WorkflowValue value, boolean wantsAnswer) {
    byte[] bytes = new byte[value.length()];
    value.write(new UnsafeBuffer(bytes), 0);
    ByteBuffer message = ByteBuffer.allocate(1 + 4 + 4 + 4 + 8 + 1 + 4 + bytes.length);
    message.put((byte) 1).putInt(1).putInt(intent.valueType().code()).putInt(intent.code());
    message.putLong(key);
    message.put((byte) (wantsAnswer ? 1 : 0)).putInt(bytes.length).put(bytes);
    ClientCalls.blockingUnaryCall(
        channel,
        EXECUTE,
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
        message.array());
  }

  /** Records of any type, command or event, with {@code key} in the broker's partitions' logs. */
  private static int records(Broker broker, long key) {
    int count = 0;
    RecordBatch batch = new RecordBatch();
    for (EnginePartition partition : broker.partitions()) {
      RaftLogStorage log = new RaftLogStorage();
      log.bind(partition.raft());
      try (LogStorage.Reader reader = log.newReader()) {
        reader.seekToIndex(0);
        while (reader.hasNext()) {
          LogStorage.Entry entry = reader.next();
          batch.wrap(entry.data(), entry.offset(), entry.length());
          while (batch.hasNext()) {
            LoggedRecord record = batch.next();
            if (record.key() == key) {
              count++;
            }
          }
        }
      }
    }
    return count;
  }

  /** A channel whose connections leave from {@code localHost}, so the broker sees that address. */
  private static ManagedChannel channel(String localHost, int port) {
    return NettyChannelBuilder.forAddress("127.0.0.1", port)
        .usePlaintext()
        .localSocketPicker(
            new NettyChannelBuilder.LocalSocketPicker() {
              @Override
              public java.net.SocketAddress createSocketAddress(
                  java.net.SocketAddress remoteAddress, io.grpc.Attributes attrs) {
                return new InetSocketAddress(localHost, 0);
              }
            })
        .build();
  }

  private static MethodDescriptor<byte[], byte[]> method(String name) {
    MethodDescriptor.Marshaller<byte[]> bytes =
        new MethodDescriptor.Marshaller<>() {
          @Override
          public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
          }

          @Override
          public byte[] parse(InputStream stream) {
            try {
              return stream.readAllBytes();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName("tern.BrokerApi/" + name)
        .setRequestMarshaller(bytes)
        .setResponseMarshaller(bytes)
        .build();
  }

  private record Closeable(ManagedChannel channel) implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
