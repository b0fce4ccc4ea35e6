package io.tern.exporter.opensearch;

import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The exporter's args, under the names Zeebe 8.6's Elasticsearch exporter reads, filled by {@code
 * Configuration.instantiate} (Jackson: nested args are nested objects, {@code index.prefix} is
 * {@code index: {prefix: ...}}). The defaults are Zeebe 8.6's. {@link #validate()} names the arg of
 * the first bad value.
 */
public final class OpenSearchExporterConfiguration {
  /** One URL, or several separated by commas (tried in order when one cannot be reached). */
  public String url = "http://localhost:9200";

  /** The time a request (a bulk, a template) may take, and the connect timeout. */
  public long requestTimeoutMs = 30_000;

  public IndexConfiguration index = new IndexConfiguration();
  public BulkConfiguration bulk = new BulkConfiguration();
  public AuthenticationConfiguration authentication = new AuthenticationConfiguration();

  /** Index names, templates, and which records are indexed. */
  public static final class IndexConfiguration {
    public String prefix = "zeebe-record";
    public boolean createTemplate = true;

    /** The suffix of each index: the record's timestamp, in UTC, in this pattern. */
    public String indexSuffixDatePattern = "yyyy-MM-dd";

    /** Shards and replicas of the indices (the templates' settings); null: 3 and 0, Zeebe's. */
    public Integer numberOfShards;

    public Integer numberOfReplicas;

    // Record types.
    public boolean event = true;
    public boolean command = false;
    public boolean rejection = false;

    // Value types: Zeebe 8.6's defaults.
    public boolean checkpoint = false;
    public boolean commandDistribution = true;
    public boolean compensationSubscription = true;
    public boolean decision = true;
    public boolean decisionEvaluation = true;
    public boolean decisionRequirements = true;
    public boolean deployment = true;
    public boolean deploymentDistribution = true;
    public boolean error = true;
    public boolean escalation = true;
    public boolean form = true;
    public boolean incident = true;
    public boolean job = true;
    public boolean jobBatch = false;
    public boolean message = true;
    public boolean messageBatch = false;
    public boolean messageCorrelation = true;
    public boolean messageStartEventSubscription = true;
    public boolean messageSubscription = true;
    public boolean process = true;
    public boolean processEvent = false;
    public boolean processInstance = true;
    public boolean processInstanceBatch = false;
    public boolean processInstanceCreation = true;
    public boolean processInstanceMigration = true;
    public boolean processInstanceModification = true;
    public boolean processMessageSubscription = true;
    public boolean resourceDeletion = true;
    public boolean signal = true;
    public boolean signalSubscription = true;
    public boolean timer = true;
    public boolean userTask = true;
    public boolean variable = true;
    public boolean variableDocument = true;

    public int shards() {
      return numberOfShards == null ? 3 : numberOfShards;
    }

    public int replicas() {
      return numberOfReplicas == null ? 0 : numberOfReplicas;
    }
  }

  /** When the buffered documents are sent. */
  public static final class BulkConfiguration {
    /** Seconds between two timed flushes. */
    public int delay = 5;

    /** Documents: a flush when this many are buffered. */
    public int size = 1_000;

    /** Bytes: a flush when the buffered documents take this much. */
    public int memoryLimit = 10 * 1024 * 1024;
  }

  /**
   * HTTP basic authentication. The password may come from a file ({@code passwordFile}: a mounted
   * secret) or from the environment ({@code TERN_EXPORTERS_<ID>_ARGS_AUTHENTICATION_PASSWORD}), so
   * that it need not be written in a configuration file. It is never logged.
   */
  public static final class AuthenticationConfiguration {
    public String username;
    public String password;
    public String passwordFile;

    @Override
    public String toString() {
      return "AuthenticationConfiguration{username="
          + username
          + ", password="
          + (password == null ? "null" : "***")
          + ", passwordFile="
          + passwordFile
          + "}";
    }
  }

  /** The URLs, in the order they are tried. */
  public List<URI> urls() {
    List<URI> urls = new ArrayList<>();
    for (String part : url.split(",")) {
      String text = part.strip();
      if (!text.isEmpty()) {
        URI uri = URI.create(text.endsWith("/") ? text : text + "/");
        urls.add(uri);
      }
    }
    return urls;
  }

  /** Whether records of this type are indexed. */
  public boolean accepts(RecordType recordType) {
    switch (recordType) {
      case EVENT:
        return index.event;
      case COMMAND:
        return index.command;
      case COMMAND_REJECTION:
        return index.rejection;
      default:
        return false;
    }
  }

  /**
   * Whether records of this value type are indexed. Value types Zeebe 8.6's exporter has no switch
   * for (USER, AUTHORIZATION, CLOCK, MULTI_INSTANCE, PROCESS_INSTANCE_RESULT) are never indexed, as
   * in Zeebe.
   */
  public boolean accepts(ValueType valueType) {
    IndexConfiguration i = index;
    switch (valueType) {
      case CHECKPOINT:
        return i.checkpoint;
      case COMMAND_DISTRIBUTION:
        return i.commandDistribution;
      case COMPENSATION_SUBSCRIPTION:
        return i.compensationSubscription;
      case DECISION:
        return i.decision;
      case DECISION_EVALUATION:
        return i.decisionEvaluation;
      case DECISION_REQUIREMENTS:
        return i.decisionRequirements;
      case DEPLOYMENT:
        return i.deployment;
      case DEPLOYMENT_DISTRIBUTION:
        return i.deploymentDistribution;
      case ERROR:
        return i.error;
      case ESCALATION:
        return i.escalation;
      case FORM:
        return i.form;
      case INCIDENT:
        return i.incident;
      case JOB:
        return i.job;
      case JOB_BATCH:
        return i.jobBatch;
      case MESSAGE:
        return i.message;
      case MESSAGE_BATCH:
        return i.messageBatch;
      case MESSAGE_CORRELATION:
        return i.messageCorrelation;
      case MESSAGE_START_EVENT_SUBSCRIPTION:
        return i.messageStartEventSubscription;
      case MESSAGE_SUBSCRIPTION:
        return i.messageSubscription;
      case PROCESS:
        return i.process;
      case PROCESS_EVENT:
        return i.processEvent;
      case PROCESS_INSTANCE:
        return i.processInstance;
      case PROCESS_INSTANCE_BATCH:
        return i.processInstanceBatch;
      case PROCESS_INSTANCE_CREATION:
        return i.processInstanceCreation;
      case PROCESS_INSTANCE_MIGRATION:
        return i.processInstanceMigration;
      case PROCESS_INSTANCE_MODIFICATION:
        return i.processInstanceModification;
      case PROCESS_MESSAGE_SUBSCRIPTION:
        return i.processMessageSubscription;
      case RESOURCE_DELETION:
        return i.resourceDeletion;
      case SIGNAL:
        return i.signal;
      case SIGNAL_SUBSCRIPTION:
        return i.signalSubscription;
      case TIMER:
        return i.timer;
      case USER_TASK:
        return i.userTask;
      case VARIABLE:
        return i.variable;
      case VARIABLE_DOCUMENT:
        return i.variableDocument;
      default:
        return false;
    }
  }

  /** The password: {@code authentication.password}, else the file's first line; empty if none. */
  public Optional<String> password() {
    if (authentication.password != null && !authentication.password.isEmpty()) {
      return Optional.of(authentication.password);
    }
    if (authentication.passwordFile != null && !authentication.passwordFile.isBlank()) {
      try {
        String text =
            Files.readString(Path.of(authentication.passwordFile), StandardCharsets.UTF_8);
        // A file written by `echo` or a Kubernetes secret may end in a line break.
        return Optional.of(text.strip());
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "authentication.passwordFile: cannot read "
                + authentication.passwordFile
                + ": "
                + e.getClass().getSimpleName());
      }
    }
    return Optional.empty();
  }

  /** Whether requests carry basic authentication. */
  public boolean hasAuthentication() {
    return authentication.username != null && !authentication.username.isEmpty();
  }

  /**
   * Checks every value; throws {@link IllegalArgumentException} naming the first bad arg. Never
   * puts the password in the message.
   */
  public void validate() {
    List<URI> urls;
    try {
      urls = urls();
    } catch (IllegalArgumentException e) {
      throw bad("url", url, "not a URL (" + e.getMessage() + ")");
    }
    if (urls.isEmpty()) {
      throw bad("url", url, "no URL given");
    }
    for (URI uri : urls) {
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
        throw bad("url", url, "each URL must be http:// or https:// with a host");
      }
    }
    if (requestTimeoutMs < 1) {
      throw bad("requestTimeoutMs", requestTimeoutMs, "must be at least 1");
    }
    String prefix = index.prefix;
    if (prefix == null || prefix.isEmpty()) {
      throw bad("index.prefix", prefix, "must not be empty");
    }
    if (prefix.contains("_")) {
      // The index name is <prefix>_<value type>_<version>_<date>: a '_' in the prefix would
      // make Zeebe's index patterns match another prefix's indices.
      throw bad("index.prefix", prefix, "must not contain '_'");
    }
    if (!prefix.equals(prefix.toLowerCase(Locale.ROOT))
        || !prefix.matches("[a-z0-9][a-z0-9.+-]*")) {
      throw bad(
          "index.prefix",
          prefix,
          "must be lower case letters, digits, '-', '+' or '.' (an index name)");
    }
    try {
      DateTimeFormatter.ofPattern(index.indexSuffixDatePattern);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw bad("index.indexSuffixDatePattern", index.indexSuffixDatePattern, "not a date pattern");
    }
    if (index.numberOfShards != null && index.numberOfShards < 1) {
      throw bad("index.numberOfShards", index.numberOfShards, "must be at least 1");
    }
    if (index.numberOfReplicas != null && index.numberOfReplicas < 0) {
      throw bad("index.numberOfReplicas", index.numberOfReplicas, "must not be negative");
    }
    if (bulk.size < 1) {
      throw bad("bulk.size", bulk.size, "must be at least 1");
    }
    if (bulk.delay < 1) {
      throw bad("bulk.delay", bulk.delay, "must be at least 1 (seconds)");
    }
    if (bulk.memoryLimit < 1) {
      throw bad("bulk.memoryLimit", bulk.memoryLimit, "must be at least 1 (bytes)");
    }
    boolean hasPassword =
        authentication.password != null && !authentication.password.isEmpty()
            || authentication.passwordFile != null && !authentication.passwordFile.isBlank();
    if (hasAuthentication() && !hasPassword) {
      throw new IllegalArgumentException(
          "authentication.password: authentication.username is set, but neither"
              + " authentication.password nor authentication.passwordFile");
    }
    if (!hasAuthentication() && hasPassword) {
      throw new IllegalArgumentException(
          "authentication.username: a password is set, but no authentication.username");
    }
    if (hasAuthentication()) {
      password(); // a missing or unreadable file fails now, not at the first request
    }
  }

  private static IllegalArgumentException bad(String arg, Object value, String why) {
    return new IllegalArgumentException(arg + ": " + why + " (was '" + value + "')");
  }

  @Override
  public String toString() {
    return "OpenSearchExporterConfiguration{url="
        + url
        + ", requestTimeoutMs="
        + requestTimeoutMs
        + ", index.prefix="
        + index.prefix
        + ", index.createTemplate="
        + index.createTemplate
        + ", bulk={delay="
        + bulk.delay
        + ", size="
        + bulk.size
        + ", memoryLimit="
        + bulk.memoryLimit
        + "}, authentication="
        + authentication
        + "}";
  }
}
