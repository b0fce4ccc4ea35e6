package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.CredentialsProvider;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.netty.handler.ssl.SslContextBuilder;
import io.tern.engine.gateway.auth.TestIssuer;
import io.tern.engine.tls.TestPki;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cluster TLS (network.security.*) on three brokers: the official client over gateway TLS and with
 * OAuth tokens through a standalone gateway that calls the brokers with its own certificate (issue
 * 44's "done when": everything secured at once still completes instances, and a call without a
 * token is refused); the command API refuses callers without a cluster certificate. Brokers that
 * are refused (no certificate, another CA, expired, another address): ClusterTlsRefusalTest.
 */
@Tag("slow") // three-broker clusters over TLS: docs/testing.md
class ClusterTlsTest {
  @TempDir Path dir;

  /** Cluster and gateway TLS for every broker and the standalone gateway, from {@code ca}. */
  private static Map<String, String> tls(TestPki ca, TestPki.Issued certificate) {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_NETWORK_SECURITY_ENABLED", "true");
    settings.put("TERN_NETWORK_SECURITY_CERTIFICATECHAINPATH", certificate.chain().toString());
    settings.put("TERN_NETWORK_SECURITY_PRIVATEKEYPATH", certificate.key().toString());
    settings.put("TERN_NETWORK_SECURITY_TRUSTEDCERTIFICATESPATH", ca.caCertificate().toString());
    settings.put("TERN_GATEWAY_SECURITY_ENABLED", "true");
    settings.put("TERN_GATEWAY_SECURITY_CERTIFICATECHAINPATH", certificate.chain().toString());
    settings.put("TERN_GATEWAY_SECURITY_PRIVATEKEYPATH", certificate.key().toString());
    return settings;
  }

  /** Gateway TLS, cluster TLS and OAuth on a cluster of three with a replica on each broker. */
  @Test
  void theOfficialClientOverTlsWithOAuthCompletesInstancesOnAClusterWithClusterTls()
      throws Exception {
    TestPki ca = new TestPki(dir, "cluster");
    TestPki.Issued broker = ca.issue("broker", "127.0.0.1");
    Map<String, String> secured = tls(ca, broker);
    try (TestIssuer issuer = new TestIssuer()) {
      secured.put("TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE", "oauth");
      secured.put("TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_ISSUERURI", issuer.issuer());
      try (TestCluster cluster = new TestCluster(dir, 3, 2, 3, secured).start()) {
        cluster.awaitReady(Duration.ofSeconds(30));
        CredentialsProvider oauth =
            CredentialsProvider.newCredentialsProviderBuilder()
                .authorizationServerUrl(issuer.tokenEndpoint().toString())
                .clientId("tern-worker")
                .clientSecret("secret-of-tern-worker")
                .audience(TestIssuer.AUDIENCE)
                .credentialsCachePath(dir.resolve("credentials").toString())
                .build();
        completeInstances(cluster, ca, oauth);
        try (CamundaClient anonymous = tlsClient(cluster, ca, NO_TOKEN)) {
          assertThatThrownBy(
                  () ->
                      anonymous
                          .newCreateInstanceCommand()
                          .bpmnProcessId("mutual")
                          .latestVersion()
                          .send()
                          .join())
              .isInstanceOfSatisfying(
                  ClientStatusException.class,
                  e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        }
        assertCommandApiNeedsAClusterCertificate(cluster, ca, broker);
      }
    }
  }

  /** Sends no Authorization header (without a provider the client would look for one in env). */
  private static final CredentialsProvider NO_TOKEN =
      new CredentialsProvider() {
        @Override
        public void applyCredentials(CredentialsApplier applier) {}

        @Override
        public boolean shouldRetryRequest(StatusCode status) {
          return false;
        }
      };

  private static CamundaClient tlsClient(
      TestCluster cluster, TestPki ca, CredentialsProvider credentials) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("https://127.0.0.1:" + cluster.gateway().port()))
        .caCertificatePath(ca.caCertificate().toString())
        .credentialsProvider(credentials)
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(Duration.ofSeconds(15))
        .build();
  }

  /** Deploys a one-task process, works its jobs and completes instances on both partitions. */
  private static void completeInstances(
      TestCluster cluster, TestPki ca, CredentialsProvider credentials) {
    try (CamundaClient client = tlsClient(cluster, ca, credentials)) {
      Awaitility.await("the gateway knows every partition's leader")
          .atMost(Duration.ofSeconds(15))
          .until(() -> cluster.gateway().awaitLeaders(Duration.ofMillis(100)));
      client
          .newDeployResourceCommand()
          .addResourceBytes(
              Bpmn.convertToString(
                      Bpmn.createExecutableProcess("mutual")
                          .startEvent()
                          .serviceTask("check", task -> task.zeebeJobType("check"))
                          .endEvent()
                          .done())
                  .getBytes(StandardCharsets.UTF_8),
              "mutual.bpmn")
          .send()
          .join();
      client
          .newWorker()
          .jobType("check")
          .handler(
              (jobClient, job) ->
                  jobClient
                      .newCompleteCommand(job)
                      .variables(Map.of("checked", true))
                      .send()
                      .join())
          .open();
      for (int i = 0; i < 4; i++) { // round robin: instances on both partitions
        assertThat(createWithResult(client).getVariablesAsMap()).containsEntry("checked", true);
      }
    }
  }

  /**
   * Creates an instance and waits for its result, again if a leader changed meanwhile (on a busy
   * machine three brokers in one JVM can elect mid-test): TLS is what this test checks, and an
   * answer that never came is the documented retryable outcome of a leader change.
   */
  private static ProcessInstanceResult createWithResult(CamundaClient client) {
    for (int attempt = 1; ; attempt++) {
      try {
        return client
            .newCreateInstanceCommand()
            .bpmnProcessId("mutual")
            .latestVersion()
            .withResult()
            .send()
            .join();
      } catch (ClientStatusException e) {
        boolean retryable =
            e.getStatusCode() == Status.Code.DEADLINE_EXCEEDED
                || e.getStatusCode() == Status.Code.UNAVAILABLE;
        if (!retryable || attempt == 3) {
          throw e;
        }
      }
    }
  }

  /** Without a certificate of the cluster's CA, the command API answers nothing. */
  private static void assertCommandApiNeedsAClusterCertificate(
      TestCluster cluster, TestPki ca, TestPki.Issued broker) throws Exception {
    Path dir = ca.caCertificate().getParent(); // a stranger's CA next to the cluster's
    int commandPort = cluster.broker(1).commandPort();
    assertThat(commandApiCall(commandPort, null, null)).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(commandApiCall(commandPort, ca, null)).isEqualTo(Status.Code.UNAVAILABLE);
    TestPki.Issued stranger = new TestPki(dir, "strangers").issue("stranger", "127.0.0.1");
    assertThat(commandApiCall(commandPort, ca, stranger)).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(commandApiCall(commandPort, ca, broker)).isNotEqualTo(Status.Code.UNAVAILABLE);
  }

  /**
   * A call to the command API at {@code port}: plaintext without {@code ca}, else TLS trusting it
   * and presenting {@code certificate} (null: none). Its status.
   */
  private static Status.Code commandApiCall(int port, TestPki ca, TestPki.Issued certificate)
      throws Exception {
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", port);
    if (ca == null) {
      builder.usePlaintext();
    } else {
      SslContextBuilder tls = GrpcSslContexts.forClient().trustManager(ca.caCertificate().toFile());
      if (certificate != null) {
        tls.keyManager(certificate.chain().toFile(), certificate.key().toFile());
      }
      builder.sslContext(tls.build());
    }
    ManagedChannel channel = builder.build();
    try {
      ClientCalls.blockingUnaryCall(
          channel,
          REBALANCE,
          CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
          new byte[0]);
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    } finally {
      channel.shutdownNow();
    }
  }

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
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

  private static final MethodDescriptor<byte[], byte[]> REBALANCE =
      MethodDescriptor.<byte[], byte[]>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName("tern.BrokerApi/Rebalance")
          .setRequestMarshaller(BYTES)
          .setResponseMarshaller(BYTES)
          .build();
}
