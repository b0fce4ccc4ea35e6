package io.tern.engine.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tern.engine.cluster.BrokerJobStreams;
import io.tern.engine.gateway.GatewayJobStreams;
import java.io.IOException;
import java.util.Map;

/**
 * {@code GET /actuator/jobstreams}: the job types whose workers hold a stream open, and the
 * ActivateJobs requests waiting for jobs, by job type. When a worker gets no jobs, this says
 * whether its stream or request reached the gateway (and, for a standalone gateway, the broker).
 */
final class JobStreamsEndpoint {
  private JobStreamsEndpoint() {}

  /**
   * @param gateway this process's gateway streams, or null without a gateway
   * @param broker the streams gateways elsewhere opened on this broker, or null on a gateway
   */
  static ManagementApi.Answer answer(GatewayJobStreams gateway, BrokerJobStreams broker) {
    return ManagementApi.Answer.json(
        200,
        ManagementApi.object(
            json -> {
              if (gateway != null) {
                json.writeObjectFieldStart("gateway");
                counts(json, "streams", gateway.openStreams());
                counts(json, "parkedRequests", gateway.parkedRequests());
                json.writeEndObject();
              }
              if (broker != null) {
                counts(json, "remoteStreams", broker.remoteStreams());
              }
            }));
  }

  private static void counts(JsonGenerator json, String name, Map<String, Integer> byType)
      throws IOException {
    json.writeObjectFieldStart(name);
    for (Map.Entry<String, Integer> type : byType.entrySet()) {
      json.writeNumberField(type.getKey(), type.getValue());
    }
    json.writeEndObject();
  }
}
