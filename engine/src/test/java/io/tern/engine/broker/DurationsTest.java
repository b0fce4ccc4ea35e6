package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void durationsAreReadAsPeopleWriteThem() {
    assertThat(Durations.parse("7d")).isEqualTo(Duration.ofDays(7));
    assertThat(Durations.parse("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(Durations.parse("10 s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(Durations.parse("50ms")).isEqualTo(Duration.ofMillis(50));
    assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("PT10S")).isEqualTo(Duration.ofSeconds(10));
    assertThat(Durations.parse("0")).isZero();
  }

  @Test
  void whatIsNoDurationIsNamed() {
    assertThatThrownBy(() -> Durations.parse("7 days"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'7 days' is not a duration");
    assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("'soon'");
    assertThatThrownBy(() -> Durations.parse("-5s")).hasMessageContaining("'-5s'");
    assertThatThrownBy(() -> Durations.parse("PT-5S")).hasMessageContaining("'PT-5S'");
    assertThatThrownBy(() -> Durations.parse("Pfoo")).hasMessageContaining("'Pfoo'");
  }
}
