package io.tern.exporter.opensearch;

import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.ValueType;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The names Zeebe 8.6's Elasticsearch exporter gives to what it writes, so that readers of Zeebe's
 * indices (Operate, Tasklist, Optimize, users' own queries) find Tern's records in the same places:
 *
 * <ul>
 *   <li>index {@code <prefix>_<value-type>_<brokerVersion>_<date>}, the value type in lower case
 *       with dashes, the date the record's timestamp in UTC ({@code
 *       zeebe-record_job_8.6.0_2026-12-07});
 *   <li>document id {@code <partitionId>-<position>}: a record exported again replaces itself;
 *   <li>routing: the partition id;
 *   <li>alias {@code <prefix>-<value-type>} over all of a value type's indices;
 *   <li>component template {@code <prefix>-<brokerVersion>}, index template {@code
 *       <prefix>_<value-type>_<brokerVersion>} matching {@code
 *       <prefix>_<value-type>_<brokerVersion>_*}.
 * </ul>
 */
final class IndexNames {
  private final String prefix;
  private final DateTimeFormatter dates;

  /**
   * Whether an index name can be reused for every record of the same second: a date pattern without
   * fractions of a second names the same index for all of them.
   */
  private final boolean bySecond;

  // The index names of the second (and broker version) of the last record: the records of a
  // second share them, so most records cost a map lookup, not a date's formatting.
  private long namedSecond = Long.MIN_VALUE;
  private String namedVersion;
  private final Map<ValueType, String> named = new EnumMap<>(ValueType.class);

  IndexNames(String prefix, String datePattern) {
    this.prefix = prefix;
    this.dates = DateTimeFormatter.ofPattern(datePattern, Locale.ROOT).withZone(ZoneOffset.UTC);
    this.bySecond = !patternLetters(datePattern).matches(".*[SnNA].*");
  }

  /** The index a record's document goes to. */
  String index(Record<?> record) {
    long timestamp = record.getTimestamp();
    String brokerVersion = record.getBrokerVersion();
    if (!bySecond) {
      return indexName(record.getValueType(), brokerVersion, timestamp);
    }
    long second = Math.floorDiv(timestamp, 1000);
    if (second != namedSecond || !brokerVersion.equals(namedVersion)) {
      named.clear();
      namedSecond = second;
      namedVersion = brokerVersion;
    }
    String name = named.get(record.getValueType());
    if (name == null) {
      name = indexName(record.getValueType(), brokerVersion, timestamp);
      named.put(record.getValueType(), name);
    }
    return name;
  }

  private String indexName(ValueType valueType, String brokerVersion, long timestamp) {
    return indexPrefix(valueType, brokerVersion) + dates.format(Instant.ofEpochMilli(timestamp));
  }

  /** The pattern's letters outside quoted text ('T' and the like are no fields). */
  private static String patternLetters(String pattern) {
    return pattern.replaceAll("'[^']*'", "");
  }

  /** The document's id: the same for a record however often it is exported. */
  static String id(Record<?> record) {
    return record.getPartitionId() + "-" + record.getPosition();
  }

  /** The routing of a record's document: its partition. */
  static String routing(Record<?> record) {
    return String.valueOf(record.getPartitionId());
  }

  /** {@code PROCESS_INSTANCE} is {@code process-instance}. */
  static String valueTypeName(ValueType valueType) {
    return valueType.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  String alias(ValueType valueType) {
    return prefix + "-" + valueTypeName(valueType);
  }

  String indexPattern(ValueType valueType, String brokerVersion) {
    return indexPrefix(valueType, brokerVersion) + "*";
  }

  String indexTemplate(ValueType valueType, String brokerVersion) {
    return prefix + "_" + valueTypeName(valueType) + "_" + version(brokerVersion);
  }

  String componentTemplate(String brokerVersion) {
    return prefix + "-" + version(brokerVersion);
  }

  private String indexPrefix(ValueType valueType, String brokerVersion) {
    return prefix + "_" + valueTypeName(valueType) + "_" + version(brokerVersion) + "_";
  }

  /** Index names are lower case; Zeebe writes its version so too (8.6.0-alpha1, -snapshot). */
  private static String version(String brokerVersion) {
    return brokerVersion.toLowerCase(Locale.ROOT);
  }
}
