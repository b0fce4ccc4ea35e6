package io.tern.engine.workflow.variables;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.Collection;
import java.util.Map;

/**
 * Java values (what FEEL evaluates to) as JSON text, as Zeebe stores them: contexts as objects,
 * lists as arrays, whole numbers without a fraction, dates, times and durations as their ISO 8601
 * text.
 */
public final class JsonValues {
  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  private JsonValues() {}

  public static byte[] fromJava(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    try (JsonGenerator json = FACTORY.createGenerator(out)) {
      write(json, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // writing to memory
    }
    return out.toByteArray();
  }

  private static void write(JsonGenerator json, Object value) throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof Boolean bool) {
      json.writeBoolean(bool);
    } else if (value instanceof String text) {
      json.writeString(text);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      json.writeNumber(((Number) value).longValue());
    } else if (value instanceof BigInteger integer) {
      json.writeNumber(integer);
    } else if (value instanceof Number number) {
      writeNumber(json, new BigDecimal(number.toString()));
    } else if (value instanceof Map<?, ?> map) {
      json.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        json.writeFieldName(String.valueOf(entry.getKey()));
        write(json, entry.getValue());
      }
      json.writeEndObject();
    } else if (value instanceof Collection<?> list) {
      json.writeStartArray();
      for (Object item : list) {
        write(json, item);
      }
      json.writeEndArray();
    } else if (value instanceof TemporalAccessor || value instanceof TemporalAmount) {
      json.writeString(value.toString());
    } else {
      json.writeString(String.valueOf(value));
    }
  }

  private static void writeNumber(JsonGenerator json, BigDecimal number) throws IOException {
    BigDecimal stripped = number.stripTrailingZeros();
    if (stripped.scale() <= 0) {
      json.writeNumber(stripped.toBigIntegerExact());
    } else {
      json.writeNumber(stripped);
    }
  }
}
