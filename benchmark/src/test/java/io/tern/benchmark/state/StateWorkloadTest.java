package io.tern.benchmark.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.benchmark.common.Progress;
import io.tern.engine.state.StateConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keeps the benchmark's workload working (its speed is measured by the benchmark, not here). */
class StateWorkloadTest {
  @TempDir Path dir;

  @Test
  void everyTaskOfEveryWorkflowRunsInItsOwnTransactions() throws Exception {
    StateOptions options =
        new StateOptions(dir, dir.resolve("out.json"), 5, 6, 64, 5, 1, List.of("tuned"));

    StateResult result =
        new StateWorkload(options, new Progress())
            .run("tuned", StateConfig.defaults().withMemoryLimitMb(64), dir.resolve("db"));

    // Task-start latency is measured for every task but each workflow's first.
    assertThat(result.taskStartUs().getTotalCount()).isEqualTo(5 * 5);
    assertThat(result.commitUs().getTotalCount()).isGreaterThanOrEqualTo(2 * 5 * 6);
    assertThat(result.diskBytes()).isPositive();
    assertThat(result.stalls()).isZero();
  }
}
