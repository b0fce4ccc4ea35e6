package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tern.engine.gateway.history.HistoryReader;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.CompletionException;

/**
 * RFC 9457 problem documents ({@code application/problem+json}), with the HTTP status and title
 * Camunda's REST API gives the same failure: a gRPC status of the shared request handlers becomes
 * its HTTP counterpart, its description the document's {@code detail}.
 */
final class Problems {
  static final String CONTENT_TYPE = "application/problem+json";

  private Problems() {}

  /** A request the REST layer refuses before it becomes a command: 400, naming what is wrong. */
  static final class InvalidRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidRequest(String detail) {
      super(detail, null, false, false);
    }
  }

  /** Nothing has the key a request names: 404. */
  static final class NotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFound(String detail) {
      super(detail, null, false, false);
    }
  }

  /**
   * The gateway has no history store to search: 403, as Camunda answers a request its secondary
   * storage cannot serve (a deployment's fault, not the request's).
   */
  static final class NoHistoryStore extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoHistoryStore(String detail) {
      super(detail, null, false, false);
    }
  }

  /** One problem: its HTTP status, its title (Camunda's: the rejection or gRPC code) and detail. */
  record Problem(int status, String title, String detail) {}

  /** The problem of a failed request: an invalid request, a gRPC status, or anything else (500). */
  static Problem of(Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof InvalidRequest invalid) {
      return new Problem(400, "INVALID_ARGUMENT", invalid.getMessage());
    }
    if (cause instanceof NotFound notFound) {
      return new Problem(404, "NOT_FOUND", notFound.getMessage());
    }
    if (cause instanceof NoHistoryStore none) {
      return new Problem(403, "FORBIDDEN", none.getMessage());
    }
    if (cause instanceof HistoryReader.HistoryTimeoutException timeout) {
      return new Problem(504, "DEADLINE_EXCEEDED", timeout.getMessage());
    }
    if (cause instanceof HistoryReader.HistoryUnavailableException unavailable) {
      return new Problem(503, "UNAVAILABLE", unavailable.getMessage());
    }
    if (cause instanceof StatusRuntimeException status) {
      return of(status.getStatus());
    }
    return new Problem(500, "INTERNAL", "the request failed: " + cause);
  }

  static Problem of(Status status) {
    String detail =
        status.getDescription() == null ? status.getCode().name() : status.getDescription();
    return switch (status.getCode()) {
      case INVALID_ARGUMENT, OUT_OF_RANGE -> new Problem(400, "INVALID_ARGUMENT", detail);
      case UNAUTHENTICATED -> new Problem(401, "UNAUTHENTICATED", detail);
      case PERMISSION_DENIED -> new Problem(403, "FORBIDDEN", detail);
      case NOT_FOUND -> new Problem(404, "NOT_FOUND", detail);
      case ALREADY_EXISTS -> new Problem(409, "ALREADY_EXISTS", detail);
      // The gateway's INVALID_STATE rejections (a job already completed, an instance done).
      case FAILED_PRECONDITION -> new Problem(409, "INVALID_STATE", detail);
      // Written or not is unknown: a conflict to check, never retried blindly (gRPC's ABORTED).
      case ABORTED -> new Problem(409, "ABORTED", detail);
      case RESOURCE_EXHAUSTED -> new Problem(429, "RESOURCE_EXHAUSTED", detail);
      case UNIMPLEMENTED -> new Problem(501, "NOT_IMPLEMENTED", detail);
      case UNAVAILABLE -> new Problem(503, "UNAVAILABLE", detail);
      case DEADLINE_EXCEEDED -> new Problem(504, "DEADLINE_EXCEEDED", detail);
      default -> new Problem(500, status.getCode().name(), detail);
    };
  }

  /** Answers {@code context} with {@code problem}, unless it was answered already. */
  static void send(RoutingContext context, Problem problem) {
    if (context.response().ended() || context.response().closed()) {
      return;
    }
    ObjectNode document = Json.MAPPER.createObjectNode();
    document.put("type", "about:blank");
    document.put("title", problem.title());
    document.put("status", problem.status());
    document.put("detail", problem.detail());
    document.put("instance", context.request().path());
    context
        .response()
        .setStatusCode(problem.status())
        .putHeader("content-type", CONTENT_TYPE)
        .end(document.toString());
  }
}
