package io.tern.exporter.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.ValueTypeMapping;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplatesTest {
  private final ObjectMapper json = new ObjectMapper();
  private final Templates templates =
      new Templates(json, new IndexNames("zeebe-record", "yyyy-MM-dd"), 3, 0);

  @Test
  void theIndexTemplateMatchesTheValueTypesIndicesAndCarriesItsAlias() {
    ObjectNode template = templates.indexTemplate(ValueType.JOB, "8.6.0");

    assertThat(template.at("/index_patterns/0").asText()).isEqualTo("zeebe-record_job_8.6.0_*");
    assertThat(template.at("/composed_of/0").asText()).isEqualTo("zeebe-record-8.6.0");
    assertThat(template.at("/template/aliases").has("zeebe-record-job")).isTrue();
    assertThat(template.at("/template/settings/number_of_shards").asInt()).isEqualTo(3);
    assertThat(template.at("/template/settings/number_of_replicas").asInt()).isZero();
    assertThat(template.at("/template/mappings/properties/value/dynamic").asText())
        .isEqualTo("strict");
  }

  @Test
  void valueMappingsFollowTheProtocolsInterfaces() {
    JsonNode job = templates.valueProperties(ValueType.JOB);
    assertThat(job.at("/type/type").asText()).isEqualTo("keyword");
    assertThat(job.at("/retries/type").asText()).isEqualTo("integer");
    assertThat(job.at("/deadline/type").asText()).isEqualTo("long");
    assertThat(job.at("/errorMessage/type").asText()).isEqualTo("text");
    assertThat(job.at("/customHeaders/enabled").asBoolean(true)).isFalse();
    assertThat(job.at("/variables/enabled").asBoolean(true)).isFalse();
    assertThat(job.at("/jobKind/type").asText()).isEqualTo("keyword");
    assertThat(job.at("/changedAttributes/type").asText()).isEqualTo("keyword");
    assertThat(job.at("/tenantId/type").asText()).isEqualTo("keyword");

    JsonNode deployment = templates.valueProperties(ValueType.DEPLOYMENT);
    assertThat(deployment.at("/resources/properties/resource/type").asText()).isEqualTo("binary");
    assertThat(deployment.at("/processesMetadata/properties/version/type").asText())
        .isEqualTo("integer");
    assertThat(deployment.at("/processesMetadata/properties/duplicate/type").asText())
        .isEqualTo("boolean");

    JsonNode incident = templates.valueProperties(ValueType.INCIDENT);
    assertThat(incident.at("/elementInstancePath/type").asText()).isEqualTo("long");
    assertThat(incident.at("/errorType/type").asText()).isEqualTo("keyword");

    JsonNode processInstance = templates.valueProperties(ValueType.PROCESS_INSTANCE);
    assertThat(processInstance.at("/bpmnElementType/type").asText()).isEqualTo("keyword");
  }

  @Test
  void everyValueTypeOfTheProtocolHasAMapping() {
    for (ValueType valueType : ValueTypeMapping.getAcceptedValueTypes()) {
      JsonNode properties = templates.valueProperties(valueType);
      assertThat(properties.size()).as("%s", valueType).isPositive();
      assertEveryLeafHasAType(valueType + ".value", properties);
    }
  }

  @Test
  void theComponentTemplateMapsTheRecordsFields() {
    JsonNode mappings = templates.componentTemplate().at("/template/mappings");
    assertThat(mappings.get("dynamic").asText()).isEqualTo("strict");
    assertThat(mappings.at("/properties/timestamp/type").asText()).isEqualTo("date");
    assertThat(mappings.at("/properties/sequence/type").asText()).isEqualTo("long");
    assertThat(mappings.at("/properties/partitionId/type").asText()).isEqualTo("integer");
  }

  private static void assertEveryLeafHasAType(String path, JsonNode properties) {
    Iterator<Map.Entry<String, JsonNode>> fields = properties.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      JsonNode mapping = field.getValue();
      if (mapping.has("properties")) {
        assertEveryLeafHasAType(path + "." + field.getKey(), mapping.get("properties"));
      } else {
        assertThat(mapping.has("type")).as(path + "." + field.getKey()).isTrue();
      }
    }
  }
}
