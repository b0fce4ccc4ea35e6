package io.tern.engine.broker;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Calls to a local broker's management API from tests, as JSON. */
final class ManagementCalls {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private ManagementCalls() {}

  /**
   * {@code method path} on the management port {@code port}, with {@code body} (null: none) and
   * {@code authorization} (null: no header).
   */
  static HttpResponse<String> send(
      int port, String method, String path, String body, String authorization, Duration timeout)
      throws java.io.IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json")
            .timeout(timeout);
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
