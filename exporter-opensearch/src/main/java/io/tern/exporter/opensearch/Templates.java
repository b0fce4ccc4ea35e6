package io.tern.exporter.opensearch;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.ValueTypeMapping;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The templates the exporter puts before it indexes: one component template with the record's own
 * fields and the indices' settings, and one composable index template per value type with the
 * mapping of {@code value} and the value type's alias.
 *
 * <p>The value mappings are derived from the protocol's value interfaces ({@code JobRecordValue}
 * for JOB, ...), the same interfaces a record's {@code toJson()} writes its value through (Jackson
 * names a property after its getter), so every property a document has is mapped: the mappings are
 * strict, as Zeebe's are, and a document with a property they do not know is refused rather than
 * widening the mapping. Strings are keywords (long ones are kept in the source but not indexed),
 * messages and reasons are text, variables and headers are stored but not indexed (as Zeebe: their
 * keys are the users'), byte arrays are binary.
 */
final class Templates {
  /** Strings longer than this are not indexed (Lucene refuses terms over 32 KiB). */
  private static final int KEYWORD_IGNORE_ABOVE = 8191;

  private final ObjectMapper json;
  private final IndexNames names;
  private final int shards;
  private final int replicas;

  Templates(ObjectMapper json, IndexNames names, int shards, int replicas) {
    this.json = json;
    this.names = names;
    this.shards = shards;
    this.replicas = replicas;
  }

  /** The component template: the record's fields (every value type shares them) and settings. */
  ObjectNode componentTemplate() {
    ObjectNode body = json.createObjectNode();
    body.put("version", 1);
    ObjectNode template = body.putObject("template");
    template.set("settings", settings());
    ObjectNode mappings = template.putObject("mappings");
    mappings.put("dynamic", "strict");
    ObjectNode properties = mappings.putObject("properties");
    type(properties, "partitionId", "integer");
    type(properties, "position", "long");
    type(properties, "sourceRecordPosition", "long");
    type(properties, "key", "long");
    type(properties, "timestamp", "date");
    type(properties, "recordType", "keyword");
    type(properties, "valueType", "keyword");
    type(properties, "intent", "keyword");
    type(properties, "rejectionType", "keyword");
    type(properties, "rejectionReason", "text");
    type(properties, "brokerVersion", "keyword");
    type(properties, "recordVersion", "integer");
    type(properties, "operationReference", "long");
    // Not a field of the record: the exporter's per-value-type sequence (Zeebe 8.6 adds it too).
    type(properties, "sequence", "long");
    return body;
  }

  /** The index template of one value type, composed of {@link #componentTemplate()}. */
  ObjectNode indexTemplate(ValueType valueType, String brokerVersion) {
    ObjectNode body = json.createObjectNode();
    body.putArray("index_patterns").add(names.indexPattern(valueType, brokerVersion));
    body.putArray("composed_of").add(names.componentTemplate(brokerVersion));
    // Above the component's defaults and any catch-all template a user has (priority 0).
    body.put("priority", 20);
    body.put("version", 1);
    ObjectNode template = body.putObject("template");
    template.set("settings", settings());
    template.putObject("aliases").putObject(names.alias(valueType));
    ObjectNode value = template.putObject("mappings").putObject("properties").putObject("value");
    value.put("dynamic", "strict");
    value.set("properties", valueProperties(valueType));
    return body;
  }

  /** The mapping of {@code value} for a value type; empty if the protocol maps it to no class. */
  ObjectNode valueProperties(ValueType valueType) {
    Optional<Class<?>> valueClass = valueClass(valueType);
    if (valueClass.isEmpty()) {
      return json.createObjectNode();
    }
    return objectProperties(json.constructType(valueClass.get()), new ArrayDeque<>());
  }

  private static Optional<Class<?>> valueClass(ValueType valueType) {
    if (!ValueTypeMapping.getAcceptedValueTypes().contains(valueType)) {
      return Optional.empty();
    }
    return Optional.of(ValueTypeMapping.get(valueType).getValueClass());
  }

  private ObjectNode settings() {
    ObjectNode settings = json.createObjectNode();
    settings.put("number_of_shards", shards);
    settings.put("number_of_replicas", replicas);
    // Exported records are written once and read by few queries: the cache only costs memory.
    settings.put("index.queries.cache.enabled", false);
    return settings;
  }

  private ObjectNode objectProperties(JavaType type, Deque<Class<?>> path) {
    ObjectNode properties = json.createObjectNode();
    if (path.contains(type.getRawClass())) {
      return properties; // no value type nests itself; stop rather than loop if one ever does
    }
    path.push(type.getRawClass());
    BeanDescription description = json.getSerializationConfig().introspect(type);
    for (BeanPropertyDefinition property : description.findProperties()) {
      if (property.couldSerialize()) {
        properties.set(
            property.getName(), mapping(property.getName(), property.getPrimaryType(), path));
      }
    }
    path.pop();
    return properties;
  }

  private ObjectNode mapping(String name, JavaType type, Deque<Class<?>> path) {
    Class<?> raw = type.getRawClass();
    ObjectNode field = json.createObjectNode();
    if (raw == long.class || raw == Long.class) {
      field.put("type", "long");
    } else if (raw == int.class || raw == Integer.class || raw == short.class) {
      field.put("type", "integer");
    } else if (raw == boolean.class || raw == Boolean.class) {
      field.put("type", "boolean");
    } else if (raw == double.class || raw == Double.class || raw == float.class) {
      field.put("type", "double");
    } else if (raw == byte[].class) {
      field.put("type", "binary");
    } else if (raw == String.class || raw.isEnum()) {
      if (raw == String.class && (name.endsWith("Message") || name.endsWith("Reason"))) {
        field.put("type", "text");
      } else {
        field.put("type", "keyword");
        field.put("ignore_above", KEYWORD_IGNORE_ABOVE);
      }
    } else if (type.isContainerType() && !type.isMapLikeType()) {
      // A list is its elements in a mapping.
      return mapping(name, type.getContentType(), path);
    } else if (type.isMapLikeType() || raw == Object.class || raw.getName().startsWith("java.")) {
      // Variables, headers, free-form documents: kept in the source, not indexed.
      field.put("type", "object");
      field.put("enabled", false);
    } else {
      field.set("properties", objectProperties(type, path));
    }
    return field;
  }

  private static void type(ObjectNode properties, String name, String type) {
    ObjectNode field = properties.putObject(name);
    field.put("type", type);
    if (type.equals("keyword")) {
      field.put("ignore_above", KEYWORD_IGNORE_ABOVE);
    }
  }
}
