package io.tern.benchmark.raft;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The implementations the Raft benchmark can measure, by the name {@code --clusters} uses. The
 * order is the column order of the report. To add one, put one line here.
 *
 * <p>"ratis" appends through Ratis' own client (RaftClient's async API over gRPC); "ratis-direct"
 * submits each append to the leader's RaftServer in the same JVM, skipping the client's gRPC
 * stream, for comparison with an adapter that appends to its leader in-process.
 */
final class Clusters {
  /** The ratio column divides this one's figures by those of the first other cluster measured. */
  static final String TERN = "tern";

  static final String RATIS = "ratis";

  static final String RATIS_DIRECT = "ratis-direct";

  static final Map<String, Supplier<ClusterUnderTest>> ALL;

  static {
    Map<String, Supplier<ClusterUnderTest>> all = new LinkedHashMap<>();
    all.put(TERN, TernCluster::new);
    all.put(RATIS, () -> new RatisCluster(false));
    all.put(RATIS_DIRECT, () -> new RatisCluster(true));
    ALL = Collections.unmodifiableMap(all);
  }

  /** What runs without --clusters: every cluster but the ratis-direct variant. */
  static List<String> defaults() {
    return ALL.keySet().stream().filter(name -> !name.equals(RATIS_DIRECT)).toList();
  }

  private Clusters() {}
}
