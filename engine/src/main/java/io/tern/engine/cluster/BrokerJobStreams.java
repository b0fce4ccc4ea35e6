package io.tern.engine.cluster;

import io.tern.engine.workflow.JobStreams;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A broker's job streams as its engines see them: the streams of its embedded gateway (if any) and
 * those that gateways elsewhere opened here, taken in turn; "jobs available" goes to the embedded
 * gateway and to every subscribed gateway.
 */
public final class BrokerJobStreams implements JobStreams {
  private final JobStreams embedded;
  private final Map<String, List<JobStream>> remote = new ConcurrentHashMap<>();
  private final AtomicInteger turn = new AtomicInteger();
  private volatile Consumer<String> announcer = type -> {};

  /** {@code embedded}: the embedded gateway's streams, or {@link JobStreams#NONE}. */
  public BrokerJobStreams(JobStreams embedded) {
    this.embedded = embedded;
  }

  /** Where "jobs of this type are available" is also announced (the subscribed gateways). */
  public void announceTo(Consumer<String> announcer) {
    this.announcer = announcer;
  }

  @Override
  public JobStream streamFor(String jobType) {
    List<JobStream> open = remote.get(jobType);
    if (open == null || open.isEmpty()) {
      return embedded.streamFor(jobType);
    }
    // Every other time the embedded gateway's stream, if it has one: the load is shared.
    if ((turn.getAndIncrement() & 1) == 0) {
      JobStream local = embedded.streamFor(jobType);
      if (local != null) {
        return local;
      }
    }
    try {
      return open.get(Math.floorMod(turn.getAndIncrement(), open.size()));
    } catch (IndexOutOfBoundsException removedMeanwhile) {
      return embedded.streamFor(jobType);
    }
  }

  @Override
  public void jobsAvailable(String jobType) {
    embedded.jobsAvailable(jobType);
    announcer.accept(jobType);
  }

  /**
   * The streams that gateways elsewhere opened here, by job type ({@code GET
   * /actuator/jobstreams}); the embedded gateway's are its own.
   */
  public Map<String, Integer> remoteStreams() {
    return JobStreams.countByType(remote);
  }

  void openRemote(String jobType, JobStream stream) {
    remote.computeIfAbsent(jobType, type -> new CopyOnWriteArrayList<>()).add(stream);
  }

  void closeRemote(String jobType, JobStream stream) {
    List<JobStream> open = remote.get(jobType);
    if (open != null) {
      open.remove(stream);
    }
  }
}
