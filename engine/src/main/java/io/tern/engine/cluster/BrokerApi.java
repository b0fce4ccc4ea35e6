package io.tern.engine.cluster;

import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The broker's command API (on {@code network.commandPort}): how gateways and other brokers reach
 * the partitions a broker leads. It runs over gRPC, but its messages are Tern's own binary ones
 * ({@link BrokerMessages}), so there is no schema compiler in the build and nothing is parsed
 * twice.
 *
 * <ul>
 *   <li>{@link #EXECUTE}: write a command to a partition led here; answered with the committed
 *       answer (or at once, for engine-to-engine commands that want none).
 *   <li>{@link #SUBSCRIBE}: a stream of this broker's state (addresses, partition roles, terms,
 *       health) whenever it changes, and of "jobs of type T became available" notices for
 *       long-polling gateways. Topology is learned from these streams, one per broker.
 *   <li>{@link #STREAM_JOBS}: a gateway's job stream: jobs of a type pushed as they are activated.
 *   <li>{@link #REBALANCE}: move leadership of the partitions led here to their primaries.
 *   <li>{@link #MEMBERSHIP}: read or change the Raft configuration of a partition led here (the
 *       scaling coordinator's steps; brokers only).
 *   <li>{@link #CLUSTER_CHANGE}: a write to {@code /actuator/cluster} that another broker received
 *       and forwards to the coordinating one (brokers only; the token was checked where it came
 *       in).
 * </ul>
 */
final class BrokerApi {
  static final String SERVICE = "tern.BrokerApi";

  /** Messages are byte arrays: {@link BrokerMessages} encodes and decodes them. */
  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  static final MethodDescriptor<byte[], byte[]> EXECUTE = method("Execute", MethodType.UNARY);
  static final MethodDescriptor<byte[], byte[]> SUBSCRIBE =
      method("Subscribe", MethodType.SERVER_STREAMING);
  static final MethodDescriptor<byte[], byte[]> STREAM_JOBS =
      method("StreamJobs", MethodType.SERVER_STREAMING);
  static final MethodDescriptor<byte[], byte[]> REBALANCE = method("Rebalance", MethodType.UNARY);
  static final MethodDescriptor<byte[], byte[]> MEMBERSHIP = method("Membership", MethodType.UNARY);
  static final MethodDescriptor<byte[], byte[]> CLUSTER_CHANGE =
      method("ClusterChange", MethodType.UNARY);

  /** The largest message either side accepts: a command's value up to the log's batch limit. */
  static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  private BrokerApi() {}

  private static MethodDescriptor<byte[], byte[]> method(String name, MethodType type) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }
}
