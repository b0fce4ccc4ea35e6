package io.tern.engine.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class RecordBatchTest {

  record Spec(
      RecordType type,
      int valueType,
      int intent,
      long key,
      long source,
      int streamId,
      long requestId,
      RejectionType rejection,
      String reason,
      boolean processed,
      byte[] value) {}

  @Provide
  Arbitrary<List<Spec>> batches() {
    Arbitrary<Spec> spec =
        Combinators.combine(
                Arbitraries.of(RecordType.COMMAND, RecordType.EVENT, RecordType.COMMAND_REJECTION),
                Arbitraries.integers().between(0, 0xFFFF),
                Arbitraries.integers().between(0, 0xFFFF),
                Arbitraries.longs().between(-1, Long.MAX_VALUE),
                Arbitraries.longs().between(-1, Long.MAX_VALUE),
                Arbitraries.integers().between(-1, 1000),
                Arbitraries.longs().between(-1, Long.MAX_VALUE),
                Arbitraries.of(RejectionType.NONE, RejectionType.NOT_FOUND))
            .flatAs(
                (type, valueType, intent, key, source, streamId, requestId, rejection) ->
                    Combinators.combine(
                            Arbitraries.strings().ofMaxLength(40),
                            Arbitraries.of(true, false),
                            Arbitraries.bytes().array(byte[].class).ofMaxSize(300))
                        .as(
                            (reason, processed, value) ->
                                new Spec(
                                    type, valueType, intent, key, source, streamId, requestId,
                                    rejection, reason, processed, value)));
    return spec.list().ofMinSize(1).ofMaxSize(20);
  }

  @Property(tries = 200)
  void everyFieldReadsBackAsWritten(
      @ForAll("batches") List<Spec> specs, @ForAll long firstPositionSeed) {
    long firstPosition = Math.floorMod(firstPositionSeed, 1L << 60);
    RecordBatchBuilder builder = new RecordBatchBuilder(7, 1 << 20).reset(1234);
    for (Spec s : specs) {
      assertThat(
              builder.appendWithCodes(
                  s.type,
                  s.valueType,
                  s.intent,
                  s.key,
                  s.source,
                  s.streamId,
                  s.requestId,
                  s.rejection,
                  s.reason,
                  s.processed,
                  RecordValue.of(new UnsafeBuffer(s.value), 0, s.value.length)))
          .isGreaterThanOrEqualTo(0);
    }
    builder.assignPositions(firstPosition);
    byte[] bytes = new byte[builder.length()];
    builder.buffer().getBytes(0, bytes);

    RecordBatch batch = new RecordBatch().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
    assertThat(batch.firstPosition()).isEqualTo(firstPosition);
    assertThat(batch.recordCount()).isEqualTo(specs.size());
    for (int i = 0; i < specs.size(); i++) {
      Spec s = specs.get(i);
      LoggedRecord r = batch.next();
      assertThat(r.position()).isEqualTo(firstPosition + i);
      assertThat(r.recordType()).isEqualTo(s.type);
      assertThat(r.valueTypeCode()).isEqualTo(s.valueType);
      assertThat(r.intentCode()).isEqualTo(s.intent);
      assertThat(r.intent()).isEqualTo(Intents.of(s.valueType, s.intent));
      assertThat(r.key()).isEqualTo(s.key);
      assertThat(r.sourceRecordPosition()).isEqualTo(s.source);
      assertThat(r.requestStreamId()).isEqualTo(s.streamId);
      assertThat(r.requestId()).isEqualTo(s.requestId);
      assertThat(r.rejectionType()).isEqualTo(s.rejection);
      assertThat(r.rejectionReason()).isEqualTo(s.reason);
      assertThat(r.isProcessed()).isEqualTo(s.processed);
      assertThat(r.timestamp()).isEqualTo(1234);
      assertThat(r.partitionId()).isEqualTo(7);
      byte[] value = new byte[r.value().capacity()];
      r.value().getBytes(0, value);
      assertThat(value).isEqualTo(s.value);
    }
    assertThat(batch.hasNext()).isFalse();
  }

  private static RecordBatchBuilder oneRecord(int maxBytes, String value) {
    RecordBatchBuilder builder = new RecordBatchBuilder(1, maxBytes).reset(0);
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    builder.append(
        RecordType.COMMAND,
        JobIntent.COMPLETE,
        -1,
        -1,
        -1,
        -1,
        RejectionType.NONE,
        null,
        false,
        RecordValue.of(new UnsafeBuffer(bytes), 0, bytes.length));
    return builder;
  }

  @Test
  void aRecordBeyondTheBatchLimitIsRefusedAndLeavesTheBatchAsItWas() {
    RecordBatchBuilder builder = oneRecord(200, "small");
    int length = builder.length();
    byte[] big = new byte[200];

    int index =
        builder.append(
            RecordType.EVENT,
            JobIntent.COMPLETE,
            -1,
            -1,
            -1,
            -1,
            RejectionType.NONE,
            null,
            false,
            RecordValue.of(new UnsafeBuffer(big), 0, big.length));

    assertThat(index).isEqualTo(-1);
    assertThat(builder.length()).isEqualTo(length);
    assertThat(builder.recordCount()).isEqualTo(1);
  }

  @Test
  void truncatedOrForeignBytesAreRejectedWithTheReason() {
    RecordBatchBuilder builder = oneRecord(4096, "payload");
    builder.assignPositions(10);
    byte[] bytes = new byte[builder.length()];
    builder.buffer().getBytes(0, bytes);

    RecordBatch batch = new RecordBatch().wrap(new UnsafeBuffer(bytes), 0, bytes.length - 3);
    assertThatThrownBy(batch::next)
        .isInstanceOf(RecordFormatException.class)
        .hasMessageContaining("runs past the end");

    byte[] foreign = bytes.clone();
    foreign[4] = 1; // schema id
    assertThatThrownBy(() -> new RecordBatch().wrap(new UnsafeBuffer(foreign), 0, foreign.length))
        .isInstanceOf(RecordFormatException.class)
        .hasMessageContaining("Not a record batch");

    byte[] trailing = java.util.Arrays.copyOf(bytes, bytes.length + 5);
    RecordBatch withTrailing =
        new RecordBatch().wrap(new UnsafeBuffer(trailing), 0, trailing.length);
    assertThatThrownBy(withTrailing::next).hasMessageContaining("bytes follow the last");
  }

  @Test
  void keysNameTheirPartition() {
    long key = Keys.encode(4095, Keys.MAX_COUNTER);
    assertThat(key).isPositive();
    assertThat(Keys.partitionOf(key)).isEqualTo(4095);
    assertThat(Keys.counterOf(key)).isEqualTo(Keys.MAX_COUNTER);
    assertThat(Keys.encode(3, 42)).isEqualTo((3L << 51) + 42);
    assertThatThrownBy(() -> Keys.encode(4096, 1)).hasMessageContaining("4095");
    assertThatThrownBy(() -> Keys.encode(1, -1)).isInstanceOf(IllegalArgumentException.class);
  }
}
