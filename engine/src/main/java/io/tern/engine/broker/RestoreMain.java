package io.tern.engine.broker;

import io.tern.engine.backup.BackupRestore;
import io.tern.engine.backup.BackupStore;
import io.tern.engine.cluster.PartitionDistribution;
import io.tern.raft.Member;
import io.tern.raft.server.RaftServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/restore --backupId N [CONFIG.yaml]}: fills this broker's empty data directory from
 * backup N, for the partitions it hosts, with the same configuration bin/broker reads ({@link
 * BackupRestore}). Run it on every broker of the cluster, then start them. With {@code
 * --skipIfRestored} a data directory restored from that backup before is left alone (the chart's
 * init container runs at every pod start). Exit codes: 0 restored (or so already), 1 refused or
 * failed (the message says why; the data directory is left as it was), 2 bad arguments or
 * configuration.
 */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description = {
      "Fills this broker's empty data directory from a backup, before the broker starts.",
      "Reads the configuration as bin/broker does (data.directory, the cluster's topology,"
          + " data.backup.*); run it on every broker, then start them.",
      "Refuses a backup that does not exist or is not complete, a topology other than the"
          + " backup's, and a data directory that is not empty."
    })
public final class RestoreMain implements Callable<Integer> {
  @Option(
      names = "--backupId",
      required = true,
      description = "the id of the backup to restore (GET /actuator/backups lists them)")
  long backupId;

  @Option(
      names = "--skipIfRestored",
      description =
          "do nothing (exit 0) if the data directory was filled by a restore of this backup"
              + " already: an init container runs again whenever the pod restarts")
  boolean skipIfRestored;

  @Parameters(
      arity = "0..1",
      paramLabel = "CONFIG.yaml",
      description = "the configuration file, as bin/broker's argument")
  List<String> configFile = new ArrayList<>();

  public static void main(String[] args) {
    System.exit(new CommandLine(new RestoreMain()).execute(args));
  }

  @Override
  public Integer call() {
    LaunchArguments.Loaded loaded =
        LaunchArguments.loadOrExit(configFile.toArray(String[]::new), "restore", "a restore");
    if (loaded == null) {
      return 0;
    }
    BrokerConfig config = loaded.config();
    Logging.configure("restore-" + config.nodeId(), config.logLevel());
    Logger log = LoggerFactory.getLogger(RestoreMain.class);
    log.info(loaded.describeFiles());
    if (skipIfRestored && BackupRestore.restoredAlready(config.dataDirectory(), backupId)) {
      log.info(
          "{} was restored from backup {} already ({} says so): nothing to do",
          config.dataDirectory(),
          backupId,
          BackupRestore.MARKER);
      return 0;
    }
    try {
      BackupRestore.Restored restored = restore(config, backupId);
      log.info(
          "Restored backup {} into {}: partitions {} ({} bytes); start the broker now",
          backupId,
          config.dataDirectory(),
          restored.checkpointPositions().keySet(),
          restored.bytes());
      return 0;
    } catch (BackupRestore.RestoreException | IllegalArgumentException e) {
      log.error("Restore of backup {} refused: {}", backupId, e.getMessage());
      return 1;
    }
  }

  /** Restores backup {@code backupId} for the broker {@code config} describes. */
  static BackupRestore.Restored restore(BrokerConfig config, long backupId)
      throws BackupRestore.RestoreException {
    if (!config.backup().configured()) {
      throw new BackupRestore.RestoreException(
          "no backup store is configured (data.backup.store is none): set it and its settings"
              + " as the cluster that took the backup had them");
    }
    int self = PartitionDistribution.memberIdOf(config.nodeId());
    List<Integer> hosted = new ArrayList<>();
    for (int partitionId = 1; partitionId <= config.partitionsCount(); partitionId++) {
      List<Member> members =
          PartitionDistribution.membersOf(
              partitionId, config.clusterSize(), config.replicationFactor());
      if (members.stream().anyMatch(member -> member.id() == self)) {
        hosted.add(partitionId);
      }
    }
    RaftServerConfig raft = RaftSettings.raftServerConfig(config);
    try (BackupStore store = config.backup().open()) {
      return BackupRestore.restore(
          store,
          backupId,
          new BackupRestore.Target(
              config.dataDirectory(),
              config.nodeId(),
              config.clusterSize(),
              config.partitionsCount(),
              config.replicationFactor(),
              hosted,
              (Path directory) -> raft.journalConfig(directory).build()));
    }
  }
}
