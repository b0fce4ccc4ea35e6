package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BroadcastSignalRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluateDecisionRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.FailJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ResolveIncidentRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Resource;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.SetVariablesRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobRetriesRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobTimeoutRequest;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Hostile requests at the gateway while valid traffic runs: invalid BPMN and XML bombs, malformed,
 * deeply nested and oversized variables, unknown keys and ids, negative or absurd retries and
 * timeouts, oversized names and messages. Each gets a clear gRPC status of its kind (never UNKNOWN
 * or INTERNAL, never a hang), sent raw over gRPC so that the official client's own checks do not
 * stop it first. Meanwhile the official client creates instances with result and a worker completes
 * their jobs: every one of them must complete with its variables, none may fail.
 */
// jqwik's own Tag: a property class runs on the jqwik engine, which ignores Jupiter's.
@net.jqwik.api.Tag("slow") // a broker end to end, through its gateway: docs/testing.md
class HostileRequestsTest {
  /** The gateway's limit on one request (Zeebe's default). */
  private static final int REQUEST_LIMIT_BYTES = 4 * 1024 * 1024;

  private static Path dir;
  private static Broker broker;
  private static CamundaClient client;
  private static ManagedChannel channel;
  private static JobWorker worker;
  private static Thread traffic;
  private static final AtomicBoolean running = new AtomicBoolean(true);
  private static final AtomicLong completed = new AtomicLong();
  private static final ConcurrentLinkedQueue<String> trafficFailures =
      new ConcurrentLinkedQueue<>();

  /** One hostile request: what it is, how to send it, and the statuses that answer it well. */
  record Hostile(String what, Consumer<GatewayGrpc.GatewayBlockingStub> send, Set<Status.Code> ok) {
    @Override
    public String toString() {
      return what;
    }
  }

  @BeforeContainer
  static void startBrokerAndValidTraffic() throws Exception {
    dir = Files.createTempDirectory("hostile");
    broker = Broker.start(TestBrokers.config(dir, Map.of()));
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
    client = TestBrokers.client(broker);
    channel =
        NettyChannelBuilder.forAddress("127.0.0.1", broker.gatewayPort()).usePlaintext().build();
    client
        .newDeployResourceCommand()
        .addProcessModel(
            Bpmn.createExecutableProcess("steady")
                .startEvent("start")
                .serviceTask("work", t -> t.zeebeJobType("steady-work"))
                .endEvent("end")
                .done(),
            "steady.bpmn")
        .send()
        .join();
    worker =
        client
            .newWorker()
            .jobType("steady-work")
            .handler(
                (jobs, job) ->
                    jobs.newCompleteCommand(job.getKey())
                        .variables(Map.of("done", job.getVariablesAsMap().get("n")))
                        .send()
                        .join())
            .open();
    traffic = new Thread(HostileRequestsTest::validTraffic, "valid-traffic");
    traffic.start();
  }

  /** Instances with result, one after another: each must complete with what it was given. */
  private static void validTraffic() {
    long n = 0;
    while (running.get()) {
      n++;
      try {
        ProcessInstanceResult result =
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("steady")
                .latestVersion()
                .variables(Map.of("n", n))
                .withResult()
                .requestTimeout(Duration.ofSeconds(30))
                .send()
                .join();
        if (((Number) result.getVariablesAsMap().get("done")).longValue() != n) {
          trafficFailures.add("instance " + n + " ended with " + result.getVariablesAsMap());
        }
        completed.incrementAndGet();
      } catch (ClientStatusException e) {
        if (e.getStatus().getCode() != Status.Code.RESOURCE_EXHAUSTED) {
          trafficFailures.add("instance " + n + ": " + e.getStatus());
        } // else backpressure: try again
      } catch (RuntimeException e) {
        trafficFailures.add("instance " + n + ": " + e);
      }
    }
  }

  @AfterContainer
  static void validTrafficWasUnaffected() throws Exception {
    try {
      long before = completed.get();
      // Valid traffic still completes after the last hostile request.
      org.awaitility.Awaitility.await("valid instances after the hostile requests")
          .atMost(Duration.ofSeconds(60))
          .until(() -> completed.get() > before + 2 || !trafficFailures.isEmpty());
      running.set(false);
      if (traffic != null) {
        traffic.join(TimeUnit.SECONDS.toMillis(60));
      }
      assertThat(trafficFailures).as("valid traffic beside hostile requests").isEmpty();
      assertThat(completed.get()).as("valid instances completed").isGreaterThan(before + 2);
    } finally {
      if (worker != null) {
        worker.close();
      }
      if (channel != null) {
        channel.shutdownNow();
      }
      if (client != null) {
        client.close();
      }
      if (broker != null) {
        broker.close();
      }
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException e) {
        // a temporary directory left behind
      }
    }
  }

  @Property(tries = 120, seed = "20261127")
  void everyHostileRequestGetsAClearStatusOfItsKind(@ForAll("hostile") Hostile request) {
    GatewayGrpc.GatewayBlockingStub stub =
        GatewayGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS);
    StatusRuntimeException refused = null;
    for (int attempt = 0; attempt < 10 && refused == null; attempt++) {
      try {
        request.send().accept(stub);
        throw new AssertionError(request + " was accepted");
      } catch (StatusRuntimeException e) {
        boolean backpressure =
            e.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED
                && !request.ok().contains(Status.Code.RESOURCE_EXHAUSTED);
        if (!backpressure) {
          refused = e;
        }
      }
    }
    assertThat(refused).as(request + ": refused").isNotNull();
    assertThat(refused.getStatus().getCode()).as(request.what()).isIn(request.ok());
    assertThat(refused.getStatus().getDescription())
        .as(request + ": a status that says what is wrong")
        .isNotBlank()
        .hasSizeGreaterThan(10);
  }

  @Provide
  Arbitrary<Hostile> hostile() {
    return Arbitraries.oneOf(
        badResources(), badVariables(), unknownKeys(), absurdNumbers(), badNames(), oversized());
  }

  private static final Set<Status.Code> INVALID = Set.of(Status.Code.INVALID_ARGUMENT);
  private static final Set<Status.Code> NOT_FOUND =
      Set.of(Status.Code.NOT_FOUND, Status.Code.INVALID_ARGUMENT);
  private static final Set<Status.Code> TOO_LARGE =
      Set.of(Status.Code.RESOURCE_EXHAUSTED, Status.Code.INVALID_ARGUMENT);

  private static Arbitrary<Hostile> badResources() {
    Arbitrary<Hostile> garbage =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMinSize(1)
            .ofMaxSize(4000)
            .map(bytes -> deploy("garbage of " + bytes.length + " bytes", "x.bpmn", bytes));
    Arbitrary<Hostile> truncated =
        Arbitraries.integers()
            .between(1, validBpmn().length - 20)
            .map(
                cut ->
                    deploy(
                        "BPMN cut at byte " + cut,
                        "cut.bpmn",
                        java.util.Arrays.copyOf(validBpmn(), cut)));
    Arbitrary<Hostile> bomb =
        Arbitraries.integers()
            .between(3, 12)
            .map(
                levels ->
                    deploy("an XML bomb of " + levels + " levels", "bomb.bpmn", bomb(levels)));
    Arbitrary<Hostile> external =
        Arbitraries.of("file:///etc/passwd", "http://127.0.0.1:1/x")
            .map(
                url ->
                    deploy(
                        "an external entity " + url,
                        "xxe.bpmn",
                        ("<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY e SYSTEM \""
                                + url
                                + "\">]><definitions>&e;</definitions>")
                            .getBytes(StandardCharsets.UTF_8)));
    Arbitrary<Hostile> longId =
        Arbitraries.integers()
            .between(4097, 70_000)
            .map(
                length ->
                    deploy(
                        "a process id of " + length + " characters",
                        "long-id.bpmn",
                        Bpmn.convertToString(
                                Bpmn.createExecutableProcess("p".repeat(length))
                                    .startEvent("start")
                                    .endEvent("end")
                                    .done())
                            .getBytes(StandardCharsets.UTF_8)));
    Arbitrary<Hostile> unknownType =
        Arbitraries.of("x.txt", "x.exe", "", "x.bpmn.zip")
            .map(name -> deploy("a resource named '" + name + "'", name, validBpmn()));
    return Arbitraries.oneOf(garbage, truncated, bomb, external, longId, unknownType);
  }

  private static Arbitrary<Hostile> badVariables() {
    Arbitrary<String> malformed =
        Arbitraries.oneOf(
            Arbitraries.of(
                "not json", "[1, 2]", "\"text\"", "42", "{\"a\":", "{a: 1}", "{\"a\" 1}"),
            Arbitraries.integers().between(257, 5000).map(HostileRequestsTest::nested));
    return malformed.flatMap(
        json ->
            Arbitraries.of(
                new Hostile(
                    "create with variables " + abbreviate(json),
                    stub ->
                        stub.createProcessInstance(
                            CreateProcessInstanceRequest.newBuilder()
                                .setBpmnProcessId("steady")
                                .setVersion(-1)
                                .setVariables(json)
                                .build()),
                    INVALID),
                new Hostile(
                    "publish with variables " + abbreviate(json),
                    stub ->
                        stub.publishMessage(
                            PublishMessageRequest.newBuilder()
                                .setName("hostile")
                                .setCorrelationKey("k")
                                .setVariables(json)
                                .build()),
                    INVALID),
                new Hostile(
                    "broadcast with variables " + abbreviate(json),
                    stub ->
                        stub.broadcastSignal(
                            BroadcastSignalRequest.newBuilder()
                                .setSignalName("hostile")
                                .setVariables(json)
                                .build()),
                    INVALID)));
  }

  private static Arbitrary<Hostile> unknownKeys() {
    Arbitrary<Long> keys =
        Arbitraries.oneOf(
            Arbitraries.longs().between(1, Long.MAX_VALUE),
            Arbitraries.longs().between(Long.MIN_VALUE, 0));
    return keys.flatMap(
        key ->
            Arbitraries.of(
                new Hostile(
                    "complete unknown job " + key,
                    stub ->
                        stub.completeJob(CompleteJobRequest.newBuilder().setJobKey(key).build()),
                    NOT_FOUND),
                new Hostile(
                    "fail unknown job " + key,
                    stub ->
                        stub.failJob(
                            FailJobRequest.newBuilder().setJobKey(key).setRetries(1).build()),
                    NOT_FOUND),
                new Hostile(
                    "cancel unknown instance " + key,
                    stub ->
                        stub.cancelProcessInstance(
                            CancelProcessInstanceRequest.newBuilder()
                                .setProcessInstanceKey(key)
                                .build()),
                    NOT_FOUND),
                new Hostile(
                    "set variables on unknown element " + key,
                    stub ->
                        stub.setVariables(
                            SetVariablesRequest.newBuilder()
                                .setElementInstanceKey(key)
                                .setVariables("{\"a\": 1}")
                                .build()),
                    NOT_FOUND),
                new Hostile(
                    "resolve unknown incident " + key,
                    stub ->
                        stub.resolveIncident(
                            ResolveIncidentRequest.newBuilder().setIncidentKey(key).build()),
                    NOT_FOUND),
                new Hostile(
                    "create unknown process definition " + key,
                    stub ->
                        stub.createProcessInstance(
                            CreateProcessInstanceRequest.newBuilder()
                                .setProcessDefinitionKey(key)
                                .build()),
                    NOT_FOUND),
                new Hostile(
                    "evaluate unknown decision " + key,
                    stub ->
                        stub.evaluateDecision(
                            EvaluateDecisionRequest.newBuilder().setDecisionKey(key).build()),
                    NOT_FOUND)));
  }

  private static Arbitrary<Hostile> absurdNumbers() {
    Arbitrary<Integer> negative = Arbitraries.integers().between(Integer.MIN_VALUE, -1);
    Arbitrary<Long> negativeLong = Arbitraries.longs().between(Long.MIN_VALUE, -1);
    return Arbitraries.oneOf(
        negative.map(
            retries ->
                new Hostile(
                    "update retries to " + retries,
                    stub ->
                        stub.updateJobRetries(
                            UpdateJobRetriesRequest.newBuilder()
                                .setJobKey(1)
                                .setRetries(retries)
                                .build()),
                    NOT_FOUND)),
        negativeLong.map(
            timeout ->
                new Hostile(
                    "update timeout to " + timeout,
                    stub ->
                        stub.updateJobTimeout(
                            UpdateJobTimeoutRequest.newBuilder()
                                .setJobKey(1)
                                .setTimeout(timeout)
                                .build()),
                    NOT_FOUND)),
        Arbitraries.integers()
            .between(Integer.MIN_VALUE, 0)
            .map(
                max ->
                    new Hostile(
                        "activate at most " + max + " jobs",
                        stub ->
                            stub.activateJobs(
                                    ActivateJobsRequest.newBuilder()
                                        .setType("hostile")
                                        .setMaxJobsToActivate(max)
                                        .setTimeout(1000)
                                        .build())
                                .forEachRemaining(response -> {}),
                        INVALID)),
        negativeLong.map(
            timeout ->
                new Hostile(
                    "activate jobs for " + timeout + " ms",
                    stub ->
                        stub.activateJobs(
                                ActivateJobsRequest.newBuilder()
                                    .setType("hostile")
                                    .setMaxJobsToActivate(1)
                                    .setTimeout(timeout)
                                    .build())
                            .forEachRemaining(response -> {}),
                    INVALID)),
        negativeLong.map(
            ttl ->
                new Hostile(
                    "publish with time to live " + ttl,
                    stub ->
                        stub.publishMessage(
                            PublishMessageRequest.newBuilder()
                                .setName("hostile")
                                .setCorrelationKey("k")
                                .setTimeToLive(ttl)
                                .build()),
                    INVALID)),
        Arbitraries.integers()
            .between(2, Integer.MAX_VALUE)
            .map(
                version ->
                    new Hostile(
                        "create version " + version,
                        stub ->
                            stub.createProcessInstance(
                                CreateProcessInstanceRequest.newBuilder()
                                    .setBpmnProcessId("steady")
                                    .setVersion(version)
                                    .build()),
                        NOT_FOUND)));
  }

  private static Arbitrary<Hostile> badNames() {
    Arbitrary<String> longName =
        Arbitraries.integers().between(1025, 100_000).map(length -> "n".repeat(length));
    return Arbitraries.oneOf(
        Arbitraries.of("", " ")
            .map(
                name ->
                    new Hostile(
                        "publish a message named '" + name + "'",
                        stub ->
                            stub.publishMessage(
                                PublishMessageRequest.newBuilder()
                                    .setName(name)
                                    .setCorrelationKey("k")
                                    .build()),
                        INVALID)),
        longName.map(
            name ->
                new Hostile(
                    "publish a message named with " + name.length() + " characters",
                    stub ->
                        stub.publishMessage(
                            PublishMessageRequest.newBuilder()
                                .setName(name)
                                .setCorrelationKey("k")
                                .build()),
                    INVALID)),
        longName.map(
            key ->
                new Hostile(
                    "publish with a correlation key of " + key.length() + " characters",
                    stub ->
                        stub.publishMessage(
                            PublishMessageRequest.newBuilder()
                                .setName("hostile")
                                .setCorrelationKey(key)
                                .build()),
                    INVALID)),
        Arbitraries.integers()
            .between(RequestTextsLimit.ID + 1, 200_000)
            .map(
                length ->
                    new Hostile(
                        "activate jobs of a type of " + length + " characters",
                        stub ->
                            stub.activateJobs(
                                    ActivateJobsRequest.newBuilder()
                                        .setType("t".repeat(length))
                                        .setMaxJobsToActivate(1)
                                        .setTimeout(1000)
                                        .build())
                                .forEachRemaining(response -> {}),
                        INVALID)),
        Arbitraries.integers()
            .between(RequestTextsLimit.ID + 1, 200_000)
            .map(
                length ->
                    new Hostile(
                        "activate jobs fetching a variable of " + length + " characters",
                        stub ->
                            stub.activateJobs(
                                    ActivateJobsRequest.newBuilder()
                                        .setType("hostile")
                                        .setMaxJobsToActivate(1)
                                        .setTimeout(1000)
                                        .addFetchVariable("v".repeat(length))
                                        .build())
                                .forEachRemaining(response -> {}),
                        INVALID)),
        Arbitraries.integers()
            .between(RequestTextsLimit.ID + 1, 200_000)
            .map(
                length ->
                    new Hostile(
                        "fail an unknown job with a message of " + length + " characters",
                        stub ->
                            stub.failJob(
                                FailJobRequest.newBuilder()
                                    .setJobKey(1)
                                    .setRetries(1)
                                    .setErrorMessage("m".repeat(length))
                                    .build()),
                        NOT_FOUND)),
        Arbitraries.of("", "no-such-process", "<script>", "x".repeat(300), "x".repeat(70_000))
            .map(
                id ->
                    new Hostile(
                        "create process '" + abbreviate(id) + "'",
                        stub ->
                            stub.createProcessInstance(
                                CreateProcessInstanceRequest.newBuilder()
                                    .setBpmnProcessId(id)
                                    .setVersion(-1)
                                    .build()),
                        NOT_FOUND)),
        Arbitraries.of("", " ")
            .map(
                name ->
                    new Hostile(
                        "broadcast a signal named '" + name + "'",
                        stub ->
                            stub.broadcastSignal(
                                BroadcastSignalRequest.newBuilder().setSignalName(name).build()),
                        INVALID)),
        Arbitraries.of("", " ")
            .map(
                type ->
                    new Hostile(
                        "activate jobs of type '" + type + "'",
                        stub ->
                            stub.activateJobs(
                                    ActivateJobsRequest.newBuilder()
                                        .setType(type)
                                        .setMaxJobsToActivate(1)
                                        .setTimeout(1000)
                                        .build())
                                .forEachRemaining(response -> {}),
                        INVALID)));
  }

  private static Arbitrary<Hostile> oversized() {
    Arbitrary<Integer> sizes =
        Arbitraries.integers().between(REQUEST_LIMIT_BYTES + 1, REQUEST_LIMIT_BYTES + 1_000_000);
    return Combinators.combine(sizes, Arbitraries.of("create", "deploy", "publish"))
        .as(
            (size, kind) -> {
              String json = "{\"big\": \"" + "x".repeat(size) + "\"}";
              return new Hostile(
                  kind + " of " + size + " bytes",
                  stub -> {
                    switch (kind) {
                      case "create" ->
                          stub.createProcessInstance(
                              CreateProcessInstanceRequest.newBuilder()
                                  .setBpmnProcessId("steady")
                                  .setVersion(-1)
                                  .setVariables(json)
                                  .build());
                      case "deploy" ->
                          stub.deployResource(
                              DeployResourceRequest.newBuilder()
                                  .addResources(
                                      Resource.newBuilder()
                                          .setName("big.bpmn")
                                          .setContent(ByteString.copyFromUtf8(json)))
                                  .build());
                      default ->
                          stub.publishMessage(
                              PublishMessageRequest.newBuilder()
                                  .setName("hostile")
                                  .setCorrelationKey("k")
                                  .setVariables(json)
                                  .build());
                    }
                  },
                  TOO_LARGE);
            });
  }

  /** The gateway's limit on identifiers (RequestTexts.MAX_ID_BYTES, package-private there). */
  private static final class RequestTextsLimit {
    static final int ID = 32 * 1024;
  }

  private static Hostile deploy(String what, String name, byte[] content) {
    return new Hostile(
        "deploy " + what,
        stub ->
            stub.deployResource(
                DeployResourceRequest.newBuilder()
                    .addResources(
                        Resource.newBuilder()
                            .setName(name)
                            .setContent(ByteString.copyFrom(content)))
                    .build()),
        INVALID);
  }

  private static byte[] validBpmn() {
    return Bpmn.convertToString(
            Bpmn.createExecutableProcess("hostile-valid")
                .startEvent("start")
                .serviceTask("work", t -> t.zeebeJobType("hostile-valid"))
                .endEvent("end")
                .done())
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The "billion laughs": each entity ten of the one before, {@code levels} deep. */
  private static byte[] bomb(int levels) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n");
    xml.append(" <!ENTITY lol0 \"lol\">\n");
    for (int level = 1; level <= levels; level++) {
      xml.append(" <!ENTITY lol").append(level).append(" \"");
      for (int i = 0; i < 10; i++) {
        xml.append("&lol").append(level - 1).append(';');
      }
      xml.append("\">\n");
    }
    xml.append("]>\n<definitions xmlns=\"http://www.omg.org/spec/BPMN/20100524/MODEL\">&lol")
        .append(levels)
        .append(";</definitions>");
    return xml.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A JSON object nested {@code depth} deep. */
  private static String nested(int depth) {
    return "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "... (" + text.length() + " chars)";
  }
}
