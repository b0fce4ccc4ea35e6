package io.tern.engine.processor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.log.CommandIntake;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.state.PartitionState;
import io.tern.engine.state.StateConfig;
import io.tern.engine.state.StateResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/** One member's stream processor over a shared in-memory log, with its own state directory. */
public final class TestMember implements AutoCloseable {
  static final int PARTITION = 1;

  /** An answer a client got. */
  public record Answer(
      long requestId,
      RecordType recordType,
      Intent intent,
      RejectionType rejection,
      String reason,
      long key,
      byte[] value) {}

  public final StreamProcessor processor;
  public final InMemoryLogStorage log;
  final CommandIntake intake;
  final List<Answer> answers = new CopyOnWriteArrayList<>();

  /** The request ids of client commands reported processed, in order. */
  final List<Long> processed = new CopyOnWriteArrayList<>();

  private final StateResources resources;
  private long nextRequestId = 1;

  TestMember(InMemoryLogStorage log, Path directory, ProcessorConfig config) {
    this(log, directory, config, TestEngine::create);
  }

  public TestMember(
      InMemoryLogStorage log,
      Path directory,
      ProcessorConfig config,
      RecordProcessorsFactory engine) {
    this(PARTITION, log, directory, config, engine);
  }

  /** A member of partition {@code partitionId}. */
  public TestMember(
      int partitionId,
      InMemoryLogStorage log,
      Path directory,
      ProcessorConfig config,
      RecordProcessorsFactory engine) {
    this(partitionId, log, directory, config, engine, System::currentTimeMillis);
  }

  /**
   * A member of partition {@code partitionId} whose processor and command intake read {@code
   * clockMs}.
   */
  public TestMember(
      int partitionId,
      InMemoryLogStorage log,
      Path directory,
      ProcessorConfig config,
      RecordProcessorsFactory engine,
      LongSupplier clockMs) {
    this.log = log;
    this.resources = new StateResources(StateConfig.defaults().withMemoryLimitMb(32));
    Path runtime = directory.resolve("runtime");
    StateRecovery recovery =
        () -> {
          deleteRecursively(runtime);
          return new StateRecovery.Recovered(new PartitionState(runtime, resources), 1, 0);
        };
    LogStreamWriter writer = new LogStreamWriter(partitionId, log, config.maxBatchBytes());
    this.intake = new CommandIntake(partitionId, writer, clockMs);
    this.processor =
        new StreamProcessor(
            partitionId,
            config,
            log,
            writer,
            recovery,
            engine,
            new CommandResponseSink() {
              @Override
              public void respond(int streamId, long requestId, LoggedRecord answer) {
                answer(streamId, requestId, answer);
              }

              @Override
              public void processed(int streamId, long requestId, long key) {
                processed.add(requestId);
              }
            },
            clockMs,
            directory,
            null,
            new SimpleMeterRegistry());
    log.addListener(processor);
    processor.start();
  }

  private void answer(int streamId, long requestId, LoggedRecord record) {
    byte[] value = new byte[record.value().capacity()];
    record.value().getBytes(0, value);
    answers.add(
        new Answer(
            requestId,
            record.recordType(),
            record.intent(),
            record.rejectionType(),
            record.rejectionType() == RejectionType.NONE ? null : record.rejectionReason(),
            record.key(),
            value));
  }

  /** Writes a client command; returns its request id. */
  synchronized long send(Intent intent, long key, String value) {
    return send(intent, key, TestEngine.value(value));
  }

  /** Writes a client command of any value type; returns its request id. */
  public synchronized long send(Intent intent, long key, RecordValue value) {
    long requestId = nextRequestId++;
    intake.write(0, requestId, intent, key, value);
    return requestId;
  }

  /**
   * Writes a command nobody waits an answer for (as another partition does).
   *
   * @throws io.tern.engine.log.LogStreamWriter.NotWritableException if this member cannot write
   */
  public void write(Intent intent, long key, RecordValue value) {
    intake.write(-1, -1, intent, key, value);
  }

  public Answer awaitAnswer(long requestId) {
    await(() -> answers.stream().anyMatch(a -> a.requestId() == requestId), "answer " + requestId);
    return answers.stream().filter(a -> a.requestId() == requestId).findFirst().orElseThrow();
  }

  public void awaitPhase(ProcessorPhase phase) {
    await(() -> processor.phase() == phase, "phase " + phase + ", now " + processor.phase());
  }

  /** Every committed key and value of the state, hex, read on the processor thread. */
  public Map<String, String> dump() {
    CompletableFuture<Map<String, String>> result = new CompletableFuture<>();
    processor.execute(
        () -> {
          Map<String, String> entries = new TreeMap<>();
          HexFormat hex = HexFormat.of();
          processor
              .currentState()
              .forEachRaw((k, v) -> entries.put(hex.formatHex(k), hex.formatHex(v)));
          result.complete(entries);
        });
    return result.orTimeout(10, TimeUnit.SECONDS).join();
  }

  /** Entities only (column family {@link TestEngine#ENTITIES}): key -> text value. */
  Map<String, String> entities() {
    Map<String, String> entities = new TreeMap<>();
    String prefix = String.format("%04x", TestEngine.ENTITIES);
    dump()
        .forEach(
            (k, v) -> {
              if (k.startsWith(prefix)) {
                entities.put(k, new String(HexFormat.of().parseHex(v)));
              }
            });
    return entities;
  }

  public static void await(BooleanSupplier condition, String what) {
    Awaitility.await(what)
        .atMost(Duration.ofSeconds(20))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(2))
        .until(condition::getAsBoolean);
  }

  static void deleteRecursively(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static RecordValue text(String value) {
    return TestEngine.value(value);
  }

  @Override
  public void close() {
    processor.close();
    resources.close();
  }
}
