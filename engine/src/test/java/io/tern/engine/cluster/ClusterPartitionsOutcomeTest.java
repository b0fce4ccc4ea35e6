package io.tern.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.PartitionState;
import io.tern.engine.command.PartitionCommands.Answer;
import io.tern.engine.command.PartitionCommands.NotWrittenException;
import io.tern.engine.command.PartitionCommands.OutcomeUnknownException;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.JobStreams;
import io.tern.engine.workflow.Partitions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.agrona.concurrent.UnsafeBuffer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a gateway learns of a command forwarded to a partition's leader on another broker, with the
 * faults injected on that broker: refused before its write (sent again, then answered), the
 * connection broken after the command left (outcome unknown, never sent again), no leader at all
 * (not written).
 */
class ClusterPartitionsOutcomeTest {
  private static final RecordValue VALUE = RecordValue.of(new UnsafeBuffer(new byte[] {1}), 0, 1);

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** A broker that leads partition 1 and answers commands as {@code answers} says. */
  private BrokerApiServer leader(Supplier<CompletableFuture<Answer>> answers) {
    return leader(answers, () -> true, new CountDownLatch(0));
  }

  /**
   * As above, with a state that is not known ({@code state()} throws, as while the broker starts)
   * until {@code started}; {@code subscribedEarly} counts down when a subscription asked for it
   * before.
   */
  private BrokerApiServer leader(
      Supplier<CompletableFuture<Answer>> answers,
      java.util.function.BooleanSupplier started,
      CountDownLatch subscribedEarly) {
    BrokerApiServer[] server = new BrokerApiServer[1];
    BrokerApiServer.Host host =
        new BrokerApiServer.Host() {
          @Override
          public CompletableFuture<Answer> request(
              int partitionId, Intent intent, long key, RecordValue value, long timeoutMs) {
            return answers.get();
          }

          @Override
          public Partitions partitions() {
            throw new UnsupportedOperationException();
          }

          @Override
          public BrokerState state() {
            if (!started.getAsBoolean()) {
              if (java.util.Arrays.stream(Thread.currentThread().getStackTrace())
                  .anyMatch(frame -> frame.getMethodName().contains("subscribe"))) {
                subscribedEarly.countDown();
              }
              throw new IllegalStateException("starting");
            }
            return new BrokerState(
                1, "127.0.0.1", server[0].port(), 0, List.of(new PartitionState(1, true, 1, true)));
          }

          @Override
          public BrokerJobStreams jobStreams() {
            return new BrokerJobStreams(JobStreams.NONE);
          }

          @Override
          public CompletableFuture<Map<Integer, String>> rebalanceLocal() {
            return CompletableFuture.completedFuture(Map.of());
          }
        };
    // Its callers all connect from 127.0.0.1, so they count as brokers: any command goes.
    server[0] =
        BrokerApiServer.start(
            host,
            "127.0.0.1",
            0,
            new BrokerIdentity(() -> java.util.Set.of("127.0.0.1")),
            new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    return server[0];
  }

  private ClusterPartitions gatewayTo(int port) throws InterruptedException {
    return gatewayTo(port, true);
  }

  private ClusterPartitions gatewayTo(int port, boolean leaderExpected)
      throws InterruptedException {
    ClusterClient cluster =
        new ClusterClient(List.of(new InetSocketAddress("127.0.0.1", port)), -1, 1).start();
    open.add(cluster::close);
    if (leaderExpected) {
      Awaitility.await("the leader of partition 1 known")
          .atMost(Duration.ofSeconds(10))
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(5))
          .until(() -> cluster.leaderOf(1) >= 0);
    }
    return new ClusterPartitions(ClusterPartitions.Local.NONE, cluster);
  }

  private static Throwable failureOf(CompletableFuture<Answer> answer) {
    try {
      answer.get(30, TimeUnit.SECONDS);
      throw new AssertionError("answered: " + answer.join());
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aSubscriberThatCameBeforeTheBrokersStateIsKnownLearnsItOnceItIs() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean started =
        new java.util.concurrent.atomic.AtomicBoolean();
    CountDownLatch subscribedEarly = new CountDownLatch(1);
    BrokerApiServer leader = leader(CompletableFuture::new, started::get, subscribedEarly);
    ClusterClient cluster =
        new ClusterClient(List.of(new InetSocketAddress("127.0.0.1", leader.port())), -1, 1)
            .start();
    open.add(cluster::close);
    assertThat(subscribedEarly.await(10, TimeUnit.SECONDS))
        .as("the client subscribed while the broker's state was not known")
        .isTrue();
    started.set(true);
    // Once the state was the one thing a subscription waited for, and it never came.
    Awaitility.await("the leader of partition 1 known")
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .until(() -> cluster.leaderOf(1) >= 0);
  }

  @Test
  void aConnectionBrokenAfterTheCommandLeftIsAnUnknownOutcomeAndNotSentAgain() throws Exception {
    AtomicInteger received = new AtomicInteger();
    CountDownLatch arrived = new CountDownLatch(1);
    BrokerApiServer leader =
        leader(
            () -> {
              received.incrementAndGet();
              arrived.countDown();
              return new CompletableFuture<>(); // written, never answered: then the broker dies
            });
    ClusterPartitions partitions = gatewayTo(leader.port());

    CompletableFuture<Answer> answer = partitions.request(1, JobIntent.COMPLETE, -1, VALUE, 20_000);
    assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
    leader.close();

    assertThat(failureOf(answer))
        .isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("partition 1's leader (node 1)")
        .hasMessageContaining("after the command was sent")
        .hasMessageContaining("may have been written");
    assertThat(received).as("never sent again").hasValue(1);
  }

  @Test
  void aRefusalBeforeTheWriteIsSentAgainUntilTheLeaderTakesIt() throws Exception {
    AtomicInteger received = new AtomicInteger();
    BrokerApiServer leader =
        leader(
            () ->
                received.incrementAndGet() == 1
                    ? CompletableFuture.failedFuture(
                        new NotWrittenException("partition 1 is not led here any more", false))
                    : CompletableFuture.completedFuture(
                        new Answer(1, RejectionType.NONE, "", 42, new byte[0])));
    open.add(leader);
    ClusterPartitions partitions = gatewayTo(leader.port());

    Answer answer =
        partitions.request(1, JobIntent.COMPLETE, -1, VALUE, 20_000).get(30, TimeUnit.SECONDS);

    assertThat(answer.key()).isEqualTo(42);
    assertThat(received).hasValue(2);
  }

  @Test
  void eachForwardedCallIsTimedByMethodBrokerAndCode() throws Exception {
    AtomicInteger received = new AtomicInteger();
    BrokerApiServer leader =
        leader(
            () ->
                received.incrementAndGet() == 1
                    ? CompletableFuture.failedFuture(
                        new NotWrittenException("partition 1 is not led here any more", false))
                    : CompletableFuture.completedFuture(
                        new Answer(1, RejectionType.NONE, "", 42, new byte[0])));
    open.add(leader);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ClusterClient cluster =
        new ClusterClient(List.of(new InetSocketAddress("127.0.0.1", leader.port())), -1, 1)
            .timeCallsIn(registry)
            .start();
    open.add(cluster::close);
    Awaitility.await("the leader of partition 1 known")
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .until(() -> cluster.leaderOf(1) >= 0);
    ClusterPartitions partitions = new ClusterPartitions(ClusterPartitions.Local.NONE, cluster);

    partitions.request(1, JobIntent.COMPLETE, -1, VALUE, 20_000).get(30, TimeUnit.SECONDS);

    // The refused first try and the answered second, each as the call it was. A call's timer is
    // stopped in the call's own completion, which can follow the answer the caller got.
    Awaitility.await("both calls timed")
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .until(
            () ->
                registry.find(CallTimers.NAME).timers().stream().mapToLong(t -> t.count()).sum()
                    == 2);
    assertThat(registry.find(CallTimers.NAME).timers())
        .allMatch(t -> "Execute".equals(t.getId().getTag("method")))
        .allMatch(t -> "1".equals(t.getId().getTag("node")))
        .extracting(t -> t.getId().getTag("code") + "=" + t.count())
        .contains("OK=1")
        .hasSize(2);
  }

  @Test
  void aFullPartitionIsAnsweredAtOnceAsNotWritten() throws Exception {
    BrokerApiServer leader =
        leader(
            () ->
                CompletableFuture.failedFuture(
                    new NotWrittenException("partition 1 is at its limit of 5", true)));
    open.add(leader);
    ClusterPartitions partitions = gatewayTo(leader.port());

    assertThat(failureOf(partitions.request(1, JobIntent.COMPLETE, -1, VALUE, 20_000)))
        .isInstanceOfSatisfying(NotWrittenException.class, e -> assertThat(e.exhausted()).isTrue())
        .hasMessageContaining("at its limit of 5");
  }

  @Test
  void withoutALeaderTheCommandIsNotWritten() throws Exception {
    int nobody = io.tern.engine.broker.BrokerProcess.freePort(); // connections refused
    ClusterPartitions partitions = gatewayTo(nobody, false);
    long startNs = System.nanoTime();

    Throwable failure = failureOf(partitions.request(1, JobIntent.COMPLETE, -1, VALUE, 20_000));

    assertThat(failure)
        .isInstanceOfSatisfying(NotWrittenException.class, e -> assertThat(e.exhausted()).isFalse())
        .hasMessageContaining("no known leader");
    assertThat(Duration.ofNanos(System.nanoTime() - startNs))
        .as("it waited for a leader first")
        .isGreaterThanOrEqualTo(Duration.ofMillis(ClusterPartitions.LEADER_WAIT_MS));
  }

  @Test
  void aCommandOfUnknownCodesIsRefusedNamingThemAndNotWritten() throws Exception {
    AtomicInteger received = new AtomicInteger();
    BrokerApiServer leader =
        leader(
            () -> {
              received.incrementAndGet();
              return new CompletableFuture<>();
            });
    open.add(leader);
    ClusterClient cluster =
        new ClusterClient(List.of(new InetSocketAddress("127.0.0.1", leader.port())), -1, 1)
            .start();
    open.add(cluster::close);
    Awaitility.await("the leader of partition 1 known")
        .atMost(Duration.ofSeconds(10))
        .until(() -> cluster.leaderOf(1) >= 0);

    // From a newer broker, say: JOB (13) with an intent this one does not know.
    byte[] unknown = new BrokerMessages.Execute(1, 13, 99, -1, true, new byte[] {1}).encode();
    CompletableFuture<byte[]> call =
        cluster.call(cluster.leaderOf(1), BrokerApi.EXECUTE, unknown, 10_000);

    Throwable failure =
        org.assertj.core.api.Assertions.catchThrowable(() -> call.get(30, TimeUnit.SECONDS));
    assertThat(failure).hasCauseInstanceOf(io.grpc.StatusRuntimeException.class);
    io.grpc.Status status = ((io.grpc.StatusRuntimeException) failure.getCause()).getStatus();
    assertThat(status.getCode()).isEqualTo(io.grpc.Status.Code.INVALID_ARGUMENT);
    assertThat(status.getDescription()).contains("unknown command JOB intent (13/99)");
    assertThat(received).as("never handed to a partition").hasValue(0);
  }
}
