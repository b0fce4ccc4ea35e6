package io.tern.engine.partition;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.broker.BrokerProcess;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.StateInspection;
import io.tern.engine.processor.TestEngine;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.state.StateConfig;
import io.tern.engine.state.StateResources;
import io.tern.journal.JournalReader;
import io.tern.journal.JournalRecord;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import io.tern.raft.server.RaftServer;
import io.tern.raft.server.RaftServerConfig;
import io.tern.raft.storage.JournalRaftLog;
import io.tern.raft.transport.NettyRaftTransport;
import io.tern.raft.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.awaitility.Awaitility;

/**
 * Brokers in one JVM over Netty on loopback, each hosting partition 1 of the test engine; brokers
 * can be killed and restarted from their directories.
 */
final class EngineCluster implements AutoCloseable {
  static final int PARTITION = 1;
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** One broker: Raft server and the engine partition. */
  final class Broker {
    final int id;
    final RaftServer server;
    final EnginePartition partition;
    final StateResources resources;

    /** The free disk space this broker sees (tests lower it to trip the watermark). */
    final java.util.concurrent.atomic.AtomicLong freeDiskBytes =
        new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);

    /** The free space its runtime directory's file system has (broker 2's is elsewhere). */
    final java.util.concurrent.atomic.AtomicLong freeRuntimeBytes =
        new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);

    /** Answers this broker sent: request id -> the answering record's key. */
    final Map<Long, Long> answers = new ConcurrentHashMap<>();

    Broker(int id) {
      this.id = id;
      TransportConfig.Builder transport =
          TransportConfig.builder(id)
              .bind("127.0.0.1", addresses.get(id).getPort())
              .reconnectBackoffMs(20, 200);
      addresses.forEach(
          (peer, address) -> {
            if (peer != id) {
              transport.peer(peer, address);
            }
          });
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      Path directory = root.resolve("broker-" + id);
      RaftServerConfig.Builder raft =
          RaftServerConfig.builder(directory.resolve("raft"))
              .tickMs(10)
              .heartbeatIntervalMs(20)
              .electionTimeoutMs(300)
              .segmentSizeBytes(SEGMENT_BYTES)
              .maxAppendBatchBytes(SEGMENT_BYTES / 4)
              .compactionTailEntries(0);
      this.server =
          new RaftServer(
              id,
              raft.build(),
              new NettyRaftTransport(transport.build(), registry, Tags.empty()).start(),
              registry);
      // Member 2 keeps RocksDB's WAL on and its runtime state elsewhere, so both are exercised.
      this.resources =
          new StateResources(StateConfig.defaults().withDisableWal(id != 2).withMemoryLimitMb(32));
      EnginePartitionConfig config =
          EnginePartitionConfig.defaults(directory.resolve("engine"))
              .withSnapshotPeriod(Duration.ofHours(1))
              .withSnapshotEveryRecords(snapshotEveryRecords)
              .withDiskWatermark(MIN_FREE_DISK_BYTES, Duration.ofMillis(10))
              .withProcessor(ProcessorConfig.defaults().withMaxBatchBytes(MAX_BATCH_BYTES));
      if (id == 2) {
        config = config.withRuntimeDirectory(root.resolve("elsewhere").resolve("runtime-2"));
      }
      this.partition =
          EnginePartition.start(
              server,
              PARTITION,
              members(),
              config,
              resources,
              TestEngine::create,
              (streamId, requestId, answer) -> answers.put(requestId, answer.key()),
              System::currentTimeMillis,
              freeDiskBytes::get,
              freeRuntimeBytes::get,
              registry,
              exporters);
    }

    boolean isProcessingLeader() {
      return partition.raft().role() == RaftRole.LEADER
          && partition.processor().phase() == ProcessorPhase.PROCESSING;
    }

    long lastProcessedPosition() {
      return partition.processor().lastProcessedPosition();
    }

    /** The committed entities: hex key -> text value, read on the processor thread. */
    Map<String, String> entities() {
      CompletableFuture<Map<String, String>> result = new CompletableFuture<>();
      String prefix = String.format("%04x", TestEngine.ENTITIES);
      StateInspection.onProcessorThread(
          partition.processor(),
          state -> {
            Map<String, String> entities = new TreeMap<>();
            HexFormat hex = HexFormat.of();
            state.forEachRaw(
                (k, v) -> {
                  String key = hex.formatHex(k);
                  if (key.startsWith(prefix)) {
                    entities.put(key, new String(v));
                  }
                });
            result.complete(entities);
          });
      return result.orTimeout(10, TimeUnit.SECONDS).join();
    }

    /** Visits every committed record in this member's log. */
    void forEachCommittedRecord(Consumer<LoggedRecord> visitor) {
      RecordBatch batch = new RecordBatch();
      long commit = partition.raft().commitIndex();
      try (JournalReader reader = partition.raft().journal().openReader()) {
        while (reader.hasNext() && reader.getNextIndex() <= commit) {
          JournalRecord entry = reader.next();
          if (JournalRaftLog.isApplicationEntry(entry.data())) {
            batch.wrap(
                entry.data(),
                JournalRaftLog.HEADER_LENGTH,
                entry.data().capacity() - JournalRaftLog.HEADER_LENGTH);
            while (batch.hasNext()) {
              visitor.accept(batch.next());
            }
          }
        }
      }
    }

    void kill() {
      partition.close();
      server.close();
      resources.close();
    }
  }

  static final int SEGMENT_BYTES = 64 * 1024;
  static final long MIN_FREE_DISK_BYTES = 1024 * 1024;
  static final int MAX_BATCH_BYTES = 32 * 1024;

  final Map<Integer, Broker> brokers = new TreeMap<>();
  private final Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
  private final Path root;
  private final int size;

  /** data.snapshotEveryRecords of every broker: off unless a test turns it on. */
  private final long snapshotEveryRecords;

  EngineCluster(Path root, int size) {
    this(root, size, 0);
  }

  /**
   * What every broker exports (ExporterDirectorTest); none unless a test sets them. Brokers started
   * after {@link #exporters(PartitionExporters)} get the new ones.
   */
  private volatile PartitionExporters exporters;

  EngineCluster(Path root, int size, long snapshotEveryRecords) {
    this(root, size, snapshotEveryRecords, PartitionExporters.NONE);
  }

  EngineCluster(Path root, int size, long snapshotEveryRecords, PartitionExporters exporters) {
    this.root = root;
    this.size = size;
    this.snapshotEveryRecords = snapshotEveryRecords;
    this.exporters = exporters;
    int[] ports = BrokerProcess.freePorts(size);
    for (int id = 1; id <= size; id++) {
      addresses.put(id, new InetSocketAddress("127.0.0.1", ports[id - 1]));
    }
    for (int id = 1; id <= size; id++) {
      start(id);
    }
  }

  /** Changes what brokers started from now on export. */
  void exporters(PartitionExporters exporters) {
    this.exporters = exporters;
  }

  private List<Member> members() {
    List<Member> members = new ArrayList<>();
    for (int id = 1; id <= size; id++) {
      members.add(new Member(id, size - id + 1));
    }
    return members;
  }

  Broker start(int id) {
    Broker broker = new Broker(id);
    brokers.put(id, broker);
    return broker;
  }

  void kill(int id) {
    brokers.remove(id).kill();
  }

  Broker awaitLeader() {
    Broker[] found = new Broker[1];
    await(
        () -> {
          found[0] =
              brokers.values().stream().filter(Broker::isProcessingLeader).findFirst().orElse(null);
          return found[0] != null;
        },
        "a processing leader");
    return found[0];
  }

  /** Writes a CREATE command through whichever broker accepts it, retrying while there is none. */
  void send(long requestId, String value) {
    await(() -> tryWrite(requestId, value), "a broker to accept a command");
  }

  private boolean tryWrite(long requestId, String value) {
    for (Broker broker : brokers.values()) {
      try {
        broker
            .partition
            .intake()
            .write(0, requestId, TestEngine.CREATE, -1, TestEngine.value(value));
        return true;
      } catch (LogStreamWriter.NotWritableException e) {
        // not the leader (yet): try the next broker
      }
    }
    return false;
  }

  /** Answers from all brokers: request id -> key. */
  Map<Long, Long> answers() {
    Map<Long, Long> all = new TreeMap<>();
    brokers.values().forEach(b -> all.putAll(b.answers));
    return all;
  }

  static void await(BooleanSupplier condition, String what) {
    Awaitility.await(what)
        .atMost(TIMEOUT)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .until(condition::getAsBoolean);
  }

  @Override
  public void close() {
    brokers.values().forEach(Broker::kill);
    brokers.clear();
  }
}
