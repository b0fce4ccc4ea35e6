package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos suite's message mode, short, on three real broker processes (a class of its own so that
 * it runs beside {@link ChaosEndToEndTest} in another test JVM).
 */
@Tag("slow") // three broker processes under kill -9, pause and partition: docs/testing.md
class ChaosMessagesEndToEndTest {
  @TempDir Path dir;

  /**
   * The message mode, short: instances of four processes wait on three shared correlation keys
   * (catch event, interrupting and non-interrupting boundary, message start) while a leader is
   * killed, paused and cut off. No message may be taken by two instances of one process, and every
   * way must have taken messages.
   */
  @Test
  void theMessageModeTakesEachMessageOncePerProcess() throws Exception {
    Path run = dir.resolve("messages");
    int exit =
        ChaosBenchmark.run(
            new String[] {
              "--workload", "messages",
              "--dir", run.toString(),
              // Several gateways on one machine: each takes a free REST port, not 8080.
              "--config", "gateway.rest.port=0",
              "--faults", "kill-leader,pause,partition",
              "--duration", "1s",
              "--hold", "3s",
              "--quiet", "2s",
              "--settle", "3m",
              "--rate", "8",
              "--keys", "3",
              "--seed", "53"
            });

    String summary = Files.readString(run.resolve("summary.md"));
    assertThat(exit).as(summary).isZero();
    List<String> history = Files.readAllLines(run.resolve("history.jsonl"));
    assertThat(history)
        .as("every fault was injected and healed")
        .filteredOn(line -> line.contains("\"kind\":\"fault\""))
        .hasSize(3);
    for (MessageProcesses.Way way : MessageProcesses.Way.values()) {
      assertThat(history)
          .as("instances of %s took messages", way.processId)
          .filteredOn(
              line ->
                  line.contains("\"kind\":\"activate\"")
                      && line.contains("\"task\":\"" + way.tookJobType() + "\""))
          .hasSizeGreaterThan(3);
    }
    assertThat(history)
        .as("the non-interrupting boundary event's list of the messages it took was read")
        .filteredOn(
            line ->
                line.contains("\"task\":\"" + MessageProcesses.Way.NON_INTERRUPTING.doneJobType())
                    && line.contains("\"taken\":\"[m-"))
        .hasSizeGreaterThan(3);
    assertThat(summary).contains("| way | process |");
  }
}
