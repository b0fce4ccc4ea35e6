package io.tern.engine.broker;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every key of the broker's configuration, with its default and meaning: the one reference of what
 * can be set (in the YAML file, or as an environment variable: {@code cluster.partitionsCount} is
 * {@code TERN_CLUSTER_PARTITIONSCOUNT}). The README's table lists the same keys.
 */
final class ConfigKeys {
  /** One key: its dotted name, its default (as text), and what it trades. */
  record Key(String name, String defaultValue, String meaning) {}

  static final List<Key> ALL =
      List.of(
          new Key(
              "cluster.nodeId",
              "0",
              "this broker's id, 0 to clusterSize - 1; a higher id (up to 1023) starts a broker to add to a running cluster (docs/scaling.md)"),
          new Key("cluster.clusterSize", "1", "brokers in the cluster"),
          new Key("cluster.partitionsCount", "1", "partitions of the cluster"),
          new Key("cluster.replicationFactor", "1", "replicas of each partition"),
          new Key("network.host", "0.0.0.0", "the address the broker's servers bind to"),
          new Key(
              "network.advertisedHost",
              "",
              "the host name other brokers and clients reach this broker by (empty: this"
                  + " machine's host name)"),
          new Key(
              "cluster.contactPoints",
              "",
              "host:port of every broker's command port, comma-separated, in any order (needed"
                  + " when clusterSize > 1, and by a standalone gateway)"),
          new Key(
              "network.commandPort",
              "26501",
              "the broker's command API: gateways and other brokers send commands and learn"
                  + " the topology here"),
          new Key("network.internalPort", "26502", "the Raft transport between brokers"),
          new Key("gateway.enable", "true", "whether this broker hosts the gRPC gateway"),
          new Key(
              "management.enable",
              "true",
              "whether the management HTTP server (health, metrics, operations) runs"),
          new Key("management.port", "9600", "the management HTTP server's port"),
          new Key(
              "management.host",
              "",
              "the address the management server binds to (empty: network.host); probes and"
                  + " Prometheus must reach it, so in Kubernetes the pod's address or 0.0.0.0"),
          new Key(
              "management.security.tokenFile",
              "",
              "a file holding the token that POST operations (pause, resume, takeSnapshot,"
                  + " rebalance, faults) and variables in GET /actuator/instances/{key} need, sent"
                  + " as 'Authorization: Bearer <token>'; at least 16 printable characters. Without"
                  + " a token the operations answer 403 and variables are redacted"),
          new Key(
              "management.security.token",
              "",
              "the same token from the environment variable only (never in the configuration"
                  + " file, which is refused); set one of the two"),
          new Key("gateway.port", "26500", "the gRPC gateway's port"),
          new Key(
              "gateway.rest.enabled",
              "true",
              "whether the gateway also serves Camunda's REST API (/v2), which the 8.8+ client's"
                  + " default builder prefers; same TLS and authentication as gateway.port"),
          new Key(
              "gateway.rest.port",
              "8080",
              "the REST API's port (Camunda's 8080; 0: any free port)"),
          new Key(
              "gateway.rest.host", "", "the address the REST API binds to (empty: network.host)"),
          new Key(
              "gateway.requestTimeout",
              "15s",
              "how long a request waits for its partition's answer without a client deadline"),
          new Key(
              "gateway.longPollingTimeout",
              "10s",
              "how long ActivateJobs waits for jobs when the client's requestTimeout is 0"),
          new Key(
              "gateway.security.authentication.mode",
              "none",
              "none (any client that reaches the gateway may do anything; the start log says so)"
                  + " or oauth (every call needs an OAuth 2 access token, a JWT, as the official"
                  + " client's OAuthCredentialsProvider sends it; others get UNAUTHENTICATED)"),
          new Key(
              "gateway.security.authentication.oauth.issuerUri",
              "",
              "oauth: the token issuer, exactly as its tokens' iss claim names it (needed with"
                  + " mode oauth); its /.well-known/openid-configuration is read at start"),
          new Key(
              "gateway.security.authentication.oauth.jwksUri",
              "",
              "oauth: where the issuer publishes its signing keys (empty: the jwks_uri of the"
                  + " issuer's discovery document)"),
          new Key(
              "gateway.security.authentication.oauth.audience",
              "zeebe-api",
              "oauth: a token's aud claim must contain this (the official client asks for"
                  + " zeebe-api unless told otherwise)"),
          new Key(
              "gateway.security.authentication.oauth.allowedClockSkew",
              "60s",
              "oauth: how far the issuer's clock may be from the gateway's when exp and nbf are"
                  + " checked"),
          new Key(
              "gateway.security.authentication.oauth.jwksCacheTtl",
              "5m",
              "oauth: how long fetched keys are used before they are fetched again"),
          new Key(
              "gateway.security.authentication.oauth.jwksRefreshMinInterval",
              "30s",
              "oauth: a token signed by a key the gateway does not know fetches the key set again"
                  + " (the issuer rotated its keys), at most twice in this interval"),
          new Key(
              "data.directory",
              "data",
              "where partitions keep their journal, snapshots and state (relative to the"
                  + " working directory)"),
          new Key(
              "data.runtimeDirectory",
              "",
              "where the live RocksDB of each partition runs (empty: runtime under the"
                  + " partition's data directory); may be tmpfs"),
          new Key("data.snapshotPeriod", "5m", "how often each partition takes a snapshot"),
          new Key(
              "data.snapshotEveryRecords",
              "100000",
              "a partition also takes a snapshot after this many records since its last one, and"
                  + " once it caught up after start, so that a restart replays little; 0 disables"
                  + " both"),
          new Key(
              "data.disk.minFreeBytes",
              "2GB",
              "below this much free disk space new commands are refused; 0 disables"),
          new Key(
              "data.disk.runtimeMinFreeBytes",
              "256MB",
              "the same for data.runtimeDirectory when it is outside data.directory (a tmpfs, say):"
                  + " RocksDB fails on a full one; 0 disables"),
          new Key("data.disk.checkInterval", "1s", "how often free disk space is measured"),
          new Key(
              "data.backup.store",
              "none",
              "where POST /actuator/backups stores backups: none (refused), s3 or filesystem"
                  + " (docs/operations.md#backups); every broker of the cluster needs the same"),
          new Key(
              "data.backup.filesystem.basePath",
              "",
              "the directory backups go to with store filesystem (a volume every broker mounts)"),
          new Key("data.backup.s3.bucketName", "", "the bucket backups go to with store s3"),
          new Key(
              "data.backup.s3.endpoint",
              "",
              "the S3 API's URL (empty: AWS's); e.g. https://storage.googleapis.com for GCS's"
                  + " S3 interoperability, or MinIO's"),
          new Key(
              "data.backup.s3.region",
              "",
              "the bucket's region (empty: us-east-1, which" + " S3-compatible stores ignore)"),
          new Key(
              "data.backup.s3.accessKey",
              "",
              "the access key id (empty, with no secret key: the AWS SDK's default chain:"
                  + " environment, profile, instance or pod role)"),
          new Key(
              "data.backup.s3.secretKey",
              "",
              "the secret key from the environment variable only"
                  + " (TERN_DATA_BACKUP_S3_SECRETKEY; never in the configuration file, which is"
                  + " refused); or data.backup.s3.secretKeyFile"),
          new Key(
              "data.backup.s3.secretKeyFile",
              "",
              "a file holding the secret key (e.g. a mounted Secret)"),
          new Key(
              "data.backup.s3.basePath",
              "",
              "a prefix of every object's key, so that clusters can share a bucket"),
          new Key(
              "data.backup.s3.forcePathStyleAccess",
              "false",
              "bucket in the path rather than the host name (MinIO and most self-hosted stores"
                  + " need true)"),
          new Key(
              "data.backup.s3.compression",
              "none",
              "none or gzip: files gzipped before upload (CPU for less storage and transfer;"
                  + " RocksDB's files are compressed already)"),
          new Key(
              "data.backup.s3.apiCallTimeout",
              "180s",
              "how long one S3 call (one file's upload, or one part of a multipart upload) may"
                  + " take in all, retries included"),
          new Key(
              "data.backup.s3.multipartThreshold",
              "128MB",
              "files larger than this go up as a multipart upload (a single PUT takes at most"
                  + " 5GB); 5MB to 5GB"),
          new Key(
              "data.backup.s3.multipartPartSize",
              "64MB",
              "the size of each part of a multipart upload (larger if a file would need over"
                  + " 10,000 parts); 5MB to 5GB"),
          new Key(
              "processing.maxCommandsInBatch",
              "100",
              "commands processed in one batch (1 disables batch processing)"),
          new Key(
              "processing.uncommitted",
              "false",
              "an experiment: leaders process commands before they commit (answers and side effects"
                  + " that leave the partition still wait for the commit); at a leader change the"
                  + " old leader rebuilds its state from its snapshot and the committed log"),
          new Key(
              "processing.uncommittedTimers",
              "true",
              "with processing.uncommitted: timers, job deadlines and back-offs and message expiry"
                  + " are scheduled as soon as the batch that sets them is written, not once it"
                  + " commits. They never leave the partition, and the command they write lands in"
                  + " the log after that batch, so it can never commit without it"
                  + " (docs/processing.md); false waits for the commit as before"),
          new Key(
              "processing.subscriptionRetryInterval",
              "10s",
              "how long a command to another partition (a message subscription's step, a"
                  + " deployment's, a deletion's or a signal's copy) waits for its acknowledgement"
                  + " before it is sent again"),
          new Key(
              "processing.resultAwaitLimit",
              "1h",
              "how long the leader remembers a client waiting for an instance's result"),
          new Key(
              "processing.limits.maxNestingDepth",
              "100",
              "how deep the XML elements of a deployed BPMN or DMN file may nest (a process's"
                  + " elements are at depth 3, each embedded subprocess adds one); deeper is refused"
                  + " before parsing, as the parsers recurse once per level"),
          new Key(
              "processing.limits.maxElementsPerProcess",
              "10000",
              "how many elements with an id (flow nodes, flows, definitions) a deployed process may"
                  + " hold, its subprocesses' included"),
          new Key(
              "processing.limits.maxExpressionChars",
              "8192",
              "how long an expression (a value starting with '=') in a deployed file may be"),
          new Key(
              "log.maxBatchBytes",
              "4MB",
              "the largest batch (Raft entry) a command may make; 64KB to 4MB"),
          new Key(
              "state.rocksdb.disableWal",
              "true",
              "skip RocksDB's write-ahead log (the replicated log is the source of truth)"),
          new Key(
              "state.rocksdb.memoryLimitMb",
              "512",
              "RocksDB block cache and memtables of all partitions of the broker"),
          new Key(
              "journal.segmentSize",
              "128MB",
              "the size of each Raft journal segment file (entries never straddle segments)"),
          new Key(
              "journal.madvise",
              "none",
              "none or random: advice for mapped journal segments (random: no read-around, so"
                  + " page-cache pages stay small and flushes write back less; cold sequential"
                  + " reads get slower)"),
          new Key(
              "journal.preallocation",
              "zero-on-flush",
              "zero-on-flush (flushes of a page or more keep zeros ahead of the frames, so that"
                  + " they overwrite written blocks: cheaper small flushes, but the zeros reach the"
                  + " disk too) or fallocate (reserve segment blocks at once; each first write to a"
                  + " block costs its flush a metadata commit, and about half the bytes reach the"
                  + " disk)"),
          new Key("raft.flush.mode", "sync", "sync, delayed, async or off: what an ack waits for"),
          new Key(
              "raft.flush.delayMs",
              "2",
              "delayed: longest wait for a shared flush; async: pace of background flushes"),
          new Key(
              "raft.electionTimeoutMs",
              "1000",
              "a leader's silence before an election; at least twice raft.heartbeatIntervalMs"),
          new Key(
              "raft.maxInflightAppends",
              "4",
              "append batches in flight to one follower before the leader waits for an answer"),
          new Key(
              "raft.maxAppendBatchBytes",
              "128KB",
              "the most entry bytes in one append request (larger: fewer messages, longer"
                  + " head-of-line waits); 1KB to 2MB, at most half of journal.segmentSize"),
          new Key(
              "raft.preferSnapshotReplicationThreshold",
              "100",
              "entries a follower may lag behind the leader's latest snapshot before it is sent"
                  + " the snapshot instead of the entries, even where the log still holds them (a"
                  + " replica joining the partition, one back from a long outage); 0 to 1000000000"),
          new Key("raft.heartbeatIntervalMs", "100", "how often a leader heartbeats; at least 50"),
          new Key(
              "raft.threads",
              "2",
              "threads running the Raft groups of all partitions, each taking turns among its"
                  + " share (more: less waiting behind other partitions' turns, more thread"
                  + " switches)"),
          new Key(
              "raft.onTransportThread",
              "false",
              "run every Raft group on the Raft transport's one thread instead of on raft.threads"
                  + " (messages need no hand-off between threads: less CPU per entry; but one"
                  + " thread does all Raft and network work, and a slow disk write stalls every"
                  + " partition's heartbeats)"),
          new Key(
              "raft.flushThreads",
              "2",
              "threads flushing the partitions' journals, one flush at a time each (more:"
                  + " flushes of different partitions overlap, more thread switches)"),
          new Key(
              "network.security.enabled",
              "false",
              "cluster TLS: mutual TLS 1.3 on the command API (network.commandPort) and the Raft"
                  + " port (network.internalPort); every broker and standalone gateway must agree."
                  + " A peer's certificate must chain to the trusted certificates and name (SAN)"
                  + " the address it is known by: a certificate issued to one broker cannot join"
                  + " as another"),
          new Key(
              "network.security.certificateChainPath",
              "",
              "PEM certificate chain this broker (or standalone gateway) presents to the others,"
                  + " its own certificate first; its SANs name network.advertisedHost"),
          new Key(
              "network.security.privateKeyPath",
              "",
              "PEM private key (PKCS#8, unencrypted) of that chain; a secret: give the file, never"
                  + " the key"),
          new Key(
              "network.security.trustedCertificatesPath",
              "",
              "PEM certificates a peer's chain must lead to: a CA for this cluster's brokers"
                  + " only"),
          new Key(
              "gateway.security.enabled",
              "false",
              "TLS on the gateway's port (gateway.port): clients connect with TLS and check the"
                  + " gateway's certificate"),
          new Key(
              "gateway.security.certificateChainPath",
              "",
              "PEM certificate chain the gateway presents to clients, its own certificate first"),
          new Key(
              "gateway.security.privateKeyPath",
              "",
              "PEM private key (PKCS#8, unencrypted) of that chain"),
          new Key(
              "gateway.security.clientAuth",
              "none",
              "client certificates at the gateway (mTLS): none, optional (checked when sent) or"
                  + " required (a client without a trusted certificate cannot connect); needs"
                  + " gateway.security.enabled"),
          new Key(
              "gateway.security.trustedCertificatesPath",
              "",
              "PEM certificates a client's certificate must lead to, when"
                  + " gateway.security.clientAuth is optional or required"),
          new Key(
              "gateway.maxMessageSize",
              "4MB",
              "the largest request the gateway accepts (a deployment, a command's variables);"
                  + " larger ones get RESOURCE_EXHAUSTED. Zeebe's default"),
          new Key(
              "management.security.tls.enabled",
              "false",
              "HTTPS on the management port (management.port); probes and Prometheus then"
                  + " scrape with scheme https"),
          new Key(
              "management.security.tls.certificateChainPath",
              "",
              "PEM certificate chain the management server presents"),
          new Key(
              "management.security.tls.privateKeyPath",
              "",
              "PEM private key (PKCS#8, unencrypted) of that chain"),
          new Key(
              "security.certificateReloadInterval",
              "10s",
              "how often every TLS setting's files are compared with what is in use; changed"
                  + " files (a renewed certificate) serve new connections without a restart,"
                  + " files that do not load are logged and the previous ones kept. 0: never"),
          new Key(
              "backpressure.enabled",
              "true",
              "limit each partition's client commands in flight (from their write until they are"
                  + " processed); over it they get RESOURCE_EXHAUSTED (job complete/fail/throw"
                  + " error and cancel never do)"),
          new Key(
              "backpressure.algorithm",
              "aimd",
              "aimd (decided once per window of 10 commands: lowered when more than one was"
                  + " slow, else raised by one), vegas or fixed"),
          new Key(
              "backpressure.aimd.initialLimit",
              "100",
              "aimd: the limit it starts from and returns to; above it only a busy window grows it"),
          new Key("backpressure.aimd.minLimit", "1", "aimd: the lowest limit"),
          new Key("backpressure.aimd.maxLimit", "1000", "aimd: the highest limit"),
          new Key(
              "backpressure.aimd.requestTimeout",
              "200ms",
              "aimd: a command processed later than this after its write lowers the limit"),
          new Key(
              "backpressure.aimd.backoffRatio",
              "0.9",
              "aimd: the factor the limit is multiplied by on overload"),
          new Key("backpressure.vegas.initialLimit", "20", "vegas: the limit it starts from"),
          new Key(
              "backpressure.vegas.alpha",
              "3",
              "vegas: below this many queued requests the limit grows"),
          new Key(
              "backpressure.vegas.beta", "6", "vegas: above this many queued the limit shrinks"),
          new Key("backpressure.fixed.limit", "20", "fixed: the limit"),
          new Key(
              "experimental.network.latency",
              "0ms",
              "an experiment, never for production: a delay added to every message between the"
                  + " nodes of experimental.network.latencyBetween, Raft and the command API alike,"
                  + " in each direction (one way: a round trip gains twice it); the broker logs a"
                  + " warning and exports tern.network.injected.latency"),
          new Key(
              "experimental.network.jitter",
              "0ms",
              "an experiment: a further delay drawn from 0 to this for each message; each link"
                  + " keeps its order"),
          new Key(
              "experimental.network.latencyBetween",
              "",
              "an experiment: the pairs of node ids whose messages are delayed, such as 0-1,1-2"
                  + " (empty: every pair); a standalone gateway adds no latency"),
          new Key(
              "experimental.faultInjection.enabled",
              "false",
              "for chaos tests only, never in production: POST /actuator/faults/isolate/{nodes}"
                  + " drops every Raft message this broker sends to those node ids (the command"
                  + " API still connects them), POST /actuator/faults/delay/{nodes}/{ms} delays"
                  + " each, until POST /actuator/faults/heal; off, they answer 404"),
          new Key(
              "exporting.history.enabled",
              "true",
              "the built-in history store (docs/history.md), exporter id history: instances,"
                  + " elements, variables, jobs and incidents in a database. On a single broker"
                  + " it runs with no setup, in an H2 file under data.directory/history; in a"
                  + " cluster it runs once exporters.history.args.url names a database all"
                  + " brokers share (PostgreSQL), as each broker's own H2 would hold only the"
                  + " partitions it led. Its other args (username, passwordFile, retention, ...)"
                  + " go under exporters.history.args; false turns it off"),
          new Key(
              "exporting.positionWriteInterval",
              "1s",
              "how often a partition's leader writes the positions its exporters acknowledged to"
                  + " the log (when one moved); a new leader resumes there, so a longer interval"
                  + " means more records exported again after a leader change"),
          new Key(
              "exporting.retryMinBackoff",
              "100ms",
              "how long an exporter whose call threw waits before the same record is tried again;"
                  + " the wait doubles with each failure in a row"),
          new Key(
              "exporting.retryMaxBackoff",
              "10s",
              "the longest wait between an exporter's retries (at least exporting.retryMinBackoff)"),
          new Key(
              "logging.level",
              "info",
              "the level of Tern's own log lines: error, warn, info, debug or trace (gRPC and"
                  + " Netty log warnings and errors only)"));

  /**
   * Keys under a name of the user's choosing, {@code <id>} (read by {@link ExporterSettings}, not
   * through {@link #ALL}): listed in the reference, with no default.
   */
  static final List<Key> EXPORTER_KEYS =
      List.of(
          new Key(
              "exporters.<id>.className",
              "",
              "the class of the exporter <id>, which implements Zeebe's"
                  + " io.camunda.zeebe.exporter.api.Exporter and has a public no-arg constructor;"
                  + " ids are case-insensitive, kept in lower case"),
          new Key(
              "exporters.<id>.jarPath",
              "",
              "the jar holding the exporter and its dependencies, loaded in a class loader of its"
                  + " own (empty: the class is on the broker's class path, e.g. in lib/)"),
          new Key(
              "exporters.<id>.args.<name>",
              "",
              "the exporter's own settings, handed to it as a map (YAML: nested maps and lists"
                  + " too); in an environment variable <name> is read in lower case and each '_'"
                  + " in it is a level of nesting (ARGS_BULK_SIZE: args.bulk.size)"));

  /** A key that was removed: its dotted name and what to know instead, for the error naming it. */
  record RemovedKey(String name, String reason) {}

  /**
   * Keys that were removed. A file or environment variable that still sets one fails the start with
   * the reason, rather than as an unknown key.
   */
  static final List<RemovedKey> REMOVED =
      List.of(
          new RemovedKey(
              "raft.tls.enabled",
              "cluster TLS is network.security.enabled, which covers the command API as well as"
                  + " Raft and checks that a peer's certificate names its address"),
          new RemovedKey(
              "raft.tls.certificateChainPath", "now network.security.certificateChainPath"),
          new RemovedKey("raft.tls.privateKeyPath", "now network.security.privateKeyPath"),
          new RemovedKey(
              "raft.tls.trustedCertificatesPath", "now network.security.trustedCertificatesPath"),
          new RemovedKey(
              "journal.writeMode",
              "the journal always writes with pwrite(2), the former default (writes into the"
                  + " mapping, mmap, measured more CPU per flush and less Raft throughput; see"
                  + " docs/journal.md)"));

  /**
   * Values a key no longer takes, by key and then by value (lower case, {@code -} for {@code _}):
   * why, for the error naming them.
   */
  static final Map<String, Map<String, String>> REMOVED_VALUES =
      Map.of(
          "journal.preallocation",
          Map.of(
              "zero-fill",
              "zeros written ahead from a background thread measured a worse Raft commit p99"
                  + " than fallocate; see docs/journal.md"),
          "journal.madvise",
          Map.of(
              "sequential", "it was never measured to help the journal; see docs/journal.md",
              "willneed", "it was never measured to help the journal; see docs/journal.md"));

  /** By lower-case name, for case-insensitive lookups of file and environment keys. */
  static final Map<String, Key> BY_LOWER_NAME = byLowerName();

  /** The removed key named {@code dotted} in any case, or null. */
  static RemovedKey removed(String dotted) {
    for (RemovedKey key : REMOVED) {
      if (key.name().equalsIgnoreCase(dotted)) {
        return key;
      }
    }
    return null;
  }

  private ConfigKeys() {}

  /**
   * ", did you mean 'gateway.port'?" for the key nearest to an unknown one (by edit distance,
   * ignoring case), or "" if none is near. {@code asEnvironment}: name it as a TERN_ variable.
   */
  static String suggestion(String unknown, boolean asEnvironment) {
    String lower = unknown.toLowerCase(java.util.Locale.ROOT);
    Key nearest = null;
    int best = Integer.MAX_VALUE;
    for (Key key : ALL) {
      int distance = editDistance(lower, key.name().toLowerCase(java.util.Locale.ROOT));
      if (distance < best) {
        best = distance;
        nearest = key;
      }
    }
    // A few typos, or a third of the name: beyond that a suggestion is a guess.
    if (nearest == null || best > Math.max(2, lower.length() / 3)) {
      return "";
    }
    String name =
        asEnvironment
            ? "TERN_" + nearest.name().replace('.', '_').toUpperCase(java.util.Locale.ROOT)
            : nearest.name();
    return ", did you mean '" + name + "'?";
  }

  /** Levenshtein distance: insertions, deletions and substitutions. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  private static Map<String, Key> byLowerName() {
    Map<String, Key> keys = new LinkedHashMap<>();
    for (Key key : ALL) {
      keys.put(key.name().toLowerCase(java.util.Locale.ROOT), key);
    }
    return Map.copyOf(keys);
  }
}
