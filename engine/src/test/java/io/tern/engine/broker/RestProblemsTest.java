package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the REST API answers to requests that go wrong, as a plain HTTP client sees it: RFC 9457
 * problem documents with Camunda's status and title, and a detail that names what is wrong.
 */
@Tag("slow") // a broker end to end, through its REST port: docs/testing.md
class RestProblemsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String BOUNDARY = "tern-test-boundary";

  @TempDir static Path dir;
  private static Broker broker;

  @BeforeAll
  static void startBroker() throws InterruptedException {
    broker = Broker.start(TestBrokers.config(dir, Map.of("TERN_GATEWAY_MAXMESSAGESIZE", "64KB")));
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).as("the partition elects").isTrue();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  private record Answer(int status, String contentType, JsonNode body) {}

  private static Answer send(String method, String path, String contentType, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + broker.restPort() + path))
            .timeout(Duration.ofSeconds(10))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      request.header("content-type", contentType);
    }
    HttpResponse<String> response =
        HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(
        response.statusCode(),
        response.headers().firstValue("content-type").orElse(""),
        response.body().isEmpty() ? null : JSON.readTree(response.body()));
  }

  private static Answer postJson(String path, String json)
      throws IOException, InterruptedException {
    return send("POST", path, "application/json", json.getBytes(StandardCharsets.UTF_8));
  }

  /** Checks the problem's fields and returns its detail. */
  private static String problem(Answer answer, int status, String title, String instance) {
    assertThat(answer.status()).as("HTTP status").isEqualTo(status);
    assertThat(answer.contentType()).isEqualTo("application/problem+json");
    assertThat(answer.body().get("type").asText()).isEqualTo("about:blank");
    assertThat(answer.body().get("title").asText()).isEqualTo(title);
    assertThat(answer.body().get("status").asInt()).isEqualTo(status);
    assertThat(answer.body().get("instance").asText()).isEqualTo(instance);
    return answer.body().get("detail").asText();
  }

  @Test
  void malformedJsonIsABadRequestSayingWhere() throws Exception {
    String detail =
        problem(
            postJson("/v2/process-instances", "{\"processDefinitionId\": \"order\",\n  oops}"),
            400,
            "INVALID_ARGUMENT",
            "/v2/process-instances");
    assertThat(detail).contains("not valid JSON").contains("line 2");
  }

  @Test
  void aFieldOfTheWrongTypeIsNamed() throws Exception {
    assertThat(
            problem(
                postJson("/v2/process-instances", "{\"processDefinitionId\": 5}"),
                400,
                "INVALID_ARGUMENT",
                "/v2/process-instances"))
        .contains("'processDefinitionId' must be a string, not a number");
    assertThat(
            problem(
                postJson(
                    "/v2/process-instances",
                    "{\"processDefinitionId\": \"order\", \"variables\": [1]}"),
                400,
                "INVALID_ARGUMENT",
                "/v2/process-instances"))
        .contains("'variables' must be a JSON object, not an array");
    assertThat(
            problem(
                postJson("/v2/jobs/not-a-key/completion", "{}"),
                400,
                "INVALID_ARGUMENT",
                "/v2/jobs/not-a-key/completion"))
        .contains("'jobKey'")
        .contains("not-a-key");
  }

  @Test
  void anUnknownProcessOrKeyIsNotFound() throws Exception {
    assertThat(
            problem(
                postJson("/v2/process-instances", "{\"processDefinitionId\": \"nowhere\"}"),
                404,
                "NOT_FOUND",
                "/v2/process-instances"))
        .contains("nowhere");
    // A key of partition 1 that no job has: the partition's rejection.
    long jobKey = (1L << 51) + 12_345;
    problem(
        postJson("/v2/jobs/" + jobKey + "/completion", "{}"),
        404,
        "NOT_FOUND",
        "/v2/jobs/" + jobKey + "/completion");
    assertThat(
            problem(
                send("GET", "/v2/process-definitions", null, null),
                404,
                "NOT_FOUND",
                "/v2/process-definitions"))
        .contains("does not serve GET /v2/process-definitions");
  }

  @Test
  void deploymentsAreMultipartUploadsOfValidResources() throws Exception {
    assertThat(
            problem(postJson("/v2/deployments", "{}"), 400, "INVALID_ARGUMENT", "/v2/deployments"))
        .contains("multipart/form-data");
    Answer invalid =
        send(
            "POST",
            "/v2/deployments",
            "multipart/form-data; boundary=" + BOUNDARY,
            multipart("broken.bpmn", "<definitions>not a process</definitions>"));
    assertThat(problem(invalid, 400, "INVALID_ARGUMENT", "/v2/deployments"))
        .contains("broken.bpmn");
    Answer tooLarge =
        send(
            "POST",
            "/v2/deployments",
            "multipart/form-data; boundary=" + BOUNDARY,
            multipart("huge.bpmn", "x".repeat(100 * 1024)));
    assertThat(problem(tooLarge, 429, "RESOURCE_EXHAUSTED", "/v2/deployments"))
        .contains("gateway.maxMessageSize");
    Answer tooLargeJson =
        postJson(
            "/v2/messages/publication",
            "{\"name\": \"m\", \"variables\": {\"x\": \"" + "y".repeat(100 * 1024) + "\"}}");
    problem(tooLargeJson, 413, "PAYLOAD_TOO_LARGE", "/v2/messages/publication");
  }

  @Test
  void aMessageNothingTakesIsNotFoundAndOneWithoutNameABadRequest() throws Exception {
    assertThat(
            problem(
                postJson(
                    "/v2/messages/correlation",
                    "{\"name\": \"paid\", \"correlationKey\": \"o-9\"}"),
                404,
                "NOT_FOUND",
                "/v2/messages/correlation"))
        .contains("'paid'")
        .contains("'o-9'");
    assertThat(
            problem(
                postJson("/v2/messages/correlation", "{\"correlationKey\": \"o-9\"}"),
                400,
                "INVALID_ARGUMENT",
                "/v2/messages/correlation"))
        .contains("name");
  }

  @Test
  void userTaskRequestsAreCheckedAndAnUnknownTaskIsNotFound() throws Exception {
    long taskKey = (1L << 51) + 54_321; // a key of partition 1 that no task has
    String path = "/v2/user-tasks/" + taskKey;
    assertThat(
            problem(
                postJson(path + "/assignment", "{\"allowOverride\": false}"),
                400,
                "INVALID_ARGUMENT",
                path + "/assignment"))
        .contains("'assignee'");
    assertThat(
            problem(
                send("PATCH", path, "application/json", "{}".getBytes(StandardCharsets.UTF_8)),
                400,
                "INVALID_ARGUMENT",
                path))
        .contains("'action'")
        .contains("'changeset'");
    assertThat(
            problem(
                send(
                    "PATCH",
                    path,
                    "application/json",
                    "{\"changeset\": {\"assignee\": \"x\"}}".getBytes(StandardCharsets.UTF_8)),
                400,
                "INVALID_ARGUMENT",
                path))
        .contains("cannot change 'assignee'");
    assertThat(
            problem(
                postJson(path + "/completion", "{\"variables\": [1]}"),
                400,
                "INVALID_ARGUMENT",
                path + "/completion"))
        .contains("'variables' must be a JSON object");
    assertThat(
            problem(postJson(path + "/completion", "{}"), 404, "NOT_FOUND", path + "/completion"))
        .contains(Long.toString(taskKey));
    problem(send("DELETE", path + "/assignee", null, null), 404, "NOT_FOUND", path + "/assignee");
    problem(
        postJson("/v2/user-tasks/abc/completion", "{}"),
        400,
        "INVALID_ARGUMENT",
        "/v2/user-tasks/abc/completion");
  }

  private static byte[] multipart(String fileName, String content) {
    String body =
        "--"
            + BOUNDARY
            + "\r\nContent-Disposition: form-data; name=\"resources\"; filename=\""
            + fileName
            + "\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            + content
            + "\r\n--"
            + BOUNDARY
            + "--\r\n";
    return body.getBytes(StandardCharsets.UTF_8);
  }
}
