package io.tern.engine.exporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The EXPORTER records' value reads back what was written, and refuses bytes that are none. */
class ExporterPositionValueTest {
  @Test
  void readsBackWhatWasWritten() {
    ExporterPositionValue value =
        new ExporterPositionValue("élastic", 4711, "meta".getBytes(StandardCharsets.UTF_8));
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[value.length() + 8]);
    value.write(buffer, 8);

    ExporterPositionValue read = ExporterPositionValue.read(buffer, 8, value.length());
    assertThat(read.exporterId()).isEqualTo("élastic");
    assertThat(read.position()).isEqualTo(4711);
    assertThat(new String(read.metadata(), StandardCharsets.UTF_8)).isEqualTo("meta");

    ExporterPositionValue empty = new ExporterPositionValue("x", -1, null);
    UnsafeBuffer small = new UnsafeBuffer(new byte[empty.length()]);
    empty.write(small, 0);
    assertThat(ExporterPositionValue.read(small, 0, empty.length()).metadata()).isEmpty();
  }

  @Test
  void refusesBytesThatAreNoValue() {
    ExporterPositionValue value = new ExporterPositionValue("rec", 1, new byte[3]);
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[value.length()]);
    value.write(buffer, 0);
    assertThatThrownBy(() -> ExporterPositionValue.read(buffer, 0, value.length() - 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ExporterPositionValue.read(buffer, 0, 6))
        .isInstanceOf(IllegalArgumentException.class);
    buffer.putInt(0, -5, java.nio.ByteOrder.LITTLE_ENDIAN);
    assertThatThrownBy(() -> ExporterPositionValue.read(buffer, 0, value.length()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
