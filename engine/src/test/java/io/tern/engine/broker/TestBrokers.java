package io.tern.engine.broker;

import io.camunda.client.CamundaClient;
import io.tern.engine.gateway.GatewayJobStreams;
import io.tern.engine.log.LogStorage;
import io.tern.engine.log.RaftLogStorage;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.UserTaskValue;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/** Brokers for tests: loopback, ports chosen by the system, fast elections, no disk watermark. */
final class TestBrokers {
  private TestBrokers() {}

  /** The management token every test broker has (TERN_MANAGEMENT_SECURITY_TOKEN). */
  static final String MANAGEMENT_TOKEN = "test-management-token-0123456789";

  /** The header value that carries it. */
  static final String BEARER = "Bearer " + MANAGEMENT_TOKEN;

  /** A configuration with its data under {@code dir}, plus {@code extra} TERN_* settings. */
  static BrokerConfig config(Path dir, Map<String, String> extra) {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_DATA_DIRECTORY", dir.resolve("data").toString());
    settings.put("TERN_NETWORK_HOST", "127.0.0.1");
    settings.put("TERN_NETWORK_COMMANDPORT", "0");
    settings.put("TERN_NETWORK_INTERNALPORT", "0");
    settings.put("TERN_GATEWAY_PORT", "0");
    settings.put("TERN_GATEWAY_REST_PORT", "0");
    settings.put("TERN_MANAGEMENT_PORT", "0");
    settings.put("TERN_DATA_DISK_MINFREEBYTES", "0");
    // Off, as most tests are not about it (HistoryStoreTest is): an H2 store and its migrations
    // would cost every broker start here.
    settings.put("TERN_EXPORTING_HISTORY_ENABLED", "false");
    settings.put("TERN_RAFT_ELECTIONTIMEOUTMS", "300");
    settings.put("TERN_RAFT_HEARTBEATINTERVALMS", "50");
    settings.put("TERN_MANAGEMENT_SECURITY_TOKEN", MANAGEMENT_TOKEN);
    settings.putAll(extra);
    return BrokerConfigLoader.load(null, settings);
  }

  /** A test resource under /bpmn/, as the Camunda Modeler saved it. */
  static byte[] resource(String name) throws IOException {
    try (InputStream in = TestBrokers.class.getResourceAsStream("/bpmn/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource /bpmn/" + name);
      }
      return in.readAllBytes();
    }
  }

  /** The official client, over gRPC, to {@code broker}'s gateway. */
  static CamundaClient client(Broker broker) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://127.0.0.1:" + broker.gatewayPort()))
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(Duration.ofSeconds(10))
        .build();
  }

  /**
   * Waits until an ActivateJobs request for {@code jobType} is parked at {@code streams}' gateway.
   */
  static void awaitParked(GatewayJobStreams streams, String jobType) {
    Awaitility.await("an ActivateJobs request for '" + jobType + "' parked")
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .until(() -> streams.parkedRequests().getOrDefault(jobType, 0) > 0);
  }

  /** Waits until a job stream for {@code jobType} is open at {@code streams}' gateway. */
  static void awaitStreamOpen(GatewayJobStreams streams, String jobType) {
    Awaitility.await("a job stream for '" + jobType + "' open")
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .until(() -> streams.openStreams().getOrDefault(jobType, 0) > 0);
  }

  /**
   * The key of the incident created for {@code instance}, read from the partition's committed log
   * (the gRPC API has no queries; users see incidents through exporters).
   */
  static long awaitIncidentKey(Broker broker, long instance) {
    return Awaitility.await("an incident for instance " + instance)
        .atMost(Duration.ofSeconds(5))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> incidentKey(broker, instance), key -> key >= 0);
  }

  /**
   * The key of the Camunda user task of process {@code bpmnProcessId} committed first, once one is
   * (Tern serves no task search yet: a client would find it in its exported records).
   */
  static long awaitUserTaskKey(Broker broker, String bpmnProcessId) {
    return Awaitility.await("a user task of " + bpmnProcessId)
        .atMost(Duration.ofSeconds(5))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> userTaskKey(broker, bpmnProcessId), key -> key >= 0);
  }

  private static long userTaskKey(Broker broker, String bpmnProcessId) {
    UserTaskValue task = new UserTaskValue();
    long[] found = {-1};
    readLog(
        broker,
        record -> {
          if (record.intent() == UserTaskIntent.CREATED
              && task.<UserTaskValue>readFrom(record.value()).bpmnProcessId.equals(bpmnProcessId)) {
            found[0] = record.key();
            return false;
          }
          return true;
        });
    return found[0];
  }

  /** The key of the committed incident of {@code instance}, or -1. */
  private static long incidentKey(Broker broker, long instance) {
    IncidentValue incident = new IncidentValue();
    long[] key = {-1};
    readLog(
        broker,
        record -> {
          if (record.valueType() == ValueType.INCIDENT
              && record.intent() == IncidentIntent.CREATED
              && record.isEvent()
              && incident.<IncidentValue>readFrom(record.value()).processInstanceKey == instance) {
            key[0] = record.key();
            return false;
          }
          return true;
        });
    return key[0];
  }

  /** Every record committed to partition 1's log so far. */
  static long committedRecords(Broker broker) {
    long[] count = {0};
    readLog(
        broker,
        record -> {
          count[0]++;
          return true;
        });
    return count[0];
  }

  /**
   * Hands each record committed to partition 1's log, from the first, to {@code visit} until it
   * returns false (the record is reused: read what is needed before returning).
   */
  static void readLog(Broker broker, Predicate<LoggedRecord> visit) {
    RecordBatch batch = new RecordBatch();
    RaftLogStorage log = new RaftLogStorage();
    log.bind(broker.partitions().get(0).raft());
    try (LogStorage.Reader reader = log.newReader()) {
      reader.seekToIndex(0);
      while (reader.hasNext()) {
        LogStorage.Entry entry = reader.next();
        batch.wrap(entry.data(), entry.offset(), entry.length());
        while (batch.hasNext()) {
          if (!visit.test(batch.next())) {
            return;
          }
        }
      }
    }
  }

  /**
   * The first column of every row {@code sql} selects from the database at {@code url}, as text (a
   * history store the broker writes); a failed query throws {@link IllegalStateException}.
   */
  static List<String> sqlRows(String url, String sql) {
    List<String> rows = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        rows.add(result.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
    return rows;
  }
}
