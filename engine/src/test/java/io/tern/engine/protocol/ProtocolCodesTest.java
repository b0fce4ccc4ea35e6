package io.tern.engine.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The codes of the value types and intents are what the log and the wire hold: each is unique,
 * reads back through the lookups, and equals the code it had as an int constant (issue 46).
 */
class ProtocolCodesTest {
  /** Every code as the int constants of ValueTypes had it, before the enums. */
  private static final List<String> CODES =
      List.of(
          "DEPLOYMENT 10",
          "PROCESS_INSTANCE 11",
          "PROCESS_INSTANCE_CREATION 12",
          "JOB 13",
          "JOB_BATCH 14",
          "VARIABLE 15",
          "INCIDENT 16",
          "TIMER 17",
          "PROCESS_EVENT 18",
          "VARIABLE_DOCUMENT 19",
          "MESSAGE 20",
          "MESSAGE_SUBSCRIPTION 21",
          "PROCESS_MESSAGE_SUBSCRIPTION 22",
          "PROCESS_INSTANCE_RESULT 23",
          "DEPLOYMENT_DISTRIBUTION 24",
          "MESSAGE_START_EVENT_SUBSCRIPTION 25",
          "DECISION_EVALUATION 30",
          "SIGNAL 31",
          "SIGNAL_SUBSCRIPTION 32",
          "RESOURCE_DELETION 33",
          "PROCESS_INSTANCE_MODIFICATION 34",
          "PROCESS_INSTANCE_MIGRATION 35",
          "COMPENSATION_SUBSCRIPTION 36",
          "USER_TASK 37",
          "MESSAGE_CORRELATION 38",
          "CHECKPOINT 39",
          "EXPORTER 40",
          "DEPLOYMENT CREATE 0",
          "DEPLOYMENT CREATED 1",
          "DEPLOYMENT DISTRIBUTE 2",
          "DEPLOYMENT DISTRIBUTED 3",
          "DEPLOYMENT FULLY_DISTRIBUTED 4",
          "PROCESS_INSTANCE_CREATION CREATE 0",
          "PROCESS_INSTANCE_CREATION CREATED 1",
          "PROCESS_INSTANCE_CREATION CREATE_WITH_AWAITING_RESULT 2",
          "PROCESS_INSTANCE ACTIVATE_ELEMENT 0",
          "PROCESS_INSTANCE COMPLETE_ELEMENT 1",
          "PROCESS_INSTANCE CANCEL 2",
          "PROCESS_INSTANCE TERMINATE_ELEMENT 3",
          "PROCESS_INSTANCE ELEMENT_ACTIVATING 10",
          "PROCESS_INSTANCE ELEMENT_ACTIVATED 11",
          "PROCESS_INSTANCE ELEMENT_COMPLETING 12",
          "PROCESS_INSTANCE ELEMENT_COMPLETED 13",
          "PROCESS_INSTANCE ELEMENT_TERMINATING 14",
          "PROCESS_INSTANCE ELEMENT_TERMINATED 15",
          "PROCESS_INSTANCE SEQUENCE_FLOW_TAKEN 16",
          "PROCESS_INSTANCE ELEMENT_MIGRATED 17",
          "JOB CREATED 1",
          "JOB COMPLETE 2",
          "JOB COMPLETED 3",
          "JOB FAIL 4",
          "JOB FAILED 5",
          "JOB UPDATE_RETRIES 6",
          "JOB RETRIES_UPDATED 7",
          "JOB TIME_OUT 8",
          "JOB TIMED_OUT 9",
          "JOB RECUR_AFTER_BACKOFF 10",
          "JOB RECURRED_AFTER_BACKOFF 11",
          "JOB CANCELED 12",
          "JOB THROW_ERROR 13",
          "JOB ERROR_THROWN 14",
          "JOB UPDATE_TIMEOUT 15",
          "JOB TIMEOUT_UPDATED 16",
          "JOB YIELD 17",
          "JOB YIELDED 18",
          "JOB MIGRATED 19",
          "VARIABLE CREATED 0",
          "VARIABLE UPDATED 1",
          "INCIDENT CREATED 0",
          "INCIDENT RESOLVE 1",
          "INCIDENT RESOLVED 2",
          "INCIDENT MIGRATED 3",
          "TIMER CREATED 0",
          "TIMER TRIGGER 1",
          "TIMER TRIGGERED 2",
          "TIMER CANCELED 3",
          "TIMER MIGRATED 4",
          "PROCESS_EVENT TRIGGERED 0",
          "VARIABLE_DOCUMENT UPDATE 0",
          "VARIABLE_DOCUMENT UPDATED 1",
          "MESSAGE PUBLISH 0",
          "MESSAGE PUBLISHED 1",
          "MESSAGE EXPIRE 2",
          "MESSAGE EXPIRED 3",
          "MESSAGE_START_EVENT_SUBSCRIPTION CORRELATED 0",
          "MESSAGE_SUBSCRIPTION CREATE 0",
          "MESSAGE_SUBSCRIPTION CREATED 1",
          "MESSAGE_SUBSCRIPTION CORRELATING 2",
          "MESSAGE_SUBSCRIPTION CORRELATE 3",
          "MESSAGE_SUBSCRIPTION CORRELATED 4",
          "MESSAGE_SUBSCRIPTION REJECT 5",
          "MESSAGE_SUBSCRIPTION REJECTED 6",
          "MESSAGE_SUBSCRIPTION DELETE 7",
          "MESSAGE_SUBSCRIPTION DELETED 8",
          "MESSAGE_SUBSCRIPTION MIGRATE 9",
          "MESSAGE_SUBSCRIPTION MIGRATED 10",
          "PROCESS_MESSAGE_SUBSCRIPTION CREATING 0",
          "PROCESS_MESSAGE_SUBSCRIPTION CREATE 1",
          "PROCESS_MESSAGE_SUBSCRIPTION CREATED 2",
          "PROCESS_MESSAGE_SUBSCRIPTION CORRELATE 3",
          "PROCESS_MESSAGE_SUBSCRIPTION CORRELATED 4",
          "PROCESS_MESSAGE_SUBSCRIPTION DELETING 5",
          "PROCESS_MESSAGE_SUBSCRIPTION DELETE 6",
          "PROCESS_MESSAGE_SUBSCRIPTION DELETED 7",
          "PROCESS_MESSAGE_SUBSCRIPTION MIGRATED 8",
          "PROCESS_MESSAGE_SUBSCRIPTION MIGRATE 9",
          "PROCESS_MESSAGE_SUBSCRIPTION MIGRATION_ACKNOWLEDGED 10",
          "PROCESS_INSTANCE_RESULT COMPLETED 0",
          "PROCESS_INSTANCE_RESULT TERMINATED 1",
          "DEPLOYMENT_DISTRIBUTION COMPLETE 0",
          "DEPLOYMENT_DISTRIBUTION COMPLETED 1",
          "DECISION_EVALUATION EVALUATE 0",
          "DECISION_EVALUATION EVALUATED 1",
          "DECISION_EVALUATION FAILED 2",
          "SIGNAL BROADCAST 0",
          "SIGNAL BROADCASTED 1",
          "SIGNAL ACKNOWLEDGE 2",
          "SIGNAL ACKNOWLEDGED 3",
          "SIGNAL_SUBSCRIPTION CREATED 0",
          "SIGNAL_SUBSCRIPTION DELETED 1",
          "SIGNAL_SUBSCRIPTION TRIGGERED 2",
          "RESOURCE_DELETION DELETE 0",
          "RESOURCE_DELETION DELETED 1",
          "RESOURCE_DELETION ACKNOWLEDGE 2",
          "RESOURCE_DELETION ACKNOWLEDGED 3",
          "PROCESS_INSTANCE_MODIFICATION MODIFY 0",
          "PROCESS_INSTANCE_MODIFICATION MODIFIED 1",
          "PROCESS_INSTANCE_MIGRATION MIGRATE 0",
          "PROCESS_INSTANCE_MIGRATION MIGRATED 1",
          "COMPENSATION_SUBSCRIPTION CREATED 0",
          "COMPENSATION_SUBSCRIPTION TRIGGERED 1",
          "COMPENSATION_SUBSCRIPTION COMPLETED 2",
          "COMPENSATION_SUBSCRIPTION DELETED 3",
          "COMPENSATION_SUBSCRIPTION MIGRATED 4",
          "USER_TASK CREATING 0",
          "USER_TASK CREATED 1",
          "USER_TASK COMPLETE 2",
          "USER_TASK COMPLETING 3",
          "USER_TASK COMPLETED 4",
          "USER_TASK CANCELING 5",
          "USER_TASK CANCELED 6",
          "USER_TASK ASSIGN 7",
          "USER_TASK ASSIGNING 8",
          "USER_TASK ASSIGNED 9",
          "USER_TASK CLAIM 10",
          "USER_TASK UPDATE 11",
          "USER_TASK UPDATING 12",
          "USER_TASK UPDATED 13",
          "USER_TASK MIGRATED 14",
          "USER_TASK CLAIMING 15",
          "MESSAGE_CORRELATION CORRELATE 0",
          "MESSAGE_CORRELATION CORRELATING 1",
          "MESSAGE_CORRELATION CORRELATED 2",
          "MESSAGE_CORRELATION NOT_CORRELATED 3",
          "JOB_BATCH ACTIVATE 0",
          "JOB_BATCH ACTIVATED 1",
          "EXPORTER UPDATE_POSITION 0",
          "EXPORTER POSITION_UPDATED 1",
          "CHECKPOINT CREATE 0",
          "CHECKPOINT CREATED 1");

  @Test
  void everyCodeIsWhatItWas() {
    List<String> codes = new ArrayList<>();
    for (ValueType type : ValueType.values()) {
      codes.add(type + " " + type.code());
    }
    for (Intent intent : Intents.all()) {
      codes.add(intent.valueType() + " " + intent.name() + " " + intent.code());
    }
    assertThat(codes).containsExactlyInAnyOrderElementsOf(CODES);
    assertThat(ValueType.JOB.code()).isEqualTo(13);
    assertThat(JobIntent.COMPLETED.code()).isEqualTo(3);
    assertThat(ProcessInstanceIntent.ELEMENT_ACTIVATED.code()).isEqualTo(11);
  }

  @Test
  void valueTypeCodesAreUniqueAndReadBack() {
    Set<Integer> seen = new HashSet<>();
    for (ValueType type : ValueType.values()) {
      assertThat(seen.add(type.code())).as("%s's code %d is unique", type, type.code()).isTrue();
      assertThat(ValueType.ofCode(type.code())).isSameAs(type);
    }
    assertThat(ValueType.ofCode(-1)).isNull();
    assertThat(ValueType.ofCode(0)).isNull();
    assertThat(ValueType.ofCode(26)).as("a gap between codes").isNull();
    assertThat(ValueType.ofCode(Integer.MAX_VALUE)).isNull();
  }

  @Test
  void everyIntentIsUniqueWithinItsValueTypeAndReadsBack() {
    Set<String> seen = new HashSet<>();
    Set<ValueType> withIntents = new HashSet<>();
    for (Intent intent : Intents.all()) {
      ValueType type = intent.valueType();
      withIntents.add(type);
      assertThat(seen.add(type.code() + "/" + intent.code()))
          .as("%s %s's codes are unique", type, intent.name())
          .isTrue();
      assertThat(Intents.of(type.code(), intent.code())).isSameAs(intent);
    }
    assertThat(withIntents).containsExactlyInAnyOrder(ValueType.values());
    assertThat(Intents.all()).hasSize(seen.size());
    assertThat(Intents.of(ValueType.JOB.code(), 0)).as("JOB has no intent 0").isNull();
    assertThat(Intents.of(ValueType.JOB.code(), 99)).isNull();
    assertThat(Intents.of(ValueType.JOB.code(), -1)).isNull();
    assertThat(Intents.of(999, 0)).isNull();
    assertThat(Intents.of(-1, 0)).isNull();
    assertThat(Intents.of(0, 0)).isNull();
    assertThat(Intents.describe(JobIntent.COMPLETED)).isEqualTo("JOB COMPLETED");
  }

  /** Every (value type, intent) of the old log's records names an intent, and a JOB one. */
  @Test
  void theOldLogsCodesAreKnown() throws IOException {
    String records;
    try (InputStream in = getClass().getResourceAsStream("/fixtures/old-log-v7.records.txt")) {
      assertThat(in).as("the old log's listing").isNotNull();
      records = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Matcher pair = Pattern.compile("valueType=(\\d+) intent=(\\d+)").matcher(records);
    Set<Intent> found = new HashSet<>();
    while (pair.find()) {
      Intent intent = Intents.of(Integer.parseInt(pair.group(1)), Integer.parseInt(pair.group(2)));
      assertThat(intent).as(pair.group()).isNotNull();
      found.add(intent);
    }
    assertThat(found).contains(JobIntent.COMPLETED, JobIntent.COMPLETE, DeploymentIntent.CREATE);
  }
}
