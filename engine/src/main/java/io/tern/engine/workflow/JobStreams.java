package io.tern.engine.workflow;

import io.tern.engine.workflow.value.JobValue;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where jobs go besides the ActivateJobs command: workers that hold a stream open for a job type
 * (the gateway's StreamActivatedJobs) get a job pushed the moment it becomes activatable, and
 * long-polling ActivateJobs requests are woken when jobs of their type become available.
 *
 * <p>The engine calls {@link #streamFor} on the partition's processing thread while it processes
 * (so an implementation must be safe to call from there while streams come and go on other
 * threads), and {@link JobStream#push} and {@link #jobsAvailable} after the records are committed.
 */
public interface JobStreams {
  /** No streams and nobody to notify: every job waits for an ActivateJobs command. */
  JobStreams NONE =
      new JobStreams() {
        @Override
        public JobStream streamFor(String jobType) {
          return null;
        }

        @Override
        public void jobsAvailable(String jobType) {}
      };

  /** An open stream for jobs of {@code jobType}, or null if there is none. */
  JobStream streamFor(String jobType);

  /**
   * After commit: jobs of {@code jobType} became activatable and no stream took them (a
   * long-polling request for the type should try again now).
   */
  void jobsAvailable(String jobType);

  /**
   * The non-empty entries of {@code byType} and their sizes, sorted by job type: how many streams
   * or parked requests each type has ({@code GET /actuator/jobstreams}).
   */
  static Map<String, Integer> countByType(Map<String, ? extends Collection<?>> byType) {
    Map<String, Integer> counts = new TreeMap<>();
    byType.forEach(
        (type, entries) -> {
          int size = entries.size();
          if (size > 0) {
            counts.put(type, size);
          }
        });
    return counts;
  }

  /** A worker's open stream for one job type. */
  interface JobStream {
    String worker();

    /** How long a pushed job stays the worker's before it times out and is handed out again. */
    long timeoutMs();

    /** The variables to send with each job; empty: all that are visible from the job's task. */
    List<String> fetchVariables();

    /**
     * After commit: hands the activated job to the worker. Returns false if the stream is gone; the
     * job is then given back (yielded) and becomes activatable again.
     */
    boolean push(long jobKey, JobValue job);
  }
}
