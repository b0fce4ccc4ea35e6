package io.tern.exporter.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.VariableIntent;
import io.camunda.zeebe.protocol.record.value.ImmutableVariableRecordValue;
import org.junit.jupiter.api.Test;

class IndexNamesTest {
  private final IndexNames names = new IndexNames("zeebe-record", "yyyy-MM-dd");

  @Test
  void theIndexIsPrefixValueTypeVersionAndTheDayOfTheTimestampInUtc() {
    long lastMillisecondOfTheDay = TestRecords.DAY_2026_12_07 + 86_400_000L - 1;

    assertThat(names.index(TestRecords.job(10, TestRecords.DAY_2026_12_07)))
        .isEqualTo("zeebe-record_job_8.6.0_2026-12-07");
    assertThat(names.index(TestRecords.job(11, lastMillisecondOfTheDay)))
        .isEqualTo("zeebe-record_job_8.6.0_2026-12-07");
    assertThat(names.index(TestRecords.job(12, lastMillisecondOfTheDay + 1)))
        .isEqualTo("zeebe-record_job_8.6.0_2026-12-08");
  }

  @Test
  void anotherDatePatternIsHonoured() {
    assertThat(
            new IndexNames("tern", "yyyy-MM").index(TestRecords.job(1, TestRecords.DAY_2026_12_07)))
        .isEqualTo("tern_job_8.6.0_2026-12");
  }

  @Test
  void namesKeptForASecondFollowTheValueTypeTheVersionAndTheNextSecond() {
    long second = TestRecords.DAY_2026_12_07 + 86_399_000L; // 23:59:59
    Record<?> job = TestRecords.job(1, second);
    Record<?> variable =
        TestRecords.record(
            1,
            2,
            second + 1,
            RecordType.EVENT,
            ValueType.VARIABLE,
            VariableIntent.CREATED,
            ImmutableVariableRecordValue.builder().build());
    Record<?> otherVersion = TestRecords.withBrokerVersion(job, "8.6.1");

    assertThat(names.index(job)).isEqualTo("zeebe-record_job_8.6.0_2026-12-07");
    assertThat(names.index(variable)).isEqualTo("zeebe-record_variable_8.6.0_2026-12-07");
    assertThat(names.index(otherVersion)).isEqualTo("zeebe-record_job_8.6.1_2026-12-07");
    assertThat(names.index(TestRecords.job(3, second + 999)))
        .isEqualTo("zeebe-record_job_8.6.0_2026-12-07");
    assertThat(names.index(TestRecords.job(4, second + 1000)))
        .isEqualTo("zeebe-record_job_8.6.0_2026-12-08");
  }

  @Test
  void aPatternWithFractionsOfASecondNamesEachMillisecond() {
    IndexNames millis = new IndexNames("tern", "HHmmss'S'SSS");
    assertThat(millis.index(TestRecords.job(1, TestRecords.DAY_2026_12_07 + 1)))
        .isEqualTo("tern_job_8.6.0_000000S001");
    assertThat(millis.index(TestRecords.job(2, TestRecords.DAY_2026_12_07 + 2)))
        .isEqualTo("tern_job_8.6.0_000000S002");
  }

  @Test
  void valueTypesAreLowerCaseWithDashes() {
    assertThat(IndexNames.valueTypeName(ValueType.PROCESS_INSTANCE)).isEqualTo("process-instance");
    assertThat(IndexNames.valueTypeName(ValueType.MESSAGE_START_EVENT_SUBSCRIPTION))
        .isEqualTo("message-start-event-subscription");
  }

  @Test
  void theIdIsPartitionAndPositionAndTheRoutingThePartition() {
    assertThat(IndexNames.id(TestRecords.job(3, 4711, 0))).isEqualTo("3-4711");
    assertThat(IndexNames.routing(TestRecords.job(3, 4711, 0))).isEqualTo("3");
  }

  @Test
  void aliasesTemplatesAndPatternsAreZeebes() {
    assertThat(names.alias(ValueType.PROCESS_INSTANCE)).isEqualTo("zeebe-record-process-instance");
    assertThat(names.indexTemplate(ValueType.JOB, "8.6.0")).isEqualTo("zeebe-record_job_8.6.0");
    assertThat(names.indexPattern(ValueType.JOB, "8.6.0")).isEqualTo("zeebe-record_job_8.6.0_*");
    assertThat(names.componentTemplate("8.6.0")).isEqualTo("zeebe-record-8.6.0");
    assertThat(names.componentTemplate("8.6.0-SNAPSHOT")).isEqualTo("zeebe-record-8.6.0-snapshot");
  }
}
