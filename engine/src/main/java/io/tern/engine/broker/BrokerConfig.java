package io.tern.engine.broker;

import io.tern.engine.exporter.ExporterDescriptor;
import io.tern.engine.exporter.ExporterDirector;
import io.tern.engine.gateway.GatewayConfig;
import io.tern.engine.tls.TlsFiles;
import io.tern.engine.workflow.model.ModelLimits;
import io.tern.journal.JournalConfig;
import io.tern.raft.server.FlushMode;
import io.tern.raft.server.RaftServerConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A broker's configuration, read and validated by {@link BrokerConfigLoader}; {@link ConfigKeys}
 * says what each setting means.
 */
public record BrokerConfig(
    int nodeId,
    int clusterSize,
    int partitionsCount,
    int replicationFactor,
    String host,
    String advertisedHost,
    int commandPort,
    int internalPort,
    List<InetSocketAddress> contactPoints,
    boolean gatewayEnabled,
    GatewayConfig gateway,
    boolean managementEnabled,
    String managementHost,
    int managementPort,
    ManagementToken managementToken,
    Path dataDirectory,
    Path runtimeDirectory,
    Duration snapshotPeriod,
    long snapshotEveryRecords,
    long minFreeDiskBytes,
    long minFreeRuntimeBytes,
    Duration diskCheckInterval,
    int maxCommandsInBatch,
    boolean processUncommitted,
    boolean uncommittedTimers,
    int maxBatchBytes,
    Duration subscriptionRetryInterval,
    Duration resultAwaitLimit,
    ModelLimits modelLimits,
    boolean disableWal,
    int memoryLimitMb,
    FlushMode flushMode,
    int flushDelayMs,
    int journalSegmentBytes,
    JournalConfig.Madvise journalMadvise,
    JournalConfig.Preallocation journalPreallocation,
    int electionTimeoutMs,
    int heartbeatIntervalMs,
    int maxInflightAppends,
    int maxAppendBatchBytes,
    int preferSnapshotReplicationThreshold,
    int raftThreads,
    boolean raftOnTransportThread,
    int flushThreads,
    TlsFiles clusterTls,
    TlsFiles managementTls,
    BackpressureConfig backpressure,
    String logLevel,
    NetworkLatency networkLatency,
    boolean faultInjection,
    List<ExporterDescriptor> exporters,
    ExporterDirector.Settings exporting,
    boolean historyStore,
    BackupSettings backup) {

  /**
   * The settings latency experiments switch (see the README's experiment flags), by key, as this
   * broker runs them: what {@code GET /actuator/flags} answers.
   */
  public Map<String, String> experimentFlags() {
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("raft.flush.mode", flushMode.name().toLowerCase(Locale.ROOT));
    flags.put("raft.flush.delayMs", Integer.toString(flushDelayMs));
    flags.put("state.rocksdb.disableWal", Boolean.toString(disableWal));
    flags.put("data.runtimeDirectory", runtimeDirectory == null ? "" : runtimeDirectory.toString());
    flags.put("processing.maxCommandsInBatch", Integer.toString(maxCommandsInBatch));
    flags.put("processing.uncommitted", Boolean.toString(processUncommitted));
    flags.put("processing.uncommittedTimers", Boolean.toString(uncommittedTimers));
    flags.put(
        "journal.preallocation",
        journalPreallocation.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    flags.put("journal.madvise", journalMadvise.name().toLowerCase(Locale.ROOT));
    flags.put("journal.segmentSize", Integer.toString(journalSegmentBytes));
    flags.put("raft.maxInflightAppends", Integer.toString(maxInflightAppends));
    flags.put("raft.maxAppendBatchBytes", Integer.toString(maxAppendBatchBytes));
    flags.put(
        "raft.preferSnapshotReplicationThreshold",
        Integer.toString(preferSnapshotReplicationThreshold));
    flags.put("backpressure.enabled", Boolean.toString(backpressure.enabled()));
    flags.put(
        "experimental.network.latency",
        networkLatency.active() ? networkLatency.describe() : "none");
    return flags;
  }

  /** The largest number of partitions (keys carry the partition id in 13 bits). */
  static final int MAX_PARTITIONS = 8191;

  /** The defaults: what the README's start command runs. */
  public static BrokerConfig defaults() {
    return BrokerConfigLoader.load(null, java.util.Map.of());
  }

  static BrokerConfig from(BrokerConfigLoader.Values values) {
    int clusterSize = values.integer("cluster.clusterSize", 1, 1024);
    int nodeId = values.integer("cluster.nodeId", 0, 1023);
    // A node id at or above the cluster size is a broker to be added to a running cluster: it
    // starts, serves no partition and waits (docs/scaling.md).
    int replication = values.integer("cluster.replicationFactor", 1, 1024);
    if (replication > clusterSize) {
      values.bad("cluster.replicationFactor", "at most cluster.clusterSize (" + clusterSize + ")");
    }
    List<InetSocketAddress> contactPoints = contactPoints(values);
    if (clusterSize > 1 && contactPoints.isEmpty()) {
      values.bad(
          "cluster.contactPoints",
          "the host:port of every broker's command port when cluster.clusterSize is "
              + clusterSize);
    }
    // The Raft clock ticks every RaftServerConfig.DEFAULT_TICK_MS: a heartbeat is at least a tick.
    int heartbeatMs =
        values.integer("raft.heartbeatIntervalMs", RaftServerConfig.DEFAULT_TICK_MS, 60_000);
    int electionMs = values.integer("raft.electionTimeoutMs", 1, 600_000);
    if (electionMs < 2 * heartbeatMs) {
      values.bad(
          "raft.electionTimeoutMs",
          "at least twice raft.heartbeatIntervalMs (" + heartbeatMs + ")");
    }
    FlushMode flushMode = FlushMode.SYNC;
    try {
      flushMode = FlushMode.parse(values.text("raft.flush.mode"));
    } catch (IllegalArgumentException e) {
      values.bad("raft.flush.mode", "sync, delayed, async or off");
    }
    long maxBatchBytes = values.bytes("log.maxBatchBytes");
    if (maxBatchBytes < 64 * 1024 || maxBatchBytes > MAX_BATCH_BYTES) {
      values.bad(
          "log.maxBatchBytes",
          "from 64KB to 4MB (a batch is one Raft entry; the journal's largest entry is 4MB +"
              + " 64KB)");
    }
    int segmentBytes = segmentBytes(values);
    if (segmentBytes < 2 * maxBatchBytes) {
      values.bad(
          "journal.segmentSize",
          "at least twice log.maxBatchBytes (" + maxBatchBytes + " bytes): a batch is one entry");
    }
    String host = values.text("network.host");
    String advertised = values.text("network.advertisedHost");
    GatewayConfig gateway =
        new GatewayConfig(
            host,
            values.integer("gateway.port", 0, 65535),
            positive(values, "gateway.requestTimeout"),
            positive(values, "gateway.longPollingTimeout"),
            maxMessageBytes(values),
            SecuritySettings.gateway(values),
            GatewayAuthenticationSettings.from(values),
            new GatewayConfig.Rest(
                values.bool("gateway.rest.enabled"),
                values.text("gateway.rest.host").isEmpty()
                    ? host
                    : values.text("gateway.rest.host"),
                values.integer("gateway.rest.port", 0, 65535)));
    String runtime = values.text("data.runtimeDirectory");
    return new BrokerConfig(
        nodeId,
        clusterSize,
        values.integer("cluster.partitionsCount", 1, MAX_PARTITIONS),
        replication,
        host,
        advertised.isEmpty() ? localHostName() : advertised,
        values.integer("network.commandPort", 0, 65535),
        values.integer("network.internalPort", 0, 65535),
        contactPoints,
        values.bool("gateway.enable"),
        gateway,
        values.bool("management.enable"),
        values.text("management.host").isEmpty() ? host : values.text("management.host"),
        values.integer("management.port", 0, 65535),
        ManagementToken.from(values),
        Path.of(values.text("data.directory")).toAbsolutePath(),
        runtime.isEmpty() ? null : Path.of(runtime).toAbsolutePath(),
        positive(values, "data.snapshotPeriod"),
        values.integer("data.snapshotEveryRecords", 0, Integer.MAX_VALUE),
        values.bytes("data.disk.minFreeBytes"),
        values.bytes("data.disk.runtimeMinFreeBytes"),
        positive(values, "data.disk.checkInterval"),
        values.integer("processing.maxCommandsInBatch", 1, 10_000),
        values.bool("processing.uncommitted"),
        values.bool("processing.uncommittedTimers"),
        (int) Math.min(maxBatchBytes, Integer.MAX_VALUE),
        positive(values, "processing.subscriptionRetryInterval"),
        positive(values, "processing.resultAwaitLimit"),
        new ModelLimits(
            values.integer(ModelLimits.NESTING_DEPTH_KEY, 3, 100_000),
            values.integer(ModelLimits.ELEMENTS_PER_PROCESS_KEY, 1, Integer.MAX_VALUE),
            values.integer(ModelLimits.EXPRESSION_CHARS_KEY, 2, Integer.MAX_VALUE)),
        values.bool("state.rocksdb.disableWal"),
        values.integer("state.rocksdb.memoryLimitMb", 32, 1 << 20),
        flushMode,
        values.integer("raft.flush.delayMs", 0, 60_000),
        segmentBytes,
        choice(values, "journal.madvise", JournalConfig.Madvise.class, JournalConfig.Madvise.NONE),
        choice(
            values,
            "journal.preallocation",
            JournalConfig.Preallocation.class,
            JournalConfig.Preallocation.ZERO_ON_FLUSH),
        electionMs,
        heartbeatMs,
        values.integer("raft.maxInflightAppends", 1, 1024),
        appendBatchBytes(values, segmentBytes),
        values.integer("raft.preferSnapshotReplicationThreshold", 0, 1_000_000_000),
        values.integer("raft.threads", 1, 1024),
        values.bool("raft.onTransportThread"),
        values.integer("raft.flushThreads", 1, 1024),
        SecuritySettings.cluster(values),
        SecuritySettings.management(values),
        BackpressureConfig.from(values),
        logLevel(values),
        NetworkLatency.from(values, clusterSize),
        values.bool("experimental.faultInjection.enabled"),
        values.exporters(),
        exporting(values),
        values.bool(HistoryDefaults.ENABLED_KEY),
        BackupSettings.from(values));
  }

  /** The {@code exporting.*} keys: the exporters' director's timings. */
  private static ExporterDirector.Settings exporting(BrokerConfigLoader.Values values) {
    Duration minBackoff = positive(values, "exporting.retryMinBackoff");
    Duration maxBackoff = positive(values, "exporting.retryMaxBackoff");
    if (maxBackoff.compareTo(minBackoff) < 0) {
      values.bad("exporting.retryMaxBackoff", "at least exporting.retryMinBackoff");
      maxBackoff = minBackoff;
    }
    return new ExporterDirector.Settings(
        positive(values, "exporting.positionWriteInterval"), minBackoff, maxBackoff);
  }

  private static final List<String> LOG_LEVELS = List.of("error", "warn", "info", "debug", "trace");

  private static String logLevel(BrokerConfigLoader.Values values) {
    String level = values.text("logging.level").toLowerCase(Locale.ROOT);
    if (!LOG_LEVELS.contains(level)) {
      values.bad("logging.level", "one of " + String.join(", ", LOG_LEVELS));
      return "info";
    }
    return level;
  }

  /** gateway.maxMessageSize: what one gRPC message may hold (gRPC takes an int). */
  private static int maxMessageBytes(BrokerConfigLoader.Values values) {
    long bytes = values.bytes("gateway.maxMessageSize");
    // The command API between gateway and brokers takes up to 64MB (BrokerApi).
    if (bytes < 64 * 1024 || bytes > 64 * 1024 * 1024) {
      values.bad("gateway.maxMessageSize", "from 64KB to 64MB");
      return GatewayConfig.DEFAULT_MAX_MESSAGE_BYTES;
    }
    return (int) bytes;
  }

  /** "host:port, host:port": the brokers' command addresses. */
  static List<InetSocketAddress> contactPoints(BrokerConfigLoader.Values values) {
    List<InetSocketAddress> points = new ArrayList<>();
    for (String entry : values.text("cluster.contactPoints").split(",")) {
      String point = entry.trim();
      if (point.isEmpty()) {
        continue;
      }
      int colon = point.lastIndexOf(':');
      int port = -1;
      if (colon > 0) {
        try {
          port = Integer.parseInt(point.substring(colon + 1));
        } catch (NumberFormatException e) {
          port = -1;
        }
      }
      if (port < 1 || port > 65535) {
        values.bad(
            "cluster.contactPoints", "a comma-separated list of host:port (got '" + point + "')");
        return List.of();
      }
      points.add(InetSocketAddress.createUnresolved(point.substring(0, colon), port));
    }
    return List.copyOf(points);
  }

  /**
   * An append request's entries must fit twice in a journal segment, and the request one transport
   * frame (4MB + 128KB) even when it holds the most, and smallest, entries a batch may.
   */
  private static int appendBatchBytes(BrokerConfigLoader.Values values, int segmentBytes) {
    long bytes = values.bytes("raft.maxAppendBatchBytes");
    if (bytes < 1024 || bytes > MAX_APPEND_BATCH_BYTES || 2 * bytes > segmentBytes) {
      values.bad(
          "raft.maxAppendBatchBytes", "from 1KB to 2MB, and at most half of journal.segmentSize");
      return 128 * 1024;
    }
    return (int) bytes;
  }

  /** The journal's largest entry is 4 MiB + 64 KiB, which must hold a batch and its header. */
  static final long MAX_BATCH_BYTES = 4L * 1024 * 1024;

  /** Checked again, exactly, against the transport's frame limit when the broker starts. */
  static final long MAX_APPEND_BATCH_BYTES = 2L * 1024 * 1024;

  /** A journal segment must hold the largest batch twice over; at most 1 GiB (an int). */
  private static int segmentBytes(BrokerConfigLoader.Values values) {
    long bytes = values.bytes("journal.segmentSize");
    if (bytes < 1024 * 1024 || bytes > 1024L * 1024 * 1024) {
      values.bad("journal.segmentSize", "from 1MB to 1GB");
      return JournalConfig.DEFAULT_SEGMENT_SIZE_BYTES;
    }
    return (int) bytes;
  }

  /**
   * An enum value named in any case, {@code -} for {@code _} ({@code zero-on-flush}:
   * ZERO_ON_FLUSH). A value that was removed ({@link ConfigKeys#REMOVED_VALUES}) is named as such,
   * with the reason.
   */
  private static <E extends Enum<E>> E choice(
      BrokerConfigLoader.Values values, String key, Class<E> type, E fallback) {
    String text = values.text(key);
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(text.replace('-', '_'))) {
        return constant;
      }
    }
    String expected =
        "one of "
            + java.util.Arrays.stream(type.getEnumConstants())
                .map(constant -> constant.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .collect(java.util.stream.Collectors.joining(", "));
    String removed =
        ConfigKeys.REMOVED_VALUES
            .getOrDefault(key, Map.of())
            .get(text.toLowerCase(Locale.ROOT).replace('_', '-'));
    values.bad(
        key,
        removed == null
            ? expected
            : expected + " (" + text.toLowerCase(Locale.ROOT) + " was removed: " + removed + ")");
    return fallback;
  }

  private static Duration positive(BrokerConfigLoader.Values values, String key) {
    Duration duration = values.duration(key);
    if (duration.isZero()) {
      values.bad(key, "longer than 0");
      return Duration.ofSeconds(1);
    }
    return duration;
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
