package io.tern.exporter.opensearch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.camunda.zeebe.protocol.record.Record;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A record's document: the record's JSON ({@code Record.toJson()}, Zeebe's property names) as Zeebe
 * 8.6's Elasticsearch exporter indexes it, that is without {@code authorizations} (Zeebe leaves
 * them out of its documents) and with {@code sequence}, the exporter's counter of the record's
 * value type on its partition ({@link RecordCounters}).
 *
 * <p>The JSON is copied token by token (no tree): one pass, and numbers keep their text.
 */
final class Documents {
  private static final String AUTHORIZATIONS = "authorizations";
  private static final String SEQUENCE = "sequence";

  private final JsonFactory factory;

  Documents(JsonFactory factory) {
    this.factory = factory;
  }

  /** The document's bytes (UTF-8 JSON on one line). */
  byte[] document(Record<?> record, long sequence) {
    String source = record.toJson();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(source.length() + 32);
    try (JsonParser in = factory.createParser(source);
        JsonGenerator out = factory.createGenerator(bytes)) {
      if (in.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalStateException(
            "record " + record.getPosition() + ": toJson() is not a JSON object");
      }
      out.writeStartObject();
      while (in.nextToken() == JsonToken.FIELD_NAME) {
        String name = in.currentName();
        in.nextToken();
        if (name.equals(AUTHORIZATIONS) || name.equals(SEQUENCE)) {
          in.skipChildren();
          continue;
        }
        out.writeFieldName(name);
        out.copyCurrentStructure(in);
      }
      out.writeNumberField(SEQUENCE, sequence);
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "record " + record.getPosition() + ": cannot read its toJson()", e);
    }
    return bytes.toByteArray();
  }
}
