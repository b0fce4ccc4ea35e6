package io.tern.exporter.opensearch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The documents waiting to be sent, already as the body of a {@code _bulk} request (NDJSON: an
 * {@code index} action line, then the document's line), so a retried flush sends the same bytes
 * without serializing anything again.
 *
 * <p>Nothing leaves the buffer but by {@link #clear()}, which the exporter calls only after the
 * node has accepted every document of a flush: a failed flush keeps them all for the next try.
 * {@link #add} ignores the document it was given last ({@code lastId}), which is what the exporter
 * director's retry of a failed {@code export} hands over again. It remembers that id across {@link
 * #clear()}: a timed flush may send the buffer between a failed {@code export} and its retry, and
 * the retried record must not be indexed (and counted) a second time.
 */
final class BulkBuffer {
  private final JsonFactory factory;
  private final ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
  private int documents;
  private String lastId;

  BulkBuffer(JsonFactory factory) {
    this.factory = factory;
  }

  /**
   * Buffers a document to be indexed into {@code index} with this id and routing. Returns false,
   * buffering nothing, if {@code id} is the id buffered last (the same record handed over again).
   */
  boolean add(String index, String id, String routing, byte[] document) {
    if (id.equals(lastId)) {
      return false;
    }
    try (JsonGenerator action = factory.createGenerator(body)) {
      action.writeStartObject();
      action.writeObjectFieldStart("index");
      action.writeStringField("_index", index);
      action.writeStringField("_id", id);
      action.writeStringField("routing", routing);
      action.writeEndObject();
      action.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // writing to memory
    }
    body.write('\n');
    body.writeBytes(document);
    body.write('\n');
    documents++;
    lastId = id;
    return true;
  }

  /** The number of documents buffered. */
  int size() {
    return documents;
  }

  boolean isEmpty() {
    return documents == 0;
  }

  /** The bytes of the request body, action lines included. */
  int memoryUsage() {
    return body.size();
  }

  /** The request body (a copy). */
  byte[] body() {
    return body.toByteArray();
  }

  /** Drops every document: they were all indexed. The last id is kept (see the class). */
  void clear() {
    body.reset();
    documents = 0;
  }
}
