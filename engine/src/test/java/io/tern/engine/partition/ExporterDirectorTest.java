package io.tern.engine.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.exporter.ExporterDescriptor;
import io.tern.engine.exporter.ExporterDirector;
import io.tern.engine.exporter.ExporterLoader;
import io.tern.engine.exporter.ExporterPositionValue;
import io.tern.engine.exporter.ExporterPositions;
import io.tern.engine.exporter.ExporterStatus;
import io.tern.engine.exporter.FileExporterJar;
import io.tern.engine.exporter.LoadedExporter;
import io.tern.engine.exporter.RecordingExporter;
import io.tern.engine.exporter.TestRecordMapper;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.processor.TestEngine;
import io.tern.engine.protocol.ExporterIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.record.RecordBatch;
import io.tern.journal.JournalReader;
import io.tern.journal.JournalRecord;
import io.tern.raft.storage.JournalRaftLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exporter director on real partitions (Raft, processor, state): what an exporter gets, its
 * retries, its position through the log and the state across a restart and a leader change, and the
 * log's compaction held back by what it has not acknowledged.
 */
class ExporterDirectorTest {
  private static final String ID = "rec";

  /** Fast timings, so that tests wait less: the defaults are 1 s, 100 ms and 10 s. */
  private static final ExporterDirector.Settings FAST =
      new ExporterDirector.Settings(
          Duration.ofMillis(50), Duration.ofMillis(20), Duration.ofMillis(200));

  @TempDir Path dir;
  private final String journalName = "director-" + UUID.randomUUID();
  private final RecordingExporter.Journal journal = RecordingExporter.journal(journalName);
  private final List<LoadedExporter> templates = new ArrayList<>();
  private EngineCluster cluster;

  @AfterEach
  void closeAll() {
    if (cluster != null) {
      cluster.close();
    }
    templates.forEach(LoadedExporter::close);
  }

  private PartitionExporters exporters(Map<String, Object> args) {
    return new PartitionExporters(
        List.of(template(ID, journalName, args)), partition -> new TestRecordMapper(), FAST);
  }

  private LoadedExporter template(String id, String journal, Map<String, Object> args) {
    Map<String, Object> all = new HashMap<>(args);
    all.put("journal", journal);
    LoadedExporter template =
        new ExporterLoader(1, new SimpleMeterRegistry(), InstantSource.system())
            .load(new ExporterDescriptor(id, RecordingExporter.class.getName(), null, all));
    templates.add(template);
    return template;
  }

  @Test
  void anExporterGetsCommittedRecordsInLogOrderAndThoseItFailedOnAgain() {
    cluster = new EngineCluster(dir, 1, 0, exporters(Map.of("failures", 2)));
    EngineCluster.Broker broker = cluster.awaitLeader();
    Map<Long, Long> commitAtExport = new ConcurrentHashMap<>();
    journal.onExport =
        position -> commitAtExport.putIfAbsent(position, broker.partition.raft().commitIndex());

    for (long i = 1; i <= 40; i++) {
      cluster.send(i, "value-" + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 40, "40 answers");
    List<Long> expected = exportable(broker);
    EngineCluster.await(() -> journal.exported.size() >= expected.size(), "every record exported");

    assertThat(journal.exported).containsExactlyElementsOf(expected);
    assertThat(journal.failed)
        .as("the first record, twice, and nothing skipped after")
        .containsExactly(expected.get(0), expected.get(0));
    Map<Long, Long> indexes = entryIndexes(broker);
    for (long position : expected) {
      assertThat(indexes.get(position))
          .as("the entry of position %d was committed when it was exported", position)
          .isLessThanOrEqualTo(commitAtExport.get(position));
    }
    assertThat(journal.threads).as("the exporter's own thread").containsOnly("exporter-p1-rec");
    assertThat(journal.contextLoaders).containsOnly(RecordingExporter.class.getClassLoader());
    assertThat(journal.opened).hasValue(1);

    ExporterStatus status = broker.partition.director().status(ID);
    assertThat(status.state()).isEqualTo(ExporterStatus.State.RUNNING);
    assertThat(status.lastError()).contains("failing on purpose");
    EngineCluster.await(
        () -> status.position() >= expected.get(expected.size() - 1) && status.lagRecords() <= 2,
        "the status caught up");
  }

  /**
   * Closing the partition closes every exporter instance the director opened, and opens no new one
   * although the member still leads while it closes (once seen: a session opened after the close,
   * its exporter opened against a store being shut).
   */
  @Test
  void closingThePartitionClosesEveryExporterItOpenedAndOpensNoMore() {
    cluster = new EngineCluster(dir, 1, 0, exporters(Map.of()));
    EngineCluster.Broker broker = cluster.awaitLeader();
    cluster.send(1, "value-1");
    EngineCluster.await(() -> broker.answers.size() == 1, "an answer");
    EngineCluster.await(() -> !journal.exported.isEmpty(), "something exported");
    cluster.close();
    cluster = null;
    assertThat(journal.opened.get()).isPositive();
    assertThat(journal.closed.get()).isEqualTo(journal.opened.get());
  }

  /** Each exporter has a thread of its own: one stuck in export holds back no other. */
  @Test
  void anExporterStuckInExportHoldsBackNoOther() throws Exception {
    String otherName = journalName + "-other";
    RecordingExporter.Journal other = RecordingExporter.journal(otherName);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    journal.onExport =
        position -> {
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    cluster =
        new EngineCluster(
            dir,
            1,
            0,
            new PartitionExporters(
                List.of(
                    template(ID, journalName, Map.of()), template("other", otherName, Map.of())),
                partition -> new TestRecordMapper(),
                FAST));
    try {
      EngineCluster.Broker broker = cluster.awaitLeader();
      for (long i = 1; i <= 10; i++) {
        cluster.send(i, "value-" + i);
      }
      EngineCluster.await(() -> broker.answers.size() == 10, "10 answers");
      List<Long> expected = exportable(broker);
      EngineCluster.await(
          () -> other.exported.size() >= expected.size(), "the other exported everything");
      assertThat(journal.exported).as("the stuck one, still in its first export").isEmpty();
    } finally {
      release.countDown();
    }
    EngineCluster.await(
        () -> journal.exported.size() >= other.exported.size(), "the stuck one caught up");
    assertThat(journal.exported).containsExactlyElementsOf(other.exported);
  }

  @Test
  void anExporterThatKeepsFailingHoldsBackNoOtherAndLosesNothing() {
    String otherName = journalName + "-other";
    RecordingExporter.Journal other = RecordingExporter.journal(otherName);
    cluster =
        new EngineCluster(
            dir,
            1,
            0,
            new PartitionExporters(
                List.of(
                    template(ID, journalName, Map.of("failures", 1_000_000)),
                    template("other", otherName, Map.of())),
                partition -> new TestRecordMapper(),
                FAST));
    EngineCluster.Broker broker = cluster.awaitLeader();
    for (long i = 1; i <= 20; i++) {
      cluster.send(i, "value-" + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 20, "20 answers");
    List<Long> expected = exportable(broker);
    EngineCluster.await(() -> other.exported.size() >= expected.size(), "the other exported all");
    EngineCluster.await(() -> journal.failed.size() >= 3, "retries");

    assertThat(other.exported).containsExactlyElementsOf(expected);
    assertThat(journal.exported).isEmpty();
    assertThat(journal.failed).containsOnly(expected.get(0));
    ExporterStatus failing = broker.partition.director().status(ID);
    assertThat(failing.state()).isEqualTo(ExporterStatus.State.RETRYING);
    assertThat(failing.position()).isEqualTo(-1);
    assertThat(failing.lagRecords()).isGreaterThanOrEqualTo(expected.size());
    assertThat(failing.lagSeconds(System.currentTimeMillis())).isGreaterThan(0);

    journal.failuresLeft.set(0);
    EngineCluster.await(() -> journal.exported.size() >= expected.size(), "it caught up");
    assertThat(journal.exported).containsExactlyElementsOf(expected);
    EngineCluster.await(() -> failing.state() == ExporterStatus.State.RUNNING, "it runs again");
  }

  @Test
  void theControllerKeepsMetadataRunsTasksAndTheFilterSkipsRecords() {
    cluster =
        new EngineCluster(
            dir, 1, 0, exporters(Map.of("metadata", "true", "task", "true", "eventsOnly", "true")));
    EngineCluster.Broker broker = cluster.awaitLeader();
    for (long i = 1; i <= 10; i++) {
      cluster.send(i, "value-" + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 10, "10 answers");
    List<Long> events = new ArrayList<>();
    broker.forEachCommittedRecord(
        record -> {
          if (record.isEvent() && record.valueType() != ValueType.EXPORTER) {
            events.add(record.position());
          }
        });
    EngineCluster.await(() -> journal.exported.size() >= events.size(), "the events exported");
    assertThat(journal.exported).as("commands filtered out").containsExactlyElementsOf(events);
    assertThat(journal.metadataAtOpen).containsExactly((String) null);
    assertThat(journal.positionAtOpen).containsExactly(-1L);
    EngineCluster.await(() -> !journal.taskThreads.isEmpty(), "the scheduled task ran");
    assertThat(journal.taskThreads).containsExactly("exporter-p1-rec");
    assertThat(journal.taskLoaders).containsExactly(RecordingExporter.class.getClassLoader());

    long last = events.get(events.size() - 1);
    EngineCluster.await(() -> storedPosition(broker) >= last, "the position stored");
    cluster.kill(1);
    cluster.start(1);
    cluster.awaitLeader();
    EngineCluster.await(() -> journal.opened.get() == 2, "opened again");
    assertThat(journal.metadataAtOpen).containsExactly(null, "at " + last);
    assertThat(journal.positionAtOpen.get(1)).isGreaterThanOrEqualTo(last);
  }

  /** An exporter from a jar: every call runs with its own class loader as context class loader. */
  @Test
  void everyCallRunsWithTheExportersClassLoader() throws Exception {
    Path jar = FileExporterJar.build(dir.resolve("jars"));
    Path out = dir.resolve("calls.txt");
    LoadedExporter template =
        new ExporterLoader(1, new SimpleMeterRegistry(), InstantSource.system())
            .load(
                new ExporterDescriptor(
                    "files", FileExporterJar.CLASS_NAME, jar, Map.of("out", out.toString())));
    templates.add(template);
    cluster =
        new EngineCluster(
            dir,
            1,
            0,
            new PartitionExporters(List.of(template), partition -> new TestRecordMapper(), FAST));
    EngineCluster.Broker broker = cluster.awaitLeader();
    for (long i = 1; i <= 5; i++) {
      cluster.send(i, "value-" + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 5, "5 answers");
    List<Long> expected = exportable(broker);
    EngineCluster.await(
        () -> calls(out).contains("export " + expected.get(expected.size() - 1)), "all exported");
    cluster.kill(1);

    List<String> lines = Files.readAllLines(out);
    assertThat(lines.get(0)).as("the check at start").startsWith("configure own ");
    assertThat(lines.subList(1, lines.size()))
        .allSatisfy(line -> assertThat(line).endsWith(" own exporter-p1-files"));
    assertThat(lines.subList(1, lines.size()))
        .extracting(line -> line.substring(0, line.indexOf(" own")))
        .startsWith("configure", "open", "export " + expected.get(0))
        .endsWith("close");
  }

  private static String calls(Path out) {
    try {
      return Files.exists(out) ? Files.readString(out) : "";
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aRestartedBrokerResumesAfterTheStoredPosition() {
    cluster = new EngineCluster(dir, 1, 0, exporters(Map.of()));
    EngineCluster.Broker broker = cluster.awaitLeader();
    for (long i = 1; i <= 20; i++) {
      cluster.send(i, "before-" + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 20, "20 answers");
    List<Long> before = exportable(broker);
    EngineCluster.await(() -> journal.exported.size() >= before.size(), "all exported");
    long stored = before.get(before.size() - 1);
    EngineCluster.await(() -> storedPosition(broker) >= stored, "the position stored");

    cluster.kill(1);
    assertThat(journal.closed).hasValue(1);
    EngineCluster.Broker restarted = cluster.start(1);
    cluster.awaitLeader();
    EngineCluster.await(() -> journal.opened.get() == 2, "the exporter opened again");
    for (long i = 21; i <= 30; i++) {
      cluster.send(i, "after-" + i);
    }
    EngineCluster.await(() -> restarted.answers.size() == 10, "10 answers");
    List<Long> all = exportable(restarted);
    EngineCluster.await(() -> journal.exported.size() >= all.size(), "the new ones exported");

    assertThat(journal.exported)
        .as("each record once: none before the stored position again, none lost")
        .containsExactlyElementsOf(all);
  }

  /**
   * An exporter that holds what it was handed (a bulk not yet flushed) is behind by the oldest
   * record it has not acknowledged, not by what it has not been handed.
   */
  @Test
  void theLagCountsWhatTheExporterHoldsUnacknowledged() {
    cluster = new EngineCluster(dir, 1, 0, exporters(Map.of("acknowledge", "false")));
    EngineCluster.Broker broker = cluster.awaitLeader();
    for (long i = 1; i <= 10; i++) {
      cluster.send(i, "value-" + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 10, "10 answers");
    List<Long> expected = exportable(broker);
    EngineCluster.await(() -> journal.exported.size() >= expected.size(), "all handed over");
    ExporterStatus status = broker.partition.director().status(ID);
    long firstTimestampMs = timestampOf(broker, expected.get(0));
    long nowMs = System.currentTimeMillis();
    assertThat(status.lagSeconds(nowMs))
        .as("the age of the first record, which the exporter still holds")
        .isEqualTo((nowMs - firstTimestampMs) / 1000.0);

    long half = expected.get(4);
    journal.controller.updateLastExportedRecordPosition(half);
    long later = System.currentTimeMillis();
    assertThat(status.lagSeconds(later))
        .isEqualTo((later - timestampOf(broker, expected.get(5))) / 1000.0);

    journal.controller.updateLastExportedRecordPosition(expected.get(expected.size() - 1));
    EngineCluster.await(
        () -> status.lagSeconds(System.currentTimeMillis()) == 0,
        "no lag once all is acknowledged");
  }

  private static long timestampOf(EngineCluster.Broker broker, long position) {
    long[] timestamp = {-1};
    broker.forEachCommittedRecord(
        record -> {
          if (record.position() == position) {
            timestamp[0] = record.timestamp();
          }
        });
    assertThat(timestamp[0]).as("the record at " + position).isPositive();
    return timestamp[0];
  }

  @Test
  void compactionKeepsWhatAnExporterHasNotAcknowledged() {
    cluster = new EngineCluster(dir, 1, 0, exporters(Map.of("acknowledge", "false")));
    EngineCluster.Broker broker = cluster.awaitLeader();
    String big = "x".repeat(2_000);
    for (long i = 1; i <= 100; i++) {
      cluster.send(i, big + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 100, "100 answers");
    List<Long> expected = exportable(broker);
    EngineCluster.await(() -> journal.exported.size() >= expected.size(), "all exported");
    long firstIndex = broker.partition.raft().journal().getFirstIndex();

    assertThat(broker.partition.takeSnapshot().join()).isNotNull();
    assertThat(broker.partition.raft().journal().getFirstIndex())
        .as("nothing compacted: the exporter acknowledged nothing")
        .isEqualTo(firstIndex);
    assertThat(exportable(broker)).startsWith(expected.get(0));

    long acknowledged = expected.get(59);
    journal.controller.updateLastExportedRecordPosition(acknowledged);
    EngineCluster.await(() -> storedPosition(broker) >= acknowledged, "the position stored");
    assertThat(broker.partition.takeSnapshot().join()).isNotNull();
    EngineCluster.await(
        () -> broker.partition.raft().journal().getFirstIndex() > firstIndex,
        "the log compacted up to the acknowledged position");
    assertThat(exportable(broker))
        .as("what the exporter has not acknowledged is still there")
        .contains(acknowledged + 1)
        .doesNotContain(expected.get(0));

    journal.controller.updateLastExportedRecordPosition(expected.get(expected.size() - 1));
    EngineCluster.await(
        () -> storedPosition(broker) >= expected.get(expected.size() - 1), "the position stored");
    broker.partition.takeSnapshot().join();
    assertThat(exportable(broker)).doesNotContain(acknowledged + 1);
  }

  /** A late UPDATE_POSITION of an earlier leader does not move a stored position back. */
  @Test
  void aStoredPositionDoesNotMoveBack() {
    cluster = new EngineCluster(dir, 1, 0, exporters(Map.of()));
    EngineCluster.Broker broker = cluster.awaitLeader();
    for (long i = 1; i <= 5; i++) {
      cluster.send(i, "value-" + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 5, "5 answers");
    List<Long> expected = exportable(broker);
    long last = expected.get(expected.size() - 1);
    EngineCluster.await(() -> storedPosition(broker) >= last, "the position stored");
    long stored = storedPosition(broker);

    long late =
        broker
            .partition
            .intake()
            .write(
                -1,
                -1,
                ExporterIntent.UPDATE_POSITION,
                -1,
                new ExporterPositionValue(ID, 1, new byte[0]));
    // The rejection is processed before it is committed: wait for it among committed records.
    List<String> answers = new ArrayList<>();
    EngineCluster.await(
        () -> {
          answers.clear();
          broker.forEachCommittedRecord(
              record -> {
                if (record.sourceRecordPosition() == late) {
                  answers.add(record.rejectionType() + ": " + record.rejectionReason());
                }
              });
          return !answers.isEmpty();
        },
        "the command's rejection committed");
    assertThat(storedPosition(broker)).isEqualTo(stored);
    assertThat(answers).singleElement().asString().startsWith("INVALID_STATE").contains("later");
  }

  /** Positions are written while the disk watermark refuses commands: they free the disk. */
  @Test
  void positionsAreStoredWhenTheDiskRefusesCommands() {
    cluster = new EngineCluster(dir, 1, 0, exporters(Map.of("acknowledge", "false")));
    EngineCluster.Broker broker = cluster.awaitLeader();
    for (long i = 1; i <= 5; i++) {
      cluster.send(i, "value-" + i);
    }
    EngineCluster.await(() -> broker.answers.size() == 5, "5 answers");
    List<Long> expected = exportable(broker);
    EngineCluster.await(() -> journal.exported.size() >= expected.size(), "all exported");

    broker.freeDiskBytes.set(0);
    EngineCluster.await(
        () -> {
          try {
            broker.partition.intake().write(0, 99, TestEngine.CREATE, -1, TestEngine.value("x"));
            return false;
          } catch (LogStreamWriter.NotWritableException e) {
            return true;
          }
        },
        "client commands refused");
    long last = expected.get(expected.size() - 1);
    journal.controller.updateLastExportedRecordPosition(last);
    EngineCluster.await(() -> storedPosition(broker) >= last, "the position stored");
  }

  @Test
  void anExporterRemovedFromTheConfigurationHoldsNothingBack() {
    cluster = new EngineCluster(dir, 1, 0, exporters(Map.of()));
    EngineCluster.Broker broker = cluster.awaitLeader();
    cluster.send(1, "first");
    EngineCluster.await(() -> broker.answers.size() == 1, "an answer");
    List<Long> first = exportable(broker);
    EngineCluster.await(() -> journal.exported.size() >= first.size(), "exported");
    EngineCluster.await(() -> storedPosition(broker) >= 0, "a position stored");
    long firstIndex = broker.partition.raft().journal().getFirstIndex();

    cluster.kill(1);
    String otherName = journalName + "-other";
    RecordingExporter.Journal other = RecordingExporter.journal(otherName);
    cluster.exporters(
        new PartitionExporters(
            List.of(template("other", otherName, Map.of())),
            partition -> new TestRecordMapper(),
            FAST));
    EngineCluster.Broker restarted = cluster.start(1);
    cluster.awaitLeader();
    String big = "x".repeat(2_000);
    for (long i = 2; i <= 80; i++) {
      cluster.send(i, big + i);
    }
    EngineCluster.await(() -> restarted.answers.size() == 79, "79 answers");
    List<Long> all = exportable(restarted);
    EngineCluster.await(() -> other.exported.size() >= all.size(), "the new exporter got all");
    assertThat(other.exported).as("from the start of the log").containsExactlyElementsOf(all);
    long last = all.get(all.size() - 1);
    EngineCluster.await(() -> storedPosition(restarted, "other") >= last, "its position stored");
    assertThat(storedPosition(restarted)).as("the old one's is still stored").isGreaterThan(-1);

    assertThat(restarted.partition.takeSnapshot().join()).isNotNull();
    assertThat(restarted.partition.raft().journal().getFirstIndex())
        .as("compacted past the removed exporter's position")
        .isGreaterThan(firstIndex);
    assertThat(exportable(restarted)).doesNotContain(first.get(first.size() - 1));
  }

  @Test
  @Tag("slow")
  void aNewLeaderResumesWhereTheOldOneStored() {
    cluster = new EngineCluster(dir, 3, 0, exporters(Map.of()));
    EngineCluster.Broker leader = cluster.awaitLeader();
    for (long i = 1; i <= 20; i++) {
      cluster.send(i, "before-" + i);
    }
    EngineCluster.await(() -> leader.answers.size() == 20, "20 answers");
    List<Long> before = exportable(leader);
    EngineCluster.await(() -> journal.exported.size() >= before.size(), "all exported");
    long stored = before.get(before.size() - 1);
    for (EngineCluster.Broker broker : cluster.brokers.values()) {
      EngineCluster.await(
          () -> storedPosition(broker) >= stored, "broker " + broker.id + " stored the position");
    }

    cluster.kill(leader.id);
    EngineCluster.Broker next = cluster.awaitLeader();
    EngineCluster.await(() -> journal.opened.get() == 2, "the exporter opened on the new leader");
    for (long i = 21; i <= 30; i++) {
      cluster.send(i, "after-" + i);
    }
    EngineCluster.await(() -> next.answers.size() >= 10, "10 answers");
    List<Long> all = exportable(next);
    EngineCluster.await(() -> journal.exported.size() >= all.size(), "the new ones exported");
    assertThat(journal.exported).containsExactlyElementsOf(all);
  }

  /** A leader that hands its leadership over closes its exporters; the new one opens them. */
  @Test
  @Tag("slow")
  void aLeaderThatStepsDownClosesItsExporters() {
    cluster = new EngineCluster(dir, 3, 0, exporters(Map.of()));
    EngineCluster.Broker leader = cluster.awaitLeader();
    cluster.send(1, "before");
    EngineCluster.await(() -> leader.answers.size() == 1, "an answer");
    EngineCluster.await(() -> !journal.exported.isEmpty(), "exported");
    ExporterStatus status = leader.partition.director().status(ID);
    assertThat(status.state()).isEqualTo(ExporterStatus.State.RUNNING);
    EngineCluster.await(() -> storedPosition(leader) >= journal.lastExported(), "stored");
    int target = leader.id % 3 + 1;

    assertThat(leader.partition.raft().transferLeadership(target).join()).isTrue();
    EngineCluster.await(
        () -> cluster.brokers.get(target).isProcessingLeader(), "broker " + target + " leads");
    EngineCluster.await(() -> journal.closed.get() == 1, "the old leader closed its exporter");
    EngineCluster.await(() -> journal.opened.get() == 2, "the new leader opened one");
    assertThat(status.state()).isEqualTo(ExporterStatus.State.CLOSED);
    assertThat(cluster.brokers.get(target).partition.director().status(ID).state())
        .isEqualTo(ExporterStatus.State.RUNNING);

    EngineCluster.Broker next = cluster.brokers.get(target);
    cluster.send(2, "after");
    EngineCluster.await(() -> next.answers.size() == 1, "an answer");
    List<Long> all = exportable(next);
    EngineCluster.await(() -> journal.exported.size() >= all.size(), "the new one exported");
    assertThat(journal.exported).containsExactlyElementsOf(all);
  }

  /** The position the broker's state holds for the exporter, or -1. */
  private static long storedPosition(EngineCluster.Broker broker) {
    return storedPosition(broker, ID);
  }

  private static long storedPosition(EngineCluster.Broker broker, String id) {
    ExporterPositions.Stored stored =
        broker
            .partition
            .processor()
            .query(ExporterPositions::readAll)
            .orTimeout(10, TimeUnit.SECONDS)
            .join()
            .get(id);
    return stored == null ? -1 : stored.position();
  }

  /** Positions of the committed records in the broker's log that an exporter gets. */
  private static List<Long> exportable(EngineCluster.Broker broker) {
    List<Long> positions = new ArrayList<>();
    broker.forEachCommittedRecord(
        record -> {
          if (record.valueType() != ValueType.EXPORTER) {
            positions.add(record.position());
          }
        });
    return positions;
  }

  /** Position -> index of the entry holding it, for every record in the broker's log. */
  private static Map<Long, Long> entryIndexes(EngineCluster.Broker broker) {
    Map<Long, Long> indexes = new HashMap<>();
    RecordBatch batch = new RecordBatch();
    try (JournalReader reader = broker.partition.raft().journal().openReader()) {
      while (reader.hasNext()) {
        JournalRecord entry = reader.next();
        if (JournalRaftLog.isApplicationEntry(entry.data())) {
          batch.wrap(
              entry.data(),
              JournalRaftLog.HEADER_LENGTH,
              entry.data().capacity() - JournalRaftLog.HEADER_LENGTH);
          while (batch.hasNext()) {
            indexes.put(batch.next().position(), entry.index());
          }
        }
      }
    }
    return indexes;
  }
}
