package io.tern.exporter.history;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.camunda.zeebe.exporter.api.context.Configuration;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * Args mapped onto the config class the way the broker's {@code Configuration.instantiate} does
 * (docs/exporters.md): fields set directly, names in any case, unknown args ignored, durations from
 * ISO-8601 text or seconds.
 */
final class TestConfiguration implements Configuration {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
          .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
          .addModule(new SimpleModule().addDeserializer(Duration.class, new DurationArg()))
          .build();

  private final String id;
  private final Map<String, Object> args;

  TestConfiguration(String id, Map<String, Object> args) {
    this.id = id;
    this.args = Map.copyOf(args);
  }

  @Override
  public String getId() {
    return id;
  }

  @Override
  public Map<String, Object> getArguments() {
    return args;
  }

  @Override
  public <T> T instantiate(Class<T> type) {
    return MAPPER.convertValue(args, type);
  }

  private static final class DurationArg extends StdScalarDeserializer<Duration> {
    private static final long serialVersionUID = 1L;

    DurationArg() {
      super(Duration.class);
    }

    @Override
    public Duration deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      if (parser.currentToken() == JsonToken.VALUE_NUMBER_INT
          || parser.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
        BigDecimal seconds = parser.getDecimalValue();
        return Duration.ofNanos(seconds.movePointRight(9).longValueExact());
      }
      return Duration.parse(parser.getValueAsString().strip());
    }
  }
}
