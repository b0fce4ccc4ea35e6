package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.StreamActivatedJobsRequest;
import io.tern.engine.workflow.JobStreams;

/**
 * Opens a client's job stream on the brokers this gateway does not share a process with, so that
 * their partitions push jobs to it too.
 */
@FunctionalInterface
public interface JobStreamForwarder {
  /** Streams jobs from other brokers into {@code target} until the returned handle is closed. */
  Handle forward(StreamActivatedJobsRequest request, JobStreams.JobStream target);

  /** An open forwarding. */
  interface Handle {
    void close();
  }

  /** Every partition is in this process: nothing to forward. */
  JobStreamForwarder NONE = (request, target) -> () -> {};
}
