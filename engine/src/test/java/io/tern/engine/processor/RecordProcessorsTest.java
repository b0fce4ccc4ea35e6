package io.tern.engine.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.TimerIntent;
import org.junit.jupiter.api.Test;

/** The dispatch table: by intent, which names its value type, so no pair can be mismatched. */
class RecordProcessorsTest {
  private static final CommandProcessor PROCESSOR = (command, result) -> {};
  private static final EventApplier APPLIER = event -> {};

  @Test
  void eachIntentFindsWhatWasRegisteredForIt() {
    RecordProcessors processors =
        new RecordProcessors()
            .onCommand(JobIntent.COMPLETE, PROCESSOR)
            .onEvent(JobIntent.COMPLETED, APPLIER);
    assertThat(processors.processor(JobIntent.COMPLETE)).isSameAs(PROCESSOR);
    assertThat(processors.applier(JobIntent.COMPLETED)).isSameAs(APPLIER);
    assertThat(processors.processor(JobIntent.COMPLETED)).isNull();
    assertThat(processors.applier(JobIntent.COMPLETE)).isNull();
    assertThat(processors.processor(JobIntent.MIGRATED)).as("beyond the table").isNull();
    assertThat(processors.processor(TimerIntent.TRIGGER)).as("another value type").isNull();
    assertThat(processors.processor(null)).as("a record of unknown codes").isNull();
    assertThat(processors.applier(null)).isNull();
  }

  @Test
  void aSecondRegistrationIsRefusedNamingTheIntent() {
    RecordProcessors processors =
        new RecordProcessors()
            .onCommand(JobIntent.COMPLETE, PROCESSOR)
            .onEvent(JobIntent.COMPLETED, APPLIER);
    assertThatThrownBy(() -> processors.onCommand(JobIntent.COMPLETE, PROCESSOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A processor for JOB COMPLETE exists already");
    assertThatThrownBy(() -> processors.onEvent(JobIntent.COMPLETED, APPLIER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("An applier for JOB COMPLETED exists already");
  }
}
