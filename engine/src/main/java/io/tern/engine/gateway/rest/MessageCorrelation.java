package io.tern.engine.gateway.rest;

import io.grpc.stub.StreamObserver;

/**
 * CorrelateMessage, which the gateway serves on the REST API only (Zeebe's gRPC API has no such
 * call): publish a message and answer with the process instance it correlated with. Answered as the
 * gRPC handlers are, through a {@link StreamObserver}: one response, or a gRPC error.
 */
public interface MessageCorrelation {
  /** What to correlate; {@code variables} is a JSON object, or empty for none. */
  record Request(String name, String correlationKey, String variables) {}

  /** The message's key, its tenant and the process instance that took it. */
  record Correlated(long messageKey, String tenantId, long processInstanceKey) {}

  void correlateMessage(Request request, StreamObserver<Correlated> observer);
}
