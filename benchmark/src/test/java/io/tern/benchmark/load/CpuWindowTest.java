package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuWindowTest {
  // A thread name with a space and a parenthesis, as proc(5) allows: the fields count from the
  // last ')'. utime is 7, stime 3.
  private static final String STAT =
      "4242 (C2 CompilerThre) S 1 4242 4242 0 -1 4194368 100 0 0 0 7 3 0 0 20 0 30 0 100 0 0";

  @Test
  void readsTheNameAndTheCpuTicksAfterTheLastParenthesis() {
    assertThat(CpuWindow.name(STAT)).isEqualTo("C2 CompilerThre");
    assertThat(CpuWindow.cpuTicks(STAT)).isEqualTo(10);
    String odd = STAT.replace("(C2 CompilerThre)", "(a) b (c)");
    assertThat(CpuWindow.name(odd)).isEqualTo("a) b (c");
    assertThat(CpuWindow.cpuTicks(odd)).isEqualTo(10);
  }

  @Test
  void measuresTheCpuThisProcessSpendsInTheWindow() {
    assumeThat(Files.isDirectory(Path.of("/proc/self/task"))).isTrue();
    CpuWindow window = CpuWindow.of(List.of());
    window.open();
    long until = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toMillis() + 300;
    long spin = 0;
    while (ProcessHandle.current().info().totalCpuDuration().orElseThrow().toMillis() < until) {
      spin += System.nanoTime() % 7;
    }
    Map<String, Object> figures = window.close(100);
    assertThat(spin).isNotNegative();
    assertThat((double) figures.get("seconds")).isGreaterThanOrEqualTo(0.25);
    assertThat((double) figures.get("msPerInstance"))
        .isEqualTo(
            (double) figures.get("seconds") * 1000 / 100,
            org.assertj.core.data.Offset.offset(1e-9));
    assertThat(String.valueOf(((Map<?, ?>) figures.get("byProcessSeconds")).keySet()))
        .isEqualTo("[benchmark]");
    assertThat((double) figures.get("jitShare")).isBetween(0.0, 1.0);
  }

  @Test
  void reportsNothingForAProcessThatIsGone() {
    CpuWindow window = new CpuWindow(Map.of("gone", Long.MAX_VALUE));
    window.open();
    assertThat(window.close(1)).isEmpty();
  }
}
