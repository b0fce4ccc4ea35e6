package io.tern.exporter.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceIntent;
import io.camunda.zeebe.protocol.record.intent.UserTaskIntent;
import io.camunda.zeebe.protocol.record.intent.VariableIntent;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the history store must do, on every database it supports: the subclasses provide a fresh
 * database per test and a way to take it down and bring it back.
 */
abstract class HistoryExporterContract {
  static final int PARTITION = 1;
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  /** A new, empty database; its JDBC URL. */
  abstract String newStoreUrl() throws Exception;

  /** The username and password args for it (none for H2). */
  abstract Map<String, Object> credentials();

  /** A URL with a password in it where nothing answers. */
  abstract String unreachableUrl();

  /** The database stops answering: open connections break, new ones are refused. */
  abstract void takeStoreDown() throws Exception;

  abstract void bringStoreBack() throws Exception;

  String url;
  StoreQueries db;
  private final List<TestDirector> directors = new ArrayList<>();

  @BeforeEach
  void newStore() throws Exception {
    url = newStoreUrl();
    db =
        new StoreQueries(
            url, (String) credentials().get("username"), (String) credentials().get("password"));
  }

  @AfterEach
  void closeDirectors() {
    directors.forEach(TestDirector::close);
    if (db != null) {
      db.close();
    }
  }

  TestDirector director(Map<String, Object> args) {
    return director(args, null, InstantSource.system());
  }

  TestDirector director(
      Map<String, Object> args, SimpleMeterRegistry registry, InstantSource clock) {
    Map<String, Object> all = new HashMap<>(credentials());
    all.put("url", url);
    all.putAll(args);
    TestDirector director = new TestDirector(PARTITION, all, registry, clock);
    directors.add(director);
    return director.start();
  }

  @Test
  void storesAnInstancesLifeRecordByRecord() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW);
    OrderScenario order = new OrderScenario(records);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    // batchSize 1: each record is written when exported, so the store can be checked in between.
    TestDirector director =
        director(Map.of("batchSize", 1, "flushInterval", "PT1H"), registry, InstantSource.system());

    for (int step = 0; step < order.steps.size(); step++) {
      director.exportAll(order.steps.get(step));
      long last = order.steps.get(step).get(order.steps.get(step).size() - 1).getPosition();
      assertThat(director.acknowledged()).isEqualTo(last);
      assertThat(db.count("SELECT position FROM exporter_position WHERE partition_id = 1"))
          .isEqualTo(last);
      if (step == 0) {
        assertThat(
                db.row(
                    "SELECT state, end_date FROM process_instance WHERE process_instance_key = ?",
                    order.instanceKey))
            .containsEntry("state", "ACTIVE")
            .containsEntry("end_date", null);
      }
      if (step == 2) {
        // The job failed into an incident: the instance and the task show it.
        assertThat(
                db.count(
                    "SELECT incident_count FROM process_instance WHERE process_instance_key = ?",
                    order.instanceKey))
            .isEqualTo(1);
        assertThat(
                db.row(
                    "SELECT incident, state FROM element_instance WHERE element_instance_key = ?",
                    order.taskKey))
            .containsEntry("incident", true)
            .containsEntry("state", "ACTIVE");
        assertThat(db.row("SELECT state, retries FROM job WHERE job_key = ?", order.jobKey))
            .containsEntry("state", "FAILED")
            .containsEntry("retries", 0);
      }
    }
    order.assertStored(db);
    assertThat(registry.get("tern.history.rows").counter().count()).isGreaterThan(10);
    assertThat(registry.get("tern.history.flush").timer().count()).isEqualTo(order.all().size());
  }

  @Test
  void replayedRecordsAddNothing() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW);
    OrderScenario order = new OrderScenario(records);
    List<Record<?>> log = records.log;
    long last = log.get(log.size() - 1).getPosition();

    // Batches of 7 rows: the flushes fall in the middle of elements' and jobs' lives.
    TestDirector first = director(Map.of("batchSize", 7, "flushInterval", "PT1H"));
    first.exportAll(log);
    first.close();
    order.assertStored(db);
    Map<String, List<List<Object>>> stored = db.dump();

    // A new leader (or a restarted broker) exports again from the broker's older position.
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TestDirector second =
        director(Map.of("batchSize", 7, "flushInterval", "PT1H"), registry, InstantSource.system());
    second.exportAll(log);
    assertThat(second.acknowledged()).isEqualTo(last);
    second.close();
    assertThat(db.dump()).isEqualTo(stored);
    // Recognised by the stored position: not even written again.
    assertThat(registry.get("tern.history.rows").counter().count()).isZero();

    // Even without the stored position, older records written again (a stale leader still
    // flushing, a lost position) change nothing: every row keeps the newest record's values.
    db.execute("DELETE FROM exporter_position");
    int half = log.size() / 2;
    TestDirector stale = director(Map.of("batchSize", 3, "flushInterval", "PT1H"));
    stale.exportAll(log.subList(0, half));
    stale.close();
    assertThat(db.dump()).isEqualTo(stored);
    assertThat(db.count("SELECT position FROM exporter_position"))
        .isEqualTo(log.get(half - 1).getPosition());
  }

  /**
   * Two leaders of a partition for a moment, both past the same stored position: the second finds
   * the rows the first wrote after it. Rows of new keys are inserted, not merged, so its inserts
   * fail on the keys; it writes the batch again with upserts, at once, and neither fails nor
   * changes a row.
   */
  @Test
  void aSecondLeaderWritingTheSameRecordsFailsNothingAndChangesNothing() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW);
    OrderScenario order = new OrderScenario(records);
    List<Record<?>> log = records.log;
    long last = log.get(log.size() - 1).getPosition();
    Map<String, Object> oneBatch = Map.of("batchSize", 10_000, "flushInterval", "PT1H");
    TestDirector first = director(oneBatch);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TestDirector second = director(oneBatch, registry, InstantSource.system());

    first.exportAll(log);
    first.flush();
    order.assertStored(db);
    Map<String, List<List<Object>>> stored = db.dump();

    second.exportAll(log);
    second.flush();

    assertThat(second.acknowledged()).isEqualTo(last);
    assertThat(db.dump()).isEqualTo(stored);
    assertThat(registry.get("tern.history.failures").counter().count()).isZero();
  }

  @Test
  void storesAUserTasksLifeAndAReplayChangesNothing() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW);
    long instance = records.nextKey();
    long element = records.nextKey();
    long task = records.nextKey();
    String selectTask =
        "SELECT state, assignee, candidate_groups, candidate_users, due_date, follow_up_date,"
            + " priority, form_key, external_form_reference, custom_headers, element_id,"
            + " element_instance_key, process_instance_key, process_definition_key,"
            + " bpmn_process_id, process_definition_version, tenant_id, creation_date,"
            + " completion_date FROM user_task WHERE user_task_key = ?";
    TestDirector director = director(Map.of("batchSize", 1, "flushInterval", "PT1H"));

    director.exportAll(
        List.of(
            records.deployment(),
            records.process(ProcessInstanceIntent.ELEMENT_ACTIVATING, instance),
            records.element(
                ProcessInstanceIntent.ELEMENT_ACTIVATING,
                element,
                instance,
                "approve",
                BpmnElementType.USER_TASK,
                instance),
            // -ING events are not the task's state: only the settled ones make rows.
            records.userTask(
                UserTaskIntent.CREATING,
                task,
                records.userTaskValue(task, instance, element).withPriority(1).build()),
            records.userTask(
                UserTaskIntent.CREATED,
                task,
                records
                    .userTaskValue(task, instance, element)
                    .withCandidateGroupsList(List.of("sales", "say \"hi\""))
                    .withCandidateUsersList(List.of("carol"))
                    .withDueDate("2026-06-10T12:00:00+02:00")
                    .withFollowUpDate("2026-06-09T08:00:00Z")
                    .withExternalFormReference("https://forms.example/approve")
                    .withCustomHeaders(Map.of("queue", "eu"))
                    .build())));
    Map<String, Object> created = db.row(selectTask, task);
    assertThat(created)
        .containsEntry("state", "CREATED")
        .containsEntry("assignee", null)
        .containsEntry("candidate_groups", "[\"sales\",\"say \\u0022hi\\u0022\"]")
        .containsEntry("candidate_users", "[\"carol\"]")
        .containsEntry("due_date", Instant.parse("2026-06-10T10:00:00Z"))
        .containsEntry("follow_up_date", Instant.parse("2026-06-09T08:00:00Z"))
        .containsEntry("priority", 50)
        .containsEntry("form_key", null)
        .containsEntry("external_form_reference", "https://forms.example/approve")
        .containsEntry("custom_headers", "{\"queue\":\"eu\"}")
        .containsEntry("element_id", "approve")
        .containsEntry("element_instance_key", element)
        .containsEntry("process_instance_key", instance)
        .containsEntry("process_definition_key", TestRecords.DEFINITION_KEY)
        .containsEntry("bpmn_process_id", TestRecords.PROCESS_ID)
        .containsEntry("process_definition_version", 1)
        .containsEntry("tenant_id", "<default>")
        .containsEntry("creation_date", NOW)
        .containsEntry("completion_date", null);
    // The exact candidate search the REST gateway runs: a quote in a name is no delimiter.
    assertThat(
            db.list(
                "SELECT user_task_key FROM user_task WHERE candidate_groups LIKE ?",
                "%\"say \\\\u0022hi\\\\u0022\"%"))
        .containsExactly(List.of(task));
    assertThat(
            db.list(
                "SELECT user_task_key FROM user_task WHERE candidate_groups LIKE ?",
                "%\"hi\\\\u0022\"%"))
        .isEmpty();

    records.at(NOW.plusSeconds(60));
    director.exportAll(
        List.of(
            records.userTask(
                UserTaskIntent.ASSIGNED,
                task,
                records
                    .userTaskValue(task, instance, element)
                    .withAssignee("alice")
                    .withCandidateGroupsList(List.of("sales", "say \"hi\""))
                    .withCandidateUsersList(List.of("carol"))
                    .withDueDate("2026-06-10T12:00:00+02:00")
                    .withFollowUpDate("2026-06-09T08:00:00Z")
                    .build())));
    assertThat(db.row(selectTask, task))
        .containsEntry("state", "CREATED")
        .containsEntry("assignee", "alice")
        .containsEntry("creation_date", NOW);

    // Cleared values (the due date, the candidates, the assignee) are cleared in the row too.
    records.at(NOW.plusSeconds(120));
    director.exportAll(
        List.of(
            records.userTask(
                UserTaskIntent.UPDATED,
                task,
                records
                    .userTaskValue(task, instance, element)
                    .withAssignee("alice")
                    .withCandidateGroupsList(List.of("ops"))
                    .withPriority(80)
                    .build()),
            records.userTask(
                UserTaskIntent.ASSIGNED,
                task,
                records
                    .userTaskValue(task, instance, element)
                    .withCandidateGroupsList(List.of("ops"))
                    .withPriority(80)
                    .build())));
    assertThat(db.row(selectTask, task))
        .containsEntry("state", "CREATED")
        .containsEntry("assignee", null)
        .containsEntry("candidate_groups", "[\"ops\"]")
        .containsEntry("candidate_users", null)
        .containsEntry("due_date", null)
        .containsEntry("follow_up_date", null)
        .containsEntry("priority", 80);

    records.at(NOW.plusSeconds(180));
    director.exportAll(
        List.of(
            records.userTask(
                UserTaskIntent.ASSIGNED,
                task,
                records
                    .userTaskValue(task, instance, element)
                    .withAssignee("bob")
                    .withCandidateGroupsList(List.of("ops"))
                    .withPriority(80)
                    .build()),
            records.userTask(
                UserTaskIntent.COMPLETED,
                task,
                records
                    .userTaskValue(task, instance, element)
                    .withAssignee("bob")
                    .withCandidateGroupsList(List.of("ops"))
                    .withPriority(80)
                    .build())));
    assertThat(db.row(selectTask, task))
        .containsEntry("state", "COMPLETED")
        .containsEntry("assignee", "bob")
        .containsEntry("creation_date", NOW)
        .containsEntry("completion_date", NOW.plusSeconds(180));
    // Another task of the instance, migrated (it keeps waiting, under its new element and
    // definition), then ended by its element's termination.
    long canceled = records.nextKey();
    records.at(NOW.plusSeconds(240));
    director.exportAll(
        List.of(
            records.userTask(
                UserTaskIntent.CREATED,
                canceled,
                records.userTaskValue(canceled, instance, element + 1).build()),
            records.userTask(
                UserTaskIntent.MIGRATED,
                canceled,
                records
                    .userTaskValue(canceled, instance, element + 1)
                    .withElementId("check")
                    .withProcessDefinitionKey(TestRecords.DEFINITION_KEY + 1)
                    .withProcessDefinitionVersion(2)
                    .build())));
    assertThat(
            db.row(
                "SELECT state, element_id, process_definition_key, process_definition_version"
                    + " FROM user_task WHERE user_task_key = ?",
                canceled))
        .containsEntry("state", "CREATED")
        .containsEntry("element_id", "check")
        .containsEntry("process_definition_key", TestRecords.DEFINITION_KEY + 1)
        .containsEntry("process_definition_version", 2);
    director.exportAll(
        List.of(
            records.userTask(
                UserTaskIntent.CANCELED,
                canceled,
                records
                    .userTaskValue(canceled, instance, element + 1)
                    .withElementId("check")
                    .withProcessDefinitionKey(TestRecords.DEFINITION_KEY + 1)
                    .withProcessDefinitionVersion(2)
                    .build())));
    assertThat(
            db.row(
                "SELECT state, creation_date, completion_date FROM user_task"
                    + " WHERE user_task_key = ?",
                canceled))
        .containsEntry("state", "CANCELED")
        .containsEntry("creation_date", NOW.plusSeconds(240))
        .containsEntry("completion_date", NOW.plusSeconds(240));
    director.close();
    Map<String, List<List<Object>>> stored = db.dump();

    // Written again, whole or its older half, without the stored position: nothing moves back
    // (the assignee set at the half is not restored), nothing is added.
    db.execute("DELETE FROM exporter_position");
    TestDirector again = director(Map.of("batchSize", 2, "flushInterval", "PT1H"));
    again.exportAll(records.log);
    again.close();
    assertThat(db.dump()).isEqualTo(stored);
    db.execute("DELETE FROM exporter_position");
    TestDirector stale = director(Map.of("batchSize", 2, "flushInterval", "PT1H"));
    stale.exportAll(records.log.subList(0, 6));
    stale.close();
    assertThat(db.dump()).isEqualTo(stored);
    assertThat(db.count("SELECT COUNT(*) FROM user_task")).isEqualTo(2);
  }

  @Test
  void flushesWhenTheBatchIsFull() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW);
    long instance = records.nextKey();
    TestDirector director = director(Map.of("batchSize", 4, "flushInterval", "PT1H"));

    director.export(records.deployment());
    director.export(records.process(ProcessInstanceIntent.ELEMENT_ACTIVATING, instance));
    director.export(records.process(ProcessInstanceIntent.ELEMENT_ACTIVATED, instance));
    // Commands and other value types are filtered out before they reach the exporter.
    director.export(records.command());
    assertThat(db.count("SELECT COUNT(*) FROM process_instance")).isZero();
    assertThat(director.acknowledged()).isEqualTo(-1);

    // The variable and its history entry are rows 3 and 4.
    Record<?> variable =
        records.variable(VariableIntent.CREATED, instance, instance, "orderId", "\"A-1\"");
    director.export(variable);
    assertThat(db.count("SELECT COUNT(*) FROM process_instance")).isOne();
    assertThat(db.count("SELECT COUNT(*) FROM variable_history")).isOne();
    assertThat(director.acknowledged()).isEqualTo(variable.getPosition());
  }

  @Test
  void flushesWhenTheIntervalPasses() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW);
    long instance = records.nextKey();
    TestDirector director = director(Map.of("batchSize", 500, "flushInterval", 0.1));

    Record<?> activating = records.process(ProcessInstanceIntent.ELEMENT_ACTIVATING, instance);
    director.export(activating);

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> db.count("SELECT COUNT(*) FROM process_instance") == 1);
    await().atMost(Duration.ofSeconds(10)).until(() -> director.acknowledged() == 1);
    assertThat(activating.getPosition()).isOne();
  }

  @Test
  void losesAndDuplicatesNothingWhileTheStoreIsDown() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW);
    OrderScenario order = new OrderScenario(records);
    List<Record<?>> log = records.log;
    TestDirector director = director(Map.of("batchSize", 3, "flushInterval", "PT1H"));

    int half = log.size() / 2;
    director.exportAll(log.subList(0, half));
    long before = director.acknowledged();
    assertThat(before).isPositive();

    takeStoreDown();
    int failedAt = -1;
    try {
      for (int i = half; i < log.size() && failedAt < 0; i++) {
        try {
          director.export(log.get(i));
        } catch (IllegalStateException e) {
          assertThat(e).hasMessageContaining("history store").hasMessageContaining("unavailable");
          failedAt = i;
        }
      }
      assertThat(failedAt).as("a flush failed while the store was down").isNotNegative();
      // The broker calls export again with the same record, which must not be buffered twice.
      Record<?> same = log.get(failedAt);
      for (int attempt = 0; attempt < 3; attempt++) {
        assertThatThrownBy(() -> director.export(same)).isInstanceOf(IllegalStateException.class);
      }
      assertThat(director.acknowledged()).isLessThan(same.getPosition());
    } finally {
      bringStoreBack();
    }
    director.export(log.get(failedAt));
    assertThat(director.acknowledged()).isGreaterThan(before);
    director.exportAll(log.subList(failedAt + 1, log.size()));
    director.close();

    order.assertStored(db);
    assertThat(db.count("SELECT COUNT(*) FROM variable_history")).isEqualTo(3);
    assertThat(director.acknowledged()).isEqualTo(log.get(log.size() - 1).getPosition());
  }

  @Test
  void aTimedFlushThatFailsKeepsItsRowsForTheNext() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW);
    OrderScenario order = new OrderScenario(records);
    long last = records.log.get(records.log.size() - 1).getPosition();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TestDirector director =
        director(Map.of("batchSize", 500, "flushInterval", 0.05), registry, InstantSource.system());

    takeStoreDown();
    try {
      // The batch never fills, so export does not throw: only the timed flushes fail.
      director.exportAll(records.log);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> registry.get("tern.history.failures").counter().count() >= 2);
      assertThat(director.acknowledged()).isEqualTo(-1);
    } finally {
      bringStoreBack();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> director.acknowledged() == last);
    order.assertStored(db);
  }

  @Test
  void retentionDeletesOldFinishedInstancesOnly() throws Exception {
    TestRecords records = new TestRecords(PARTITION, NOW.minus(40, ChronoUnit.DAYS));
    OrderScenario old = new OrderScenario(records);
    OrderScenario alsoOld = new OrderScenario(records.at(NOW.minus(35, ChronoUnit.DAYS)));
    OrderScenario oldButActive =
        new OrderScenario(records.at(NOW.minus(40, ChronoUnit.DAYS)), false);
    OrderScenario recent = new OrderScenario(records.at(NOW.minus(1, ChronoUnit.DAYS)));
    // retentionBatchSize 1: the two old instances go in two transactions of one run.
    TestDirector director =
        director(
            Map.of(
                "flushInterval",
                0.05,
                "retention",
                "P30D",
                "retentionCheckInterval",
                0.1,
                "retentionBatchSize",
                1),
            null,
            () -> NOW);
    director.exportAll(records.log);

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> db.count("SELECT COUNT(*) FROM process_instance") == 2);
    assertThat(db.list("SELECT process_instance_key, state FROM process_instance ORDER BY 1"))
        .containsExactly(
            List.of(oldButActive.instanceKey, "ACTIVE"), List.of(recent.instanceKey, "COMPLETED"));
    for (OrderScenario deleted : List.of(old, alsoOld)) {
      for (String table :
          List.of(
              "element_instance", "variable", "variable_history", "job", "incident", "user_task")) {
        assertThat(
                db.count(
                    "SELECT COUNT(*) FROM " + table + " WHERE process_instance_key = ?",
                    deleted.instanceKey))
            .as(table)
            .isZero();
      }
    }
    assertThat(
            db.count(
                "SELECT COUNT(*) FROM variable WHERE process_instance_key = ?",
                oldButActive.instanceKey))
        .isEqualTo(2);
    assertThat(
            db.count(
                "SELECT COUNT(*) FROM user_task WHERE process_instance_key = ?",
                oldButActive.instanceKey))
        .isEqualTo(1);
    recent.assertStored(db);
  }

  @Test
  void takesThePartitionFromTheRecordsWhenTheContextHasNone() throws Exception {
    TestRecords records = new TestRecords(3, NOW);
    OrderScenario order = new OrderScenario(records);
    Map<String, Object> args = new HashMap<>(credentials());
    args.put("url", url);
    TestDirector director = new TestDirector(PARTITION, args, null, InstantSource.system(), false);
    directors.add(director);
    director.start();
    director.exportAll(records.log);
    director.close();

    order.assertStored(db);
    assertThat(db.list("SELECT partition_id, position FROM exporter_position"))
        .containsExactly(List.of(3, (long) records.log.size()));
  }

  /**
   * A broker's partitions export into one store at once, each on its own thread; every partition
   * logs the same deployment. Whatever one flush meets from another (a lock, a key inserted at the
   * same moment), retrying the record gets it written.
   */
  @Test
  void partitionsWriteIntoOneStoreAtOnce() throws Exception {
    List<OrderScenario> orders = new ArrayList<>();
    List<TestDirector> partitions = new ArrayList<>();
    for (int partition = 1; partition <= 3; partition++) {
      orders.add(new OrderScenario(new TestRecords(partition, NOW)));
      Map<String, Object> args = new HashMap<>(credentials());
      args.put("url", url);
      args.put("batchSize", 2);
      TestDirector director = new TestDirector(partition, args, null, InstantSource.system());
      directors.add(director);
      partitions.add(director);
    }
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 3; i++) {
      TestDirector director = partitions.get(i);
      List<Record<?>> log = orders.get(i).records.log;
      Thread thread =
          new Thread(
              () -> {
                try {
                  director.start();
                  log.forEach(director::exportRetrying);
                  director.close();
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join(30_000);
    }
    assertThat(failures).isEmpty();
    for (OrderScenario order : orders) {
      order.assertStored(db);
    }
    assertThat(db.list("SELECT partition_id FROM exporter_position ORDER BY 1"))
        .containsExactly(List.of(1), List.of(2), List.of(3));
  }

  @Test
  void aMissingOrUnreachableUrlIsNamed() {
    assertThatThrownBy(
            () -> new TestDirector(PARTITION, Map.of(), null, InstantSource.system()).start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exporters.history.args.url is required");
    assertThatThrownBy(
            () ->
                new TestDirector(
                        PARTITION,
                        Map.of("url", "jdbc:mysql://db/tern?password=hunter2"),
                        null,
                        InstantSource.system())
                    .start())
        .hasMessageContaining("exporters.history.args.url")
        .hasMessageNotContaining("hunter2");
    TestDirector unreachable =
        new TestDirector(PARTITION, Map.of("url", unreachableUrl()), null, InstantSource.system());
    directors.add(unreachable);
    assertThatThrownBy(unreachable::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exporters.history.args.url")
        .hasMessageContaining("cannot be opened")
        .hasMessageNotContaining("hunter2");
  }
}
