package io.tern.exporter.opensearch;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.ValueTypeMapping;
import io.camunda.zeebe.protocol.record.value.JobRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.VariableRecordValue;
import java.io.IOException;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;

/**
 * Writes a record's document straight into the bulk request's generator: the fields of the record's
 * JSON ({@code Record.toJson()}, Zeebe's property names: the record's fields, and its value as the
 * properties of its value type's protocol interface) as Zeebe 8.6's Elasticsearch exporter indexes
 * them, that is without {@code authorizations} (Zeebe leaves them out of its documents) and with
 * {@code sequence}, the exporter's counter of the record's value type on its partition ({@link
 * RecordCounters}).
 *
 * <p>Why not {@code toJson()}: it writes the record into a string that the exporter would have to
 * parse again to drop the authorizations and add the sequence, and that round trip was a third of
 * the exporter thread's time. Here nothing is written twice and no tree is built.
 *
 * <p>The values of the three types that make most of a log (process instance, job, variable: about
 * 20 of a simple instance's 22 documents) are written field by field; every other value by Jackson
 * through its protocol interface, configured as the engine's {@code RecordJson} that answers {@code
 * toJson()}. {@code DocumentsTest} holds both to what the round trip wrote: the same fields, names
 * and values, for every value type.
 */
final class Documents {
  /** As the engine's {@code RecordJson}: values through their protocol interface. */
  private static final JsonMapper VALUES =
      JsonMapper.builder()
          .enable(MapperFeature.USE_STATIC_TYPING)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          // The bulk buffer flushes its generator once a document is complete.
          .disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE)
          .build();

  private final Map<ValueType, ObjectWriter> writers = new EnumMap<>(ValueType.class);

  Documents() {
    for (ValueType valueType : ValueTypeMapping.getAcceptedValueTypes()) {
      writers.put(valueType, VALUES.writerFor(ValueTypeMapping.get(valueType).getValueClass()));
    }
  }

  /** Writes the record's document, one JSON object, to {@code out}. */
  void write(Record<?> record, long sequence, JsonGenerator out) throws IOException {
    out.writeStartObject();
    out.writeNumberField("partitionId", record.getPartitionId());
    out.writeFieldName("value");
    writeValue(record.getValueType(), record.getValue(), out);
    out.writeNumberField("key", record.getKey());
    out.writeNumberField("position", record.getPosition());
    out.writeNumberField("sourceRecordPosition", record.getSourceRecordPosition());
    out.writeNumberField("timestamp", record.getTimestamp());
    out.writeStringField("recordType", name(record.getRecordType()));
    out.writeStringField("valueType", name(record.getValueType()));
    out.writeStringField("intent", record.getIntent() == null ? null : record.getIntent().name());
    out.writeStringField("rejectionType", name(record.getRejectionType()));
    out.writeStringField("rejectionReason", record.getRejectionReason());
    out.writeStringField("brokerVersion", record.getBrokerVersion());
    out.writeNumberField("recordVersion", record.getRecordVersion());
    out.writeNumberField("operationReference", record.getOperationReference());
    out.writeNumberField("sequence", sequence);
    out.writeEndObject();
  }

  private void writeValue(ValueType valueType, RecordValue value, JsonGenerator out)
      throws IOException {
    if (value == null) {
      out.writeNull();
    } else if (valueType == ValueType.PROCESS_INSTANCE
        && value instanceof ProcessInstanceRecordValue processInstance) {
      processInstance(processInstance, out);
    } else if (valueType == ValueType.JOB && value instanceof JobRecordValue job) {
      job(job, out);
    } else if (valueType == ValueType.VARIABLE && value instanceof VariableRecordValue variable) {
      variable(variable, out);
    } else {
      ObjectWriter writer = valueType == null ? null : writers.get(valueType);
      if (writer == null) {
        // A value type the protocol maps to no value interface: its class's properties.
        VALUES.writeValue(out, value);
      } else {
        writer.writeValue(out, value);
      }
    }
  }

  private static void processInstance(ProcessInstanceRecordValue value, JsonGenerator out)
      throws IOException {
    out.writeStartObject();
    out.writeStringField("bpmnProcessId", value.getBpmnProcessId());
    out.writeNumberField("version", value.getVersion());
    out.writeNumberField("processDefinitionKey", value.getProcessDefinitionKey());
    out.writeNumberField("processInstanceKey", value.getProcessInstanceKey());
    out.writeStringField("elementId", value.getElementId());
    out.writeNumberField("flowScopeKey", value.getFlowScopeKey());
    out.writeStringField("bpmnElementType", name(value.getBpmnElementType()));
    out.writeNumberField("parentProcessInstanceKey", value.getParentProcessInstanceKey());
    out.writeNumberField("parentElementInstanceKey", value.getParentElementInstanceKey());
    out.writeStringField("bpmnEventType", name(value.getBpmnEventType()));
    out.writeStringField("tenantId", value.getTenantId());
    out.writeEndObject();
  }

  private static void job(JobRecordValue value, JsonGenerator out) throws IOException {
    out.writeStartObject();
    out.writeStringField("type", value.getType());
    out.writeFieldName("customHeaders");
    stringMap(value.getCustomHeaders(), out);
    out.writeStringField("worker", value.getWorker());
    out.writeNumberField("retries", value.getRetries());
    out.writeNumberField("retryBackoff", value.getRetryBackoff());
    out.writeNumberField("recurringTime", value.getRecurringTime());
    out.writeNumberField("deadline", value.getDeadline());
    out.writeNumberField("timeout", value.getTimeout());
    out.writeStringField("errorMessage", value.getErrorMessage());
    out.writeStringField("errorCode", value.getErrorCode());
    out.writeStringField("elementId", value.getElementId());
    out.writeNumberField("elementInstanceKey", value.getElementInstanceKey());
    out.writeStringField("bpmnProcessId", value.getBpmnProcessId());
    out.writeNumberField("processDefinitionVersion", value.getProcessDefinitionVersion());
    out.writeNumberField("processDefinitionKey", value.getProcessDefinitionKey());
    out.writeStringField("jobKind", name(value.getJobKind()));
    out.writeStringField("jobListenerEventType", name(value.getJobListenerEventType()));
    out.writeFieldName("changedAttributes");
    strings(value.getChangedAttributes(), out);
    out.writeFieldName("variables");
    variables(value.getVariables(), out);
    out.writeNumberField("processInstanceKey", value.getProcessInstanceKey());
    out.writeStringField("tenantId", value.getTenantId());
    out.writeEndObject();
  }

  private static void variable(VariableRecordValue value, JsonGenerator out) throws IOException {
    out.writeStartObject();
    out.writeStringField("name", value.getName());
    out.writeStringField("value", value.getValue());
    out.writeNumberField("scopeKey", value.getScopeKey());
    out.writeNumberField("processInstanceKey", value.getProcessInstanceKey());
    out.writeNumberField("processDefinitionKey", value.getProcessDefinitionKey());
    out.writeStringField("bpmnProcessId", value.getBpmnProcessId());
    out.writeStringField("tenantId", value.getTenantId());
    out.writeEndObject();
  }

  private static void stringMap(Map<String, String> map, JsonGenerator out) throws IOException {
    if (map == null) {
      out.writeNull();
      return;
    }
    out.writeStartObject();
    for (Map.Entry<String, String> entry : map.entrySet()) {
      out.writeStringField(entry.getKey(), entry.getValue());
    }
    out.writeEndObject();
  }

  private static void strings(Collection<String> strings, JsonGenerator out) throws IOException {
    if (strings == null) {
      out.writeNull();
      return;
    }
    out.writeStartArray();
    for (String string : strings) {
      out.writeString(string);
    }
    out.writeEndArray();
  }

  /** Any JSON values (maps, lists, strings, numbers, booleans): as Jackson writes them. */
  private static void variables(Map<String, Object> variables, JsonGenerator out)
      throws IOException {
    if (variables == null || variables.isEmpty()) {
      if (variables == null) {
        out.writeNull();
      } else {
        out.writeStartObject();
        out.writeEndObject();
      }
      return;
    }
    VALUES.writeValue(out, variables);
  }

  private static String name(Enum<?> constant) {
    return constant == null ? null : constant.name();
  }
}
