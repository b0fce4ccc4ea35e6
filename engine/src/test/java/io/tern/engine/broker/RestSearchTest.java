package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ProblemException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.search.enums.ElementInstanceState;
import io.camunda.client.api.search.enums.IncidentErrorType;
import io.camunda.client.api.search.enums.IncidentState;
import io.camunda.client.api.search.enums.JobState;
import io.camunda.client.api.search.enums.ProcessInstanceState;
import io.camunda.client.api.search.enums.UserTaskState;
import io.camunda.client.api.search.response.ElementInstance;
import io.camunda.client.api.search.response.Incident;
import io.camunda.client.api.search.response.ProcessInstance;
import io.camunda.client.api.search.response.SearchResponse;
import io.camunda.client.api.search.response.UserTask;
import io.camunda.client.api.search.response.Variable;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.gateway.history.HistoryReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official 8.9 client searches a broker's history store over REST: three instances of one
 * process (one completed, one waiting at its task, one with an incident), found by state, by a
 * variable's value, by incident, sorted and paged; their variables, elements, jobs, incidents and
 * the definition; a user task found, assigned and completed by its key; a key the store does not
 * hold, and requests it refuses, as problem documents.
 */
@Tag("slow") // a broker end to end, with its history store: docs/testing.md
class RestSearchTest {
  @TempDir static Path dir;
  private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private static final HttpClient http = HttpClient.newHttpClient();
  private static Broker broker;
  private static CamundaClient client;
  private static long definition;
  private static final Map<String, Long> instances = new HashMap<>();

  @BeforeAll
  static void runThreeInstances() throws InterruptedException {
    broker =
        Broker.start(
            TestBrokers.config(
                dir,
                Map.of(
                    "TERN_EXPORTING_HISTORY_ENABLED", "true",
                    "TERN_EXPORTERS_HISTORY_ARGS_FLUSHINTERVAL", "PT0.1S")),
            registry);
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).as("the partition elects").isTrue();
    client =
        CamundaClient.newClientBuilder()
            .restAddress(URI.create("http://127.0.0.1:" + broker.restPort()))
            .grpcAddress(URI.create("http://127.0.0.1:" + broker.gatewayPort()))
            .defaultRequestTimeout(Duration.ofSeconds(10))
            .build();
    definition =
        client
            .newDeployResourceCommand()
            .addProcessModel(
                Bpmn.createExecutableProcess("search-order")
                    .startEvent("received")
                    .serviceTask("pack", t -> t.zeebeJobType("search-pack"))
                    .endEvent("sent")
                    .done(),
                "search-order.bpmn")
            .send()
            .join()
            .getProcesses()
            .get(0)
            .getProcessDefinitionKey();
    for (String order : List.of("o-1", "o-2", "o-3")) {
      long key =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("search-order")
              .latestVersion()
              .variables(Map.of("orderId", order, "amount", order.equals("o-2") ? 20 : 10))
              .send()
              .join()
              .getProcessInstanceKey();
      instances.put(order, key);
    }
    List<ActivatedJob> jobs =
        client
            .newActivateJobsCommand()
            .jobType("search-pack")
            .maxJobsToActivate(3)
            .workerName("packer")
            .send()
            .join()
            .getJobs();
    assertThat(jobs).hasSize(3);
    for (ActivatedJob job : jobs) {
      long instance = job.getProcessInstanceKey();
      if (instance == instances.get("o-1")) {
        client.newCompleteCommand(job.getKey()).send().join();
      } else if (instance == instances.get("o-3")) {
        client.newFailCommand(job.getKey()).retries(0).errorMessage("no box").send().join();
      }
    }
    await("the history store holds the completed instance and the incident")
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(
            () ->
                client
                            .newProcessInstanceSearchRequest()
                            .filter(f -> f.state(ProcessInstanceState.COMPLETED))
                            .send()
                            .join()
                            .items()
                            .size()
                        == 1
                    && client.newIncidentSearchRequest().send().join().items().size() == 1);
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  private static List<Long> keys(SearchResponse<ProcessInstance> response) {
    return response.items().stream().map(ProcessInstance::getProcessInstanceKey).toList();
  }

  @Test
  void instancesAreFoundByStateVariableAndIncident() {
    ProcessInstance completed =
        client
            .newProcessInstanceSearchRequest()
            .filter(
                f -> f.processDefinitionId("search-order").state(ProcessInstanceState.COMPLETED))
            .send()
            .join()
            .items()
            .get(0);
    assertThat(completed.getProcessInstanceKey()).isEqualTo(instances.get("o-1"));
    assertThat(completed.getProcessDefinitionKey()).isEqualTo(definition);
    assertThat(completed.getProcessDefinitionVersion()).isEqualTo(1);
    assertThat(completed.getStartDate()).isNotNull();
    assertThat(completed.getEndDate()).isAfterOrEqualTo(completed.getStartDate());
    assertThat(completed.getHasIncident()).isFalse();
    assertThat(completed.getTenantId()).isEqualTo("<default>");

    assertThat(
            keys(
                client
                    .newProcessInstanceSearchRequest()
                    .filter(f -> f.variables(Map.of("orderId", "o-2")))
                    .send()
                    .join()))
        .containsExactly(instances.get("o-2"));
    assertThat(
            keys(
                client
                    .newProcessInstanceSearchRequest()
                    .filter(f -> f.hasIncident(true))
                    .send()
                    .join()))
        .containsExactly(instances.get("o-3"));
    assertThat(
            keys(
                client
                    .newProcessInstanceSearchRequest()
                    .filter(f -> f.state(s -> s.in(ProcessInstanceState.ACTIVE)))
                    .send()
                    .join()))
        .containsExactlyInAnyOrder(instances.get("o-2"), instances.get("o-3"));
  }

  @Test
  void instancesAreSortedAndPagedWithCursors() {
    SearchResponse<ProcessInstance> first =
        client
            .newProcessInstanceSearchRequest()
            .filter(f -> f.processDefinitionId("search-order"))
            .sort(s -> s.processInstanceKey().desc())
            .page(p -> p.limit(2))
            .send()
            .join();
    assertThat(keys(first)).containsExactly(instances.get("o-3"), instances.get("o-2"));
    assertThat(first.page().totalItems()).isEqualTo(3);
    SearchResponse<ProcessInstance> second =
        client
            .newProcessInstanceSearchRequest()
            .filter(f -> f.processDefinitionId("search-order"))
            .sort(s -> s.processInstanceKey().desc())
            .page(p -> p.limit(2).after(first.page().endCursor()))
            .send()
            .join();
    assertThat(keys(second)).containsExactly(instances.get("o-1"));
    SearchResponse<ProcessInstance> back =
        client
            .newProcessInstanceSearchRequest()
            .filter(f -> f.processDefinitionId("search-order"))
            .sort(s -> s.processInstanceKey().desc())
            .page(p -> p.limit(2).before(second.page().startCursor()))
            .send()
            .join();
    assertThat(keys(back)).isEqualTo(keys(first));
  }

  @Test
  void aUserTaskIsFoundAssignedAndCompletedByItsKeyAndSeenCompleted() {
    client
        .newDeployResourceCommand()
        .addProcessModel(
            Bpmn.createExecutableProcess("search-approval")
                .startEvent()
                .userTask(
                    "approve",
                    t ->
                        t.zeebeUserTask()
                            .zeebeCandidateGroups("clerks, auditors")
                            .zeebeTaskPriority("40"))
                .endEvent()
                .done(),
            "search-approval.bpmn")
        .send()
        .join();
    long instance =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("search-approval")
            .latestVersion()
            .variables(Map.of("amount", 120))
            .send()
            .join()
            .getProcessInstanceKey();

    // The store lags the engine by its flush: the task shows up when it has been written.
    UserTask created =
        await("the waiting task is in the history store")
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    client
                        .newUserTaskSearchRequest()
                        .filter(
                            f ->
                                f.processInstanceKey(instance)
                                    .state(UserTaskState.CREATED)
                                    .candidateGroup("auditors"))
                        .send()
                        .join()
                        .items(),
                items -> items.size() == 1)
            .get(0);
    long task = created.getUserTaskKey();
    assertThat(created.getElementId()).isEqualTo("approve");
    assertThat(created.getCandidateGroups()).containsExactly("clerks", "auditors");
    assertThat(created.getPriority()).isEqualTo(40);
    assertThat(created.getAssignee()).isNull();
    assertThat(created.getBpmnProcessId()).isEqualTo("search-approval");
    assertThat(created.getCreationDate()).isNotNull();
    assertThat(created.getCompletionDate()).isNull();
    assertThat(
            client.newUserTaskVariableSearchRequest(task).send().join().items().stream()
                .map(Variable::getName))
        .containsExactly("amount");

    client.newAssignUserTaskCommand(task).assignee("alice").send().join();
    client.newCompleteUserTaskCommand(task).send().join();

    UserTask completed =
        await("the completed task is in the history store")
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> client.newUserTaskGetRequest(task).send().join(),
                t -> t.getState() == UserTaskState.COMPLETED);
    assertThat(completed.getAssignee()).isEqualTo("alice");
    assertThat(completed.getCompletionDate()).isAfterOrEqualTo(created.getCreationDate());
    assertThat(
            client
                .newUserTaskSearchRequest()
                .filter(f -> f.assignee("alice").state(UserTaskState.COMPLETED))
                .send()
                .join()
                .items())
        .extracting(UserTask::getUserTaskKey)
        .containsExactly(task);
    // Its instance has ended too (the other tests count the active instances of this store).
    await("the instance completed")
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> client.newProcessInstanceGetRequest(instance).send().join().getState(),
            state -> state == ProcessInstanceState.COMPLETED);
    assertThatThrownBy(() -> client.newUserTaskGetRequest(987654321L).send().join())
        .isInstanceOf(ProblemException.class)
        .hasMessageContaining("404")
        .hasMessageContaining("no user task with key 987654321");
  }

  @Test
  void anInstanceIsReadByKeyAndAnUnknownKeyIsNotFound() {
    ProcessInstance instance =
        client.newProcessInstanceGetRequest(instances.get("o-2")).send().join();
    assertThat(instance.getState()).isEqualTo(ProcessInstanceState.ACTIVE);
    assertThat(instance.getEndDate()).isNull();
    assertThatThrownBy(() -> client.newProcessInstanceGetRequest(123456789L).send().join())
        .isInstanceOf(ProblemException.class)
        .hasMessageContaining("404")
        .hasMessageContaining("no process instance with key 123456789");
  }

  @Test
  void variablesElementsJobsIncidentsAndDefinitionsAreSearched() {
    List<Variable> variables =
        client
            .newVariableSearchRequest()
            .filter(f -> f.processInstanceKey(instances.get("o-2")))
            .sort(s -> s.name().asc())
            .send()
            .join()
            .items();
    assertThat(variables).extracting(Variable::getName).containsExactly("amount", "orderId");
    assertThat(variables).extracting(Variable::getValue).containsExactly("20", "\"o-2\"");
    assertThat(
            client
                .newVariableGetRequest(variables.get(1).getVariableKey())
                .send()
                .join()
                .getValue())
        .isEqualTo("\"o-2\"");

    List<ElementInstance> elements =
        client
            .newElementInstanceSearchRequest()
            .filter(f -> f.processInstanceKey(instances.get("o-1")))
            .sort(s -> s.startDate().asc())
            .send()
            .join()
            .items();
    assertThat(elements)
        .extracting(ElementInstance::getElementId)
        .containsExactly("received", "pack", "sent");
    assertThat(elements)
        .extracting(ElementInstance::getState)
        .containsOnly(ElementInstanceState.COMPLETED);

    assertThat(
            client.newJobSearchRequest().filter(f -> f.type("search-pack")).send().join().items())
        .extracting(j -> j.getProcessInstanceKey() + ":" + j.getState() + ":" + j.getWorker())
        .containsExactlyInAnyOrder(
            instances.get("o-1") + ":" + JobState.COMPLETED + ":packer",
            instances.get("o-2") + ":" + JobState.CREATED + ":packer",
            instances.get("o-3") + ":" + JobState.FAILED + ":packer");

    Incident incident = client.newIncidentSearchRequest().send().join().items().get(0);
    assertThat(incident.getProcessInstanceKey()).isEqualTo(instances.get("o-3"));
    assertThat(incident.getErrorType()).isEqualTo(IncidentErrorType.JOB_NO_RETRIES);
    assertThat(incident.getState()).isEqualTo(IncidentState.ACTIVE);
    assertThat(incident.getElementId()).isEqualTo("pack");
    assertThat(
            client.newIncidentGetRequest(incident.getIncidentKey()).send().join().getErrorMessage())
        .isEqualTo("no box");

    assertThat(
            client
                .newProcessDefinitionSearchRequest()
                .filter(f -> f.processDefinitionId("search-order"))
                .send()
                .join()
                .items())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.getProcessDefinitionKey()).isEqualTo(definition);
              assertThat(d.getVersion()).isEqualTo(1);
              assertThat(d.getResourceName()).isEqualTo("search-order.bpmn");
            });
    assertThat(registry.find(HistoryReader.QUERY_TIMER).timers()).isNotEmpty();
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + broker.restPort() + path))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void wrongSearchesAreProblemsNamingWhatIsWrong() throws Exception {
    Map<String, String> problems =
        Map.of(
            "{\"filter\":{\"colour\":\"red\"}}",
                "'filter.colour' is not a filter of process instance searches",
            "{\"filter\":{\"state\":\"DONE\"}}", "'filter.state' must be one of",
            "{\"filter\":{\"tags\":[\"a\"]}}", "'filter.tags' is not supported by Tern",
            "{\"filter\":{\"startDate\":{\"$gt\":\"yesterday\"}}}",
                "'filter.startDate.$gt' must be a date-time",
            "{\"filter\":{\"processInstanceKey\":{\"$like\":\"1*\"}}}",
                "'filter.processInstanceKey.$like' is not a filter operator",
            "{\"sort\":[{\"field\":\"colour\"}]}",
                "'sort.field' 'colour' is not a field to sort by",
            "{\"page\":{\"after\":\"nonsense\"}}", "'page.after' is not a cursor of this API",
            "{\"page\":{\"limit\":10001}}", "'page.limit' must be a whole number from 0 to 10000");
    for (Map.Entry<String, String> problem : problems.entrySet()) {
      HttpResponse<String> response = post("/v2/process-instances/search", problem.getKey());
      assertThat(response.statusCode()).as(problem.getKey()).isEqualTo(400);
      assertThat(response.headers().firstValue("content-type"))
          .hasValue("application/problem+json");
      assertThat(response.body()).as(problem.getKey()).contains(problem.getValue());
    }
    // A long value's filter is compared in full, past the indexed prefix: here it matches nothing.
    HttpResponse<String> longValue =
        post(
            "/v2/variables/search", "{\"filter\":{\"value\":\"\\\"" + "x".repeat(300) + "\\\"\"}}");
    assertThat(longValue.statusCode()).isEqualTo(200);
    assertThat(longValue.body()).contains("\"items\":[]").contains("\"totalItems\":0");
  }
}
