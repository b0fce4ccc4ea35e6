package io.tern.engine.exporter;

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
 * An exporter's {@code Configuration}: its id and {@code args}. {@link #instantiate} maps the args
 * onto the exporter's own configuration class as Zeebe does, with Jackson: property names, enum
 * constants and values in any case, unknown properties ignored, and fields filled directly, private
 * ones too, so that a class with fields and getters only works. A {@code Duration} reads ISO-8601
 * text ({@code PT30S}) or a number of seconds.
 */
final class ExporterConfiguration implements Configuration {
  private final String id;
  private final Map<String, Object> arguments;

  /** One per exporter: Jackson caches what it learns of a class, which holds the class loader. */
  private final ObjectMapper mapper;

  ExporterConfiguration(String id, Map<String, Object> arguments) {
    this.id = id;
    this.arguments = arguments;
    this.mapper =
        JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_VALUES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .addModule(
                new SimpleModule("tern-exporter-args")
                    .addDeserializer(Duration.class, new DurationArgument()))
            .build();
  }

  @Override
  public String getId() {
    return id;
  }

  @Override
  public Map<String, Object> getArguments() {
    return arguments;
  }

  /**
   * The args as an instance of {@code type}, built with its no-arg constructor (private ones too);
   * no args: that instance as constructed.
   *
   * @throws IllegalArgumentException when an arg does not fit its property, naming both
   */
  @Override
  public <T> T instantiate(Class<T> type) {
    return mapper.convertValue(arguments, type);
  }

  /** A {@code Duration} from ISO-8601 text or a number of seconds (fractions allowed). */
  private static final class DurationArgument extends StdScalarDeserializer<Duration> {
    private static final long serialVersionUID = 1L;

    DurationArgument() {
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
      String text = parser.getValueAsString();
      try {
        return Duration.parse(text.strip());
      } catch (RuntimeException e) {
        return (Duration)
            context.handleWeirdStringValue(
                Duration.class, text, "not an ISO-8601 duration such as PT30S");
      }
    }
  }
}
