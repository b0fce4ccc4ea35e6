package io.tern.exporter.opensearch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.camunda.zeebe.protocol.record.Record;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The documents waiting to be sent, already as the body of a {@code _bulk} request (NDJSON: an
 * {@code index} action line, then the document's line), so a retried flush sends the same bytes
 * without serializing anything again.
 *
 * <p>One generator writes every line straight into one byte buffer that lives as long as the
 * exporter: a record costs no intermediate string, tree or array, and the request is sent from that
 * buffer ({@link #bytes()}), not from a copy. A record whose document cannot be written leaves
 * nothing behind: the buffer is cut back to where that record began.
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
  private final Documents documents;
  private final Body body = new Body(64 * 1024);
  private JsonGenerator out;
  private int count;
  private String lastId;

  BulkBuffer(JsonFactory factory, Documents documents) {
    this.factory = factory;
    this.documents = documents;
    out = newGenerator();
  }

  /**
   * Buffers the record's document to be indexed into {@code index} with this id and routing.
   * Returns false, buffering nothing, if {@code id} is the id buffered last (the same record handed
   * over again).
   */
  boolean add(String index, String id, String routing, Record<?> record, long sequence) {
    if (id.equals(lastId)) {
      return false;
    }
    int start = body.size();
    try {
      out.writeStartObject();
      out.writeObjectFieldStart("index");
      out.writeStringField("_index", index);
      out.writeStringField("_id", id);
      out.writeStringField("routing", routing);
      out.writeEndObject();
      out.writeEndObject();
      out.writeRaw('\n');
      documents.write(record, sequence, out);
      out.writeRaw('\n');
      out.flush();
    } catch (IOException | RuntimeException e) {
      // Half a document must not be sent: drop what the generator holds and what reached the
      // buffer, and start the next record with a new generator (this one's state is mid-object).
      out = newGenerator();
      body.cutTo(start);
      if (e instanceof IOException io) {
        throw new UncheckedIOException(
            "record " + record.getPosition() + ": cannot write its document", io);
      }
      throw (RuntimeException) e;
    }
    count++;
    lastId = id;
    return true;
  }

  /** The number of documents buffered. */
  int size() {
    return count;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** The bytes of the request body, action lines included. */
  int memoryUsage() {
    return body.size();
  }

  /**
   * The request body: the buffer's own array, valid up to {@link #memoryUsage()} bytes and until
   * the next {@link #add} or {@link #clear()} (the request is sent before either).
   */
  byte[] bytes() {
    return body.array();
  }

  /** Drops every document: they were all indexed. The last id is kept (see the class). */
  void clear() {
    body.reset();
    count = 0;
  }

  private JsonGenerator newGenerator() {
    try {
      JsonGenerator generator = factory.createGenerator(body);
      // NDJSON: the lines are separated by the newlines written after each, not by a space.
      generator.setRootValueSeparator(null);
      return generator;
    } catch (IOException e) {
      throw new UncheckedIOException(e); // writing to memory
    }
  }

  /** A byte buffer whose array is lent to the request, and that can be cut back. */
  private static final class Body extends ByteArrayOutputStream {
    Body(int size) {
      super(size);
    }

    byte[] array() {
      return buf;
    }

    void cutTo(int size) {
      count = size;
    }
  }
}
