package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.workflow.model.ModelLimits;
import io.tern.raft.server.FlushMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Defaults, the YAML file, environment overrides, and errors that name the key. */
class BrokerConfigLoaderTest {
  @TempDir Path dir;

  @Test
  void theDefaultsAreASingleBrokerWithOnePartitionUnderDotData() {
    BrokerConfig config = BrokerConfigLoader.load(null, Map.of());
    assertThat(config.clusterSize()).isEqualTo(1);
    assertThat(config.partitionsCount()).isEqualTo(1);
    assertThat(config.replicationFactor()).isEqualTo(1);
    assertThat(config.gateway().port()).isEqualTo(26500);
    assertThat(config.commandPort()).isEqualTo(26501);
    assertThat(config.dataDirectory()).isEqualTo(Path.of("data").toAbsolutePath());
    assertThat(config.flushMode()).isEqualTo(FlushMode.SYNC);
    assertThat(config.minFreeDiskBytes()).isEqualTo(2L * 1024 * 1024 * 1024);
  }

  @Test
  void theFileSetsNestedOrDottedKeysAndTheEnvironmentWins() throws IOException {
    Path file = dir.resolve("tern.yaml");
    Files.writeString(
        file,
        """
        cluster:
          partitionsCount: 3
        raft.flush.mode: delayed
        gateway:
          requestTimeout: 30s
        data:
          snapshotPeriod: PT1M
          disk:
            minFreeBytes: 512MB
        """);
    BrokerConfig config =
        BrokerConfigLoader.load(file, Map.of("TERN_CLUSTER_PARTITIONSCOUNT", "4", "PATH", "/bin"));
    assertThat(config.partitionsCount()).as("environment over file").isEqualTo(4);
    assertThat(config.flushMode()).isEqualTo(FlushMode.DELAYED);
    assertThat(config.gateway().requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.snapshotPeriod()).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.minFreeDiskBytes()).isEqualTo(512L * 1024 * 1024);
  }

  @Test
  void unknownKeysAndBadValuesAreAllReportedNamingKeyAndOrigin() throws IOException {
    Path file = dir.resolve("tern.yaml");
    Files.writeString(
        file,
        """
        cluster:
          partitionCount: 3
        raft:
          flush:
            mode: sometimes
        """);
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    file, Map.of("TERN_GATEWAY_PORT", "http", "TERN_GATEWAY_PROT", "1")))
        .isInstanceOf(BrokerConfigLoader.ConfigException.class)
        .hasMessageContaining(
            "unknown key 'cluster.partitionCount', did you mean 'cluster.partitionsCount'?")
        .hasMessageContaining(
            "TERN_GATEWAY_PROT names no configuration key (gateway.prot), did you mean"
                + " 'TERN_GATEWAY_PORT'?")
        .as("bad values are reported in the same run as unknown keys")
        .hasMessageContaining("'raft.flush.mode' = 'sometimes' (from " + file + ")")
        .hasMessageContaining("'gateway.port' = 'http'");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_GATEWAY_PORT", "http",
                        "TERN_RAFT_FLUSH_MODE", "sometimes",
                        "TERN_DATA_SNAPSHOTPERIOD", "soon")))
        .hasMessageContaining(
            "'gateway.port' = 'http' (from environment variable TERN_GATEWAY_PORT)")
        .hasMessageContaining("'raft.flush.mode' = 'sometimes'")
        .hasMessageContaining("'data.snapshotPeriod' = 'soon'");
  }

  @Test
  void snapshotsOnProgressDefaultToEveryHundredThousandRecordsAndZeroDisablesThem() {
    assertThat(BrokerConfig.defaults().snapshotEveryRecords()).isEqualTo(100_000);
    assertThat(
            BrokerConfigLoader.load(null, Map.of("TERN_DATA_SNAPSHOTEVERYRECORDS", "0"))
                .snapshotEveryRecords())
        .isZero();
    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_DATA_SNAPSHOTEVERYRECORDS", "-1")))
        .hasMessageContaining("'data.snapshotEveryRecords' = '-1'");
  }

  @Test
  void theLimitsOfDeployedModelsDefaultToZeebeLikeValuesAndRefuseNonsense() {
    assertThat(BrokerConfig.defaults().modelLimits()).isEqualTo(ModelLimits.DEFAULTS);
    ModelLimits set =
        BrokerConfigLoader.load(
                null,
                Map.of(
                    "TERN_PROCESSING_LIMITS_MAXNESTINGDEPTH", "12",
                    "TERN_PROCESSING_LIMITS_MAXELEMENTSPERPROCESS", "34",
                    "TERN_PROCESSING_LIMITS_MAXEXPRESSIONCHARS", "56"))
            .modelLimits();
    assertThat(set).isEqualTo(new ModelLimits(12, 34, 56));
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null, Map.of("TERN_PROCESSING_LIMITS_MAXNESTINGDEPTH", "2")))
        .hasMessageContaining("'processing.limits.maxNestingDepth' = '2'");
  }

  @Test
  void aKeyFarFromEveryKnownOneGetsNoSuggestion() {
    assertThatThrownBy(() -> BrokerConfigLoader.load(null, Map.of("TERN_FOO", "1")))
        .hasMessageContaining("TERN_FOO names no configuration key (foo)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("did you mean"));
  }

  @Test
  void aMissingFileIsNamedNotFound() {
    Path missing = dir.resolve("nowhere.yaml");
    assertThatThrownBy(() -> BrokerConfigLoader.load(missing, Map.of()))
        .hasMessageContaining("configuration file " + missing + " not found");
  }

  @Test
  void sizesTakeBinaryAndDecimalLookingUnitsAlikeAsPowersOf1024() {
    for (String size : new String[] {"512MiB", "512MB", "512M", "512 mib", "536870912"}) {
      assertThat(
              BrokerConfigLoader.load(null, Map.of("TERN_DATA_DISK_MINFREEBYTES", size))
                  .minFreeDiskBytes())
          .as(size)
          .isEqualTo(512L * 1024 * 1024);
    }
    assertThat(
            BrokerConfigLoader.load(null, Map.of("TERN_DATA_DISK_MINFREEBYTES", "2GiB"))
                .minFreeDiskBytes())
        .isEqualTo(2L * 1024 * 1024 * 1024);
    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_DATA_DISK_MINFREEBYTES", "2TB")))
        .hasMessageContaining("a size in bytes, such as 1048576, 512KB, 64MiB or 2GB");
  }

  @Test
  void aMultiBrokerClusterNeedsContactPointsGivenAsHostAndPort() {
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null, Map.of("TERN_CLUSTER_CLUSTERSIZE", "3", "TERN_CLUSTER_NODEID", "1")))
        .hasMessageContaining("cluster.contactPoints");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_CLUSTER_CLUSTERSIZE",
                        "3",
                        "TERN_CLUSTER_CONTACTPOINTS",
                        "broker-0:26501, broker-1")))
        .hasMessageContaining("cluster.contactPoints")
        .hasMessageContaining("'broker-1'");
    BrokerConfig config =
        BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_CLUSTER_CLUSTERSIZE",
                "3",
                "TERN_CLUSTER_NODEID",
                "2",
                "TERN_CLUSTER_REPLICATIONFACTOR",
                "3",
                "TERN_CLUSTER_CONTACTPOINTS",
                "broker-0:26501, broker-1:26501,broker-2:26601"));
    assertThat(config.contactPoints())
        .extracting(point -> point.getHostString() + ":" + point.getPort())
        .containsExactly("broker-0:26501", "broker-1:26501", "broker-2:26601");
    assertThat(config.internalPort()).isEqualTo(26502);
  }

  @Test
  void journalSettingsAreConfigKeysCheckedAtStart() {
    BrokerConfig config =
        BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_JOURNAL_MADVISE", "random",
                "TERN_JOURNAL_PREALLOCATION", "fallocate",
                "TERN_JOURNAL_SEGMENTSIZE", "16MB"));
    assertThat(config.journalMadvise()).isEqualTo(io.tern.journal.JournalConfig.Madvise.RANDOM);
    assertThat(config.journalSegmentBytes()).isEqualTo(16 * 1024 * 1024);
    assertThat(config.journalPreallocation())
        .isEqualTo(io.tern.journal.JournalConfig.Preallocation.FALLOCATE);
    assertThat(BrokerConfig.defaults().journalPreallocation())
        .isEqualTo(io.tern.journal.JournalConfig.Preallocation.ZERO_ON_FLUSH);
    assertThat(BrokerConfig.defaults().journalMadvise())
        .isEqualTo(io.tern.journal.JournalConfig.Madvise.NONE);
    assertThat(BrokerConfig.defaults().maxInflightAppends())
        .isEqualTo(io.tern.raft.RaftConfig.DEFAULT_MAX_INFLIGHT_APPENDS);
    assertThat(BrokerConfig.defaults().maxAppendBatchBytes())
        .isEqualTo(io.tern.raft.RaftConfig.DEFAULT_MAX_APPEND_BATCH_BYTES);
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_JOURNAL_PREALLOCATION", "fast",
                        "TERN_JOURNAL_SEGMENTSIZE", "4MB")))
        .hasMessageContaining("'journal.preallocation' = 'fast'")
        .hasMessageContaining("one of fallocate, zero-on-flush")
        .hasMessageContaining("journal.segmentSize")
        .hasMessageContaining("at least twice log.maxBatchBytes");
  }

  /** Values that were removed are refused naming the key, the value and the values that remain. */
  @Test
  void removedJournalValuesAreRefusedNamingWhatRemains() throws IOException {
    Path file = dir.resolve("tern.yaml");
    Files.writeString(file, "journal.preallocation: zero-fill\n");
    assertThatThrownBy(() -> BrokerConfigLoader.load(file, Map.of()))
        .isInstanceOf(BrokerConfigLoader.ConfigException.class)
        .hasMessageContaining(
            "'journal.preallocation' = 'zero-fill' (from "
                + file
                + ") must be one of fallocate, zero-on-flush (zero-fill was removed: ");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_JOURNAL_MADVISE", "Sequential",
                        "TERN_JOURNAL_PREALLOCATION", "zero_fill")))
        .hasMessageContaining(
            "'journal.madvise' = 'Sequential' (from environment variable TERN_JOURNAL_MADVISE)"
                + " must be one of none, random (sequential was removed: ")
        .hasMessageContaining("'journal.preallocation' = 'zero_fill'")
        .hasMessageContaining("(zero_fill was removed: ");
    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_JOURNAL_MADVISE", "willneed")))
        .hasMessageContaining("must be one of none, random (willneed was removed: ");
  }

  /** journal.writeMode was removed: a file or environment that still sets it fails the start. */
  @Test
  void theRemovedWriteModeKeyIsRefusedNamingItsValueAndWhatTheJournalDoes() throws IOException {
    Path file = dir.resolve("tern.yaml");
    Files.writeString(
        file,
        """
        journal:
          writeMode: mmap
        """);
    assertThatThrownBy(() -> BrokerConfigLoader.load(file, Map.of()))
        .isInstanceOf(BrokerConfigLoader.ConfigException.class)
        .hasMessageContaining(
            "'journal.writeMode' = 'mmap' (from " + file + ") is no longer a setting")
        .hasMessageContaining("always writes with pwrite(2)")
        .hasMessageNotContaining("unknown key");
    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_JOURNAL_WRITEMODE", "pwrite")))
        .hasMessageContaining(
            "'journal.writeMode' = 'pwrite' (from environment variable TERN_JOURNAL_WRITEMODE)"
                + " is no longer a setting")
        .hasMessageContaining("always writes with pwrite(2)")
        .hasMessageNotContaining("names no configuration key");
  }

  @Test
  void sizesAndTimesTheRaftLayerWouldRefuseAreReportedByKey() {
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_LOG_MAXBATCHBYTES", "8MB",
                        "TERN_RAFT_MAXAPPENDBATCHBYTES", "4MB",
                        "TERN_RAFT_HEARTBEATINTERVALMS", "20")))
        .hasMessageContaining("'log.maxBatchBytes' = '8MB'")
        .hasMessageContaining("from 64KB to 4MB")
        .hasMessageContaining("'raft.maxAppendBatchBytes' = '4MB'")
        .hasMessageContaining("from 1KB to 2MB")
        .hasMessageContaining("'raft.heartbeatIntervalMs' = '20'")
        .hasMessageContaining("from 50 to 60000");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_RAFT_HEARTBEATINTERVALMS", "100",
                        "TERN_RAFT_ELECTIONTIMEOUTMS", "150")))
        .hasMessageContaining("'raft.electionTimeoutMs' = '150'")
        .hasMessageContaining("at least twice raft.heartbeatIntervalMs (100)");
    // The largest values it takes; RaftServerConfigTest shows they fit the default frames.
    BrokerConfig largest =
        BrokerConfigLoader.load(
            null, Map.of("TERN_LOG_MAXBATCHBYTES", "4MB", "TERN_RAFT_MAXAPPENDBATCHBYTES", "2MB"));
    assertThat(largest.maxAppendBatchBytes()).isEqualTo(2 * 1024 * 1024);
  }

  @Test
  void clusterTlsIsOffByDefaultAndNeedsReadableFilesWhenOn(@TempDir Path files) throws IOException {
    assertThat(BrokerConfig.defaults().clusterTls()).isNull();
    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_NETWORK_SECURITY_ENABLED", "true")))
        .hasMessageContaining("'network.security.certificateChainPath' = ''")
        .hasMessageContaining("'network.security.privateKeyPath' = ''")
        .hasMessageContaining("'network.security.trustedCertificatesPath' = ''")
        .hasMessageContaining("a readable PEM file when network.security.enabled is true");
    Path chain = Files.writeString(files.resolve("chain.pem"), "chain");
    Path key = Files.writeString(files.resolve("key.pem"), "key");
    BrokerConfig config =
        BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_NETWORK_SECURITY_ENABLED", "true",
                "TERN_NETWORK_SECURITY_CERTIFICATECHAINPATH", chain.toString(),
                "TERN_NETWORK_SECURITY_PRIVATEKEYPATH", key.toString(),
                "TERN_NETWORK_SECURITY_TRUSTEDCERTIFICATESPATH", chain.toString(),
                "TERN_SECURITY_CERTIFICATERELOADINTERVAL", "2s"));
    assertThat(config.clusterTls().certificateChain().path()).isEqualTo(chain);
    assertThat(config.clusterTls().certificateChain().setting())
        .isEqualTo("network.security.certificateChainPath");
    assertThat(config.clusterTls().privateKey().path()).isEqualTo(key);
    assertThat(config.clusterTls().trustedCertificates().path()).isEqualTo(chain);
    assertThat(config.clusterTls().reloadInterval()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void theFormerRaftTlsKeysNameTheirReplacement() {
    assertThatThrownBy(() -> BrokerConfigLoader.load(null, Map.of("TERN_RAFT_TLS_ENABLED", "true")))
        .hasMessageContaining("raft.tls.enabled")
        .hasMessageContaining("network.security.enabled");
  }

  @Test
  void gatewayTlsAndClientCertificatesAreCheckedByKey(@TempDir Path files) throws IOException {
    BrokerConfig defaults = BrokerConfig.defaults();
    assertThat(defaults.gateway().tls()).isNull();
    assertThat(defaults.gateway().maxMessageBytes()).isEqualTo(4 * 1024 * 1024);
    assertThat(defaults.managementTls()).isNull();
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null, Map.of("TERN_GATEWAY_SECURITY_CLIENTAUTH", "required")))
        .hasMessageContaining("'gateway.security.clientAuth' = 'required'")
        .hasMessageContaining("client certificates need TLS");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(null, Map.of("TERN_GATEWAY_SECURITY_CLIENTAUTH", "maybe")))
        .hasMessageContaining("none, optional or required");
    Path chain = Files.writeString(files.resolve("chain.pem"), "chain");
    Path key = Files.writeString(files.resolve("key.pem"), "key");
    Map<String, String> tls =
        Map.of(
            "TERN_GATEWAY_SECURITY_ENABLED",
            "true",
            "TERN_GATEWAY_SECURITY_CERTIFICATECHAINPATH",
            chain.toString(),
            "TERN_GATEWAY_SECURITY_PRIVATEKEYPATH",
            key.toString(),
            "TERN_GATEWAY_SECURITY_CLIENTAUTH",
            "REQUIRED");
    assertThatThrownBy(() -> BrokerConfigLoader.load(null, tls))
        .hasMessageContaining("'gateway.security.trustedCertificatesPath' = ''");
    Map<String, String> withTrust = new java.util.HashMap<>(tls);
    withTrust.put("TERN_GATEWAY_SECURITY_TRUSTEDCERTIFICATESPATH", chain.toString());
    withTrust.put("TERN_GATEWAY_MAXMESSAGESIZE", "8MB");
    BrokerConfig config = BrokerConfigLoader.load(null, withTrust);
    assertThat(config.gateway().tls().clientAuth())
        .isEqualTo(io.netty.handler.ssl.ClientAuth.REQUIRE);
    assertThat(config.gateway().tls().files().privateKey().path()).isEqualTo(key);
    assertThat(config.gateway().maxMessageBytes()).isEqualTo(8 * 1024 * 1024);
    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_GATEWAY_MAXMESSAGESIZE", "1GB")))
        .hasMessageContaining("from 64KB to 64MB");
  }

  @Test
  void raftOnTransportThreadIsOffByDefaultAndCanBeTurnedOn() {
    assertThat(BrokerConfig.defaults().raftOnTransportThread()).isFalse();
    assertThat(
            BrokerConfigLoader.load(null, Map.of("TERN_RAFT_ONTRANSPORTTHREAD", "true"))
                .raftOnTransportThread())
        .isTrue();
    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_RAFT_ONTRANSPORTTHREAD", "yes")))
        .hasMessageContaining("raft.onTransportThread");
  }
}
