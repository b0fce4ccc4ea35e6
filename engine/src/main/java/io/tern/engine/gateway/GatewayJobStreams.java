package io.tern.engine.gateway;

import io.tern.engine.workflow.JobStreams;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's side of job push and long polling, shared by the partitions of a broker: the open
 * StreamActivatedJobs streams by job type (taken in turn), and the ActivateJobs requests parked
 * until jobs of their type become available.
 */
public final class GatewayJobStreams implements JobStreams {
  private final Map<String, List<JobStream>> streams = new ConcurrentHashMap<>();
  private final Map<String, Set<Runnable>> waiting = new ConcurrentHashMap<>();
  private final AtomicInteger turn = new AtomicInteger();

  @Override
  public JobStream streamFor(String jobType) {
    List<JobStream> open = streams.get(jobType);
    if (open == null || open.isEmpty()) {
      return null;
    }
    try {
      return open.get(Math.floorMod(turn.getAndIncrement(), open.size()));
    } catch (IndexOutOfBoundsException removedMeanwhile) {
      return null;
    }
  }

  @Override
  public void jobsAvailable(String jobType) {
    Set<Runnable> parked = waiting.remove(jobType);
    if (parked != null) {
      parked.forEach(Runnable::run);
    }
  }

  /** Opens a stream for {@code jobType}. */
  void open(String jobType, JobStream stream) {
    streams.computeIfAbsent(jobType, type -> new CopyOnWriteArrayList<>()).add(stream);
  }

  /** Closes a stream (its client went away). */
  void close(String jobType, JobStream stream) {
    List<JobStream> open = streams.get(jobType);
    if (open != null) {
      open.remove(stream);
    }
  }

  /** Runs {@code wakeUp} once, the next time jobs of {@code jobType} become available. */
  void park(String jobType, Runnable wakeUp) {
    waiting.computeIfAbsent(jobType, type -> ConcurrentHashMap.newKeySet()).add(wakeUp);
  }

  /** The open streams by job type ({@code GET /actuator/jobstreams}). */
  public Map<String, Integer> openStreams() {
    return JobStreams.countByType(streams);
  }

  /** The parked ActivateJobs requests by job type ({@code GET /actuator/jobstreams}). */
  public Map<String, Integer> parkedRequests() {
    return JobStreams.countByType(waiting);
  }

  /** Forgets a parked request (it timed out or was answered). */
  void unpark(String jobType, Runnable wakeUp) {
    Set<Runnable> parked = waiting.get(jobType);
    if (parked != null) {
      parked.remove(wakeUp);
    }
  }
}
