package io.tern.exporter.opensearch;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The REST calls the exporter makes, over the JDK's HTTP client: {@code PUT _component_template},
 * {@code PUT _index_template} and {@code POST _bulk}. OpenSearch 1-2 and Elasticsearch 7.8+ and 8
 * answer them alike.
 *
 * <p>With several URLs, a request goes to the first that can be reached (a refused or timed-out
 * connection moves on to the next, any answer counts); the last one that answered is tried first
 * next time. Every failure is an {@link ExportException} whose message names the URL and the
 * status, never the credentials.
 */
final class SearchClient implements AutoCloseable {
  /** Item errors quoted in a failure's message; the rest are counted. */
  private static final int ERRORS_QUOTED = 3;

  private final List<URI> urls;
  private final Duration timeout;
  private final Optional<String> authorization;
  private final ObjectMapper json;
  private final HttpClient http;
  private int current;

  SearchClient(
      List<URI> urls,
      Duration timeout,
      Optional<String> username,
      Optional<String> password,
      ObjectMapper json) {
    this.urls = List.copyOf(urls);
    this.timeout = timeout;
    this.json = json;
    this.authorization =
        username.map(
            user ->
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString(
                            (user + ":" + password.orElse("")).getBytes(StandardCharsets.UTF_8)));
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            // OpenSearch and Elasticsearch speak HTTP/1.1; asking for h2c costs an upgrade.
            .version(HttpClient.Version.HTTP_1_1)
            .build();
  }

  /** Creates or replaces a component template. */
  void putComponentTemplate(String name, JsonNode body) {
    byte[] bytes = bytes(body);
    parse(
        send(
            "PUT",
            "_component_template/" + name,
            "application/json",
            bytes,
            bytes.length,
            "template"),
        "template");
  }

  /** Creates or replaces a composable index template. */
  void putIndexTemplate(String name, JsonNode body) {
    byte[] bytes = bytes(body);
    parse(
        send("PUT", "_index_template/" + name, "application/json", bytes, bytes.length, "template"),
        "template");
  }

  /**
   * Sends a bulk request, the first {@code length} bytes of {@code body}; returns normally only if
   * the node indexed every document. Any item that failed fails the whole call (the caller keeps
   * all the documents and sends them again: those already indexed are indexed again under the same
   * ids).
   */
  void bulk(byte[] body, int length, int documents) {
    Answer answer = send("POST", "_bulk", "application/x-ndjson", body, length, "bulk");
    if (!hasErrors(answer)) {
      return;
    }
    StringBuilder quoted = new StringBuilder();
    int failed = 0;
    for (JsonNode item : parse(answer, "bulk").path("items")) {
      JsonNode result = item.elements().hasNext() ? item.elements().next() : item;
      JsonNode error = result.path("error");
      if (!error.isMissingNode() && !error.isNull()) {
        if (failed < ERRORS_QUOTED) {
          quoted
              .append("; ")
              .append(result.path("_id").asText())
              .append(" in ")
              .append(result.path("_index").asText())
              .append(": ")
              .append(error.path("type").asText())
              .append(" ")
              .append(error.path("reason").asText());
        }
        failed++;
      }
    }
    throw new ExportException(
        "bulk: " + failed + " of " + documents + " documents were not indexed" + quoted);
  }

  /**
   * The answer's top-level {@code errors}, read without building the answer's tree: a node answers
   * a bulk with an item per document (a thousand objects for a full buffer), and the items matter
   * only when something failed. OpenSearch and Elasticsearch write {@code errors} before {@code
   * items}, so the rest is not even read.
   */
  private boolean hasErrors(Answer answer) {
    try (JsonParser parser = json.getFactory().createParser(answer.body())) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new ExportException(answer.describe() + ": not a JSON object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("errors")) {
          return value == JsonToken.VALUE_TRUE;
        }
        parser.skipChildren();
      }
      return false;
    } catch (IOException e) {
      throw new ExportException(answer.describe() + ": not JSON: " + e, e);
    }
  }

  private JsonNode parse(Answer answer, String what) {
    try {
      return json.readTree(answer.body());
    } catch (IOException e) {
      throw new ExportException(answer.describe() + ": not JSON: " + e, e);
    }
  }

  /** A node's 2xx answer to a request. */
  private record Answer(String what, String method, URI uri, byte[] body) {
    String describe() {
      return what + " " + method + " " + uri;
    }
  }

  private Answer send(
      String method, String path, String contentType, byte[] body, int length, String what) {
    IOException unreachable = null;
    for (int tried = 0; tried < urls.size(); tried++) {
      int index = (current + tried) % urls.size();
      URI uri = urls.get(index).resolve(path);
      HttpRequest.Builder request =
          HttpRequest.newBuilder(uri)
              .timeout(timeout)
              .header("Content-Type", contentType)
              .header("Accept", "application/json")
              // The body as it is: the publisher reads the caller's array, which stays unchanged
              // until this call returns.
              .method(method, HttpRequest.BodyPublishers.ofByteArray(body, 0, length));
      authorization.ifPresent(value -> request.header("Authorization", value));
      HttpResponse<byte[]> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (ConnectException | HttpConnectTimeoutException e) {
        unreachable = e;
        continue; // this node cannot be reached: the next one may
      } catch (IOException e) {
        throw new ExportException(what + " " + method + " " + uri + " failed: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ExportException(what + " " + method + " " + uri + " interrupted", e);
      }
      current = index;
      int status = response.statusCode();
      if (status < 200 || status > 299) {
        throw new ExportException(
            what
                + " "
                + method
                + " "
                + uri
                + " answered "
                + status
                + ": "
                + abbreviate(new String(response.body(), StandardCharsets.UTF_8)));
      }
      return new Answer(what, method, uri, response.body());
    }
    throw new ExportException(
        what + ": no node could be reached (" + urls + "): " + unreachable, unreachable);
  }

  private byte[] bytes(JsonNode body) {
    try {
      return json.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 500 ? text : text.substring(0, 500) + "...";
  }

  @Override
  public void close() {
    // java.net.http.HttpClient is AutoCloseable from JDK 21 only; on 17 its threads end when
    // it is no longer referenced. Call close where there is one.
    if (http instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        // closing: nothing to do about it
      }
    }
  }

  /** A request that failed: the exporter's call throws it, and the director tries again. */
  static final class ExportException extends RuntimeException {
    ExportException(String message) {
      super(message);
    }

    ExportException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
