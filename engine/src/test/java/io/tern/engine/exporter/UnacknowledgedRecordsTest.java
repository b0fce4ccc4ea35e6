package io.tern.engine.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnacknowledgedRecordsTest {
  @Test
  void theOldestHeldRecordIsTheFirstAfterTheAcknowledgedPositionAcrossWrapsAndGrowth() {
    UnacknowledgedRecords records = new UnacknowledgedRecords();
    assertThat(records.oldestTimestampMs()).isZero();
    long position = 0;
    long acknowledged = 0;
    // Add 3 and acknowledge 2 at a time, so the ring wraps and grows while holding some.
    for (int round = 0; round < 200; round++) {
      for (int i = 0; i < 3; i++) {
        position += 2; // positions need not be contiguous
        records.add(position, 1_000 + position);
      }
      acknowledged += 4;
      records.acknowledge(acknowledged);
      assertThat(records.oldestTimestampMs()).isEqualTo(1_000 + acknowledged + 2);
      assertThat(records.size()).isEqualTo((int) ((position - acknowledged) / 2));
    }
    records.acknowledge(position);
    assertThat(records.size()).isZero();
    assertThat(records.oldestTimestampMs()).isZero();
  }

  @Test
  void pastTheLimitNewRecordsAreNotKeptAndTheOldestStaysRight() {
    UnacknowledgedRecords records = new UnacknowledgedRecords();
    for (long p = 1; p <= UnacknowledgedRecords.MAX_RECORDS + 10; p++) {
      records.add(p, p);
    }
    assertThat(records.size()).isEqualTo(UnacknowledgedRecords.MAX_RECORDS);
    assertThat(records.oldestTimestampMs()).isEqualTo(1);
    records.acknowledge(UnacknowledgedRecords.MAX_RECORDS);
    assertThat(records.oldestTimestampMs()).isZero();
  }
}
