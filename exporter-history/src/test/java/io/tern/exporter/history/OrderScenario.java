package io.tern.exporter.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.intent.IncidentIntent;
import io.camunda.zeebe.protocol.record.intent.JobIntent;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceIntent;
import io.camunda.zeebe.protocol.record.intent.UserTaskIntent;
import io.camunda.zeebe.protocol.record.intent.VariableIntent;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One process instance's whole life as its records: started with two variables, a service task
 * whose job fails into an incident, the incident resolved (retries raised), the job activated again
 * and completed with a variable update, the instance completed. {@link #assertStored} checks every
 * table against it; {@code steps} are the record groups, to export piecewise.
 */
final class OrderScenario {
  final TestRecords records;
  final Instant t0;
  final long instanceKey;
  final long taskKey;
  final long jobKey;
  final long incidentKey;
  final long userTaskKey;
  long amountCreatedKey;
  final List<List<Record<?>>> steps = new ArrayList<>();

  OrderScenario(TestRecords records) {
    this(records, true);
  }

  /** {@code complete}: false leaves the instance active after its start. */
  OrderScenario(TestRecords records, boolean complete) {
    this.records = records;
    this.t0 = records.time();
    instanceKey = records.nextKey();
    taskKey = records.nextKey();
    jobKey = records.nextKey();
    incidentKey = records.nextKey();
    userTaskKey = records.nextKey();

    step(
        records.deployment(),
        records.process(ProcessInstanceIntent.ELEMENT_ACTIVATING, instanceKey),
        records.process(ProcessInstanceIntent.ELEMENT_ACTIVATED, instanceKey),
        records.variable(VariableIntent.CREATED, instanceKey, instanceKey, "orderId", "\"A-1\""));
    Record<?> amount =
        records.variable(VariableIntent.CREATED, instanceKey, instanceKey, "amount", "12");
    amountCreatedKey = amount.getKey();
    steps.get(0).add(amount);
    steps.get(0).addAll(records.elementPassing(instanceKey, "start", BpmnElementType.START_EVENT));
    // A user task waiting beside the service task (its element's records are not needed here).
    steps.get(0).add(userTask(UserTaskIntent.CREATED, ""));
    if (!complete) {
      return;
    }
    records.at(t(1));
    step(
        task(ProcessInstanceIntent.ELEMENT_ACTIVATING),
        task(ProcessInstanceIntent.ELEMENT_ACTIVATED),
        records.job(JobIntent.CREATED, jobKey, records.jobValue(instanceKey, taskKey, 1, "", "")),
        records.jobsActivated(jobKey, records.jobValue(instanceKey, taskKey, 1, "w1", "")));
    records.at(t(2));
    step(
        records.job(
            JobIntent.FAILED, jobKey, records.jobValue(instanceKey, taskKey, 0, "w1", "boom")),
        records.incident(IncidentIntent.CREATED, incidentKey, instanceKey, taskKey, jobKey));
    records.at(t(3));
    step(
        records.job(
            JobIntent.RETRIES_UPDATED,
            jobKey,
            records.jobValue(instanceKey, taskKey, 1, "w1", "boom")),
        records.incident(IncidentIntent.RESOLVED, incidentKey, instanceKey, taskKey, jobKey),
        records.jobsActivated(jobKey, records.jobValue(instanceKey, taskKey, 1, "w2", "boom")));
    records.at(t(4));
    step(
        records.variable(VariableIntent.UPDATED, instanceKey, instanceKey, "amount", "15"),
        records.job(
            JobIntent.COMPLETED, jobKey, records.jobValue(instanceKey, taskKey, 1, "w2", "")),
        task(ProcessInstanceIntent.ELEMENT_COMPLETING),
        task(ProcessInstanceIntent.ELEMENT_COMPLETED),
        userTask(UserTaskIntent.COMPLETED, "bob"));
    records.at(t(5));
    List<Record<?>> end =
        new ArrayList<>(records.elementPassing(instanceKey, "end", BpmnElementType.END_EVENT));
    end.add(records.process(ProcessInstanceIntent.ELEMENT_COMPLETING, instanceKey));
    end.add(records.process(ProcessInstanceIntent.ELEMENT_COMPLETED, instanceKey));
    steps.add(end);
  }

  Instant t(int step) {
    return t0.plus(Duration.ofMinutes(step));
  }

  List<Record<?>> all() {
    return steps.stream().flatMap(List::stream).toList();
  }

  private Record<?> task(ProcessInstanceIntent intent) {
    return records.element(
        intent, taskKey, instanceKey, "ship", BpmnElementType.SERVICE_TASK, instanceKey);
  }

  private Record<?> userTask(UserTaskIntent intent, String assignee) {
    return records.userTask(
        intent,
        userTaskKey,
        records
            .userTaskValue(userTaskKey, instanceKey, userTaskKey - 100)
            .withAssignee(assignee)
            .build());
  }

  private void step(Record<?>... group) {
    steps.add(new ArrayList<>(List.of(group)));
  }

  /** Every table holds what the whole scenario makes: no more, no less. */
  void assertStored(StoreQueries db) throws SQLException {
    Map<String, Object> instance =
        db.row("SELECT * FROM process_instance WHERE process_instance_key = ?", instanceKey);
    assertThat(instance)
        .containsEntry("state", "COMPLETED")
        .containsEntry("bpmn_process_id", TestRecords.PROCESS_ID)
        .containsEntry("version", 1)
        .containsEntry("process_definition_key", TestRecords.DEFINITION_KEY)
        .containsEntry("incident_count", 0)
        .containsEntry("partition_id", records.partitionId)
        .containsEntry("parent_process_instance_key", null);
    assertThat(time(instance.get("start_date"))).isEqualTo(t0);
    assertThat(time(instance.get("end_date"))).isEqualTo(t(5));

    assertThat(
            db.list(
                "SELECT element_id, element_type, state FROM element_instance"
                    + " WHERE process_instance_key = ? ORDER BY start_date, element_instance_key",
                instanceKey))
        .containsExactly(
            List.of("start", "START_EVENT", "COMPLETED"),
            List.of("ship", "SERVICE_TASK", "COMPLETED"),
            List.of("end", "END_EVENT", "COMPLETED"));
    Map<String, Object> task =
        db.row("SELECT * FROM element_instance WHERE element_instance_key = ?", taskKey);
    assertThat(time(task.get("start_date"))).isEqualTo(t(1));
    assertThat(time(task.get("end_date"))).isEqualTo(t(4));
    assertThat(task).containsEntry("incident", false).containsEntry("flow_scope_key", instanceKey);

    Map<String, Object> job = db.row("SELECT * FROM job WHERE job_key = ?", jobKey);
    assertThat(job)
        .containsEntry("state", "COMPLETED")
        .containsEntry("type", "ship")
        .containsEntry("worker", "w2")
        .containsEntry("retries", 1)
        .containsEntry("error_message", "boom")
        .containsEntry("process_instance_key", instanceKey)
        .containsEntry("element_instance_key", taskKey);
    assertThat(time(job.get("created_at"))).isEqualTo(t(1));
    assertThat(time(job.get("ended_at"))).isEqualTo(t(4));

    Map<String, Object> incident =
        db.row("SELECT * FROM incident WHERE incident_key = ?", incidentKey);
    assertThat(incident)
        .containsEntry("state", "RESOLVED")
        .containsEntry("error_type", "JOB_NO_RETRIES")
        .containsEntry("job_key", jobKey)
        .containsEntry("element_instance_key", taskKey);
    assertThat(time(incident.get("created_at"))).isEqualTo(t(2));
    assertThat(time(incident.get("resolved_at"))).isEqualTo(t(3));

    assertThat(
            db.list(
                "SELECT name, value_json, value_prefix FROM variable WHERE process_instance_key = ?"
                    + " ORDER BY name",
                instanceKey))
        .containsExactly(List.of("amount", "15", "15"), List.of("orderId", "\"A-1\"", "\"A-1\""));
    Map<String, Object> amount =
        db.row("SELECT * FROM variable WHERE scope_key = ? AND name = 'amount'", instanceKey);
    assertThat(amount).containsEntry("variable_key", amountCreatedKey);
    assertThat(time(amount.get("created_at"))).isEqualTo(t0);
    assertThat(time(amount.get("updated_at"))).isEqualTo(t(4));
    assertThat(
            db.list(
                "SELECT name, intent, value_json FROM variable_history"
                    + " WHERE process_instance_key = ? ORDER BY position",
                instanceKey))
        .containsExactly(
            List.of("orderId", "CREATED", "\"A-1\""),
            List.of("amount", "CREATED", "12"),
            List.of("amount", "UPDATED", "15"));

    assertThat(
            db.list(
                "SELECT user_task_key, state, assignee, creation_date, completion_date"
                    + " FROM user_task WHERE process_instance_key = ?",
                instanceKey))
        .containsExactly(List.of(userTaskKey, "COMPLETED", "bob", t0, t(4)));

    assertThat(db.list("SELECT bpmn_process_id, version, resource_name FROM process_definition"))
        .containsExactly(List.of(TestRecords.PROCESS_ID, 1, "order.bpmn"));
  }

  static Instant time(Object value) {
    if (value instanceof Instant instant) {
      return instant;
    }
    throw new AssertionError("not a timestamp: " + value);
  }
}
